import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { parse } from "yaml";
import { loadConfig } from "../../src/config.ts";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { ROOT } from "../helpers/processes.ts";
import { freePort, until } from "../helpers/wait.ts";

interface Service {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

const compose = parse(readFileSync(join(ROOT, "compose.yaml"), "utf8"), { merge: true }) as Compose;
const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const services = Object.entries(compose.services);
const recaps = services.filter(([, service]) => service.build === ".");
const imageEnv = (name: string) => new RegExp(`\\b${name}=(\\S+)`).exec(dockerfile)?.[1];
const exposed = /^EXPOSE (\d+)$/m.exec(dockerfile)?.[1];

/**
 * A value with Compose's interpolation applied for the variables in `shell`: `${NAME:-default}` (nested
 * defaults included), `${NAME:?message}` and `${NAME}`, as `docker compose config` would write it.
 */
function interpolate(value: string, shell: Record<string, string>): string {
  let text = value;
  // The innermost reference first, so that a default may itself hold one.
  for (let inner = /\$\{(\w+)(?::([-?])([^${}]*))?\}/; inner.test(text);) {
    text = text.replace(inner, (_whole, name: string, kind?: string, rest?: string) => {
      const given = shell[name];
      if (given !== undefined && given !== "") return given;
      if (kind === "?") throw new Error(`${name}: ${rest ?? ""}`);
      return kind === "-" ? (rest ?? "") : "";
    });
  }
  return text;
}

/** What a Recap process's environment is under `shell`, as Compose would pass it. */
const recapEnvUnder = (shell: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(recaps[0]?.[1].environment ?? {}).map(([name, value]) => [
      name,
      interpolate(value, shell),
    ]),
  );

// compose.yaml read as Compose reads it (YAML merge keys included): what `docker compose config` would catch
// and what the scaled-out shape needs (docs/OPERATIONS.md, "Container image").
describe("compose.yaml", () => {
  it("runs two Recap processes from the Dockerfile with one environment: PostgreSQL, Redis, one secret", () => {
    expect(recaps.map(([name]) => name)).toEqual(["recap-1", "recap-2"]);
    const [[, first], [, second]] = recaps as [[string, Service], [string, Service]];
    expect(second).toEqual(first);
    const env = first.environment ?? {};
    expect(env.RECAP_SECRET).toMatch(/^\$\{RECAP_SECRET:\?/);
    // The password stays Compose's interpolation of POSTGRES_PASSWORD, the same text as the server's.
    const postgres = compose.services.postgres;
    expect(postgres?.image).toMatch(/^postgres:/);
    const { POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB } = postgres?.environment ?? {};
    expect(env.DATABASE_URL).toBe(
      `postgres://${POSTGRES_USER}:${POSTGRES_PASSWORD}@postgres:5432/${POSTGRES_DB}`,
    );
    expect(compose.services[new URL(env.REDIS_URL ?? "").hostname]?.image).toMatch(/^redis:/);
  });

  it("shares the data volume (media, fonts) and the models volume at the image's directories", () => {
    for (const [, service] of recaps) {
      expect(service.volumes).toEqual([
        `recap-data:${imageEnv("RECAP_DATA_DIR")}`,
        `recap-models:${imageEnv("RECAP_MODELS_DIR")}`,
      ]);
    }
  });

  it("declares every named volume it mounts and mounts every one it declares; bind mounts exist", () => {
    const named = new Set<string>();
    for (const [, service] of services) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(":")[0] ?? "";
        if (source.startsWith("./")) expect(existsSync(join(ROOT, source)), source).toBe(true);
        else named.add(source);
      }
    }
    expect([...named].sort()).toEqual(Object.keys(compose.volumes).sort());
  });

  it("waits for healthy dependencies, and every service has a health check (Recap's is the image's)", () => {
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\/healthz/ms);
    for (const [name, service] of services) {
      const checked = service.healthcheck !== undefined || service.build === ".";
      expect(checked, `${name} has a healthcheck`).toBe(true);
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(condition).toBe("service_healthy");
        expect(compose.services[dependency], `${name} depends on ${dependency}`).toBeDefined();
      }
    }
  });

  it("publishes only the balancer, which proxies to each Recap process at the port the image exposes", () => {
    const published = services.filter(([, service]) => service.ports !== undefined).map(([name]) => name);
    expect(published).toEqual(["balancer"]);
    const balancer = compose.services.balancer ?? {};
    expect(balancer.environment?.RECAP_UPSTREAMS?.split(" ")).toEqual(
      recaps.map(([name]) => `${name}:${exposed}`),
    );
    expect(Object.keys(balancer.depends_on ?? {})).toEqual(recaps.map(([name]) => name));
    // One proxy hop in front of each process: Recap believes the X-Forwarded-For that Caddy sets.
    expect(recaps[0]?.[1].environment?.RECAP_TRUST_PROXY).toBe("1");
  });

  it("gives RECAP_PUBLIC_URL the published port unless it is set", () => {
    const required = { RECAP_SECRET: "s".repeat(40), POSTGRES_PASSWORD: "pw" };
    const ports = (shell: Record<string, string>) =>
      (compose.services.balancer?.ports ?? []).map((port) => interpolate(port, shell));
    expect(recapEnvUnder(required).RECAP_PUBLIC_URL).toBe("http://localhost:8080");
    expect(ports(required)).toContain("8080:80");
    const moved = { ...required, RECAP_HTTP_PORT: "9000" };
    expect(recapEnvUnder(moved).RECAP_PUBLIC_URL).toBe("http://localhost:9000");
    expect(ports(moved)).toContain("9000:80");
    const named = { ...moved, RECAP_PUBLIC_URL: "https://recap.example.com" };
    expect(recapEnvUnder(named).RECAP_PUBLIC_URL).toBe("https://recap.example.com");
  });

  it("passes every RECAP_ASR_* and RECAP_LLM_* setting the server reads from the shell or .env, unset when empty", () => {
    const read = new Set(
      readFileSync(join(ROOT, "src", "config.ts"), "utf8").match(/RECAP_(?:ASR|LLM)_[A-Z][A-Z_]+/g),
    );
    expect(read.size).toBeGreaterThan(5);
    const required = { RECAP_SECRET: "s".repeat(40), POSTGRES_PASSWORD: "pw" };
    const shell = Object.fromEntries([...read].map((name) => [name, `from-shell-${name}`]));
    const passed = recapEnvUnder({ ...required, ...shell });
    for (const name of read) expect(passed[name], name).toBe(`from-shell-${name}`);
    // Unset in the shell, each arrives empty, which the server reads as unset: its own defaults apply.
    const env = recapEnvUnder(required);
    const config = loadConfig({ ...env, DATABASE_URL: env.DATABASE_URL ?? "" }, ROOT);
    expect(config.media.asrRemote).toBeNull();
    expect(config.media.asrConcurrency).toBe(1);
    expect(config.llm).toBeNull();
    const remote = loadConfig(
      { ...recapEnvUnder({ ...required, RECAP_ASR_URL: "http://asr:8000/v1" }) },
      ROOT,
    );
    expect(remote.media.asrRemote?.url).toBe("http://asr:8000/v1");
  });
});

const caddyAvailable = (() => {
  try {
    execFileSync("sh", ["-c", "command -v caddy"], { stdio: "ignore" });
    return true;
  } catch {
    if (process.env.CI === "true") throw new Error("CI=true but caddy is missing: apt-get install -y caddy");
    console.warn("SKIPPED: the balancer's test (no caddy); install it with: apt-get install -y caddy");
    return false;
  }
})();
const postgres = (await dialects()).includes("postgres");

// deploy/Caddyfile run by Debian's Caddy in front of two Recap processes on one PostgreSQL database, as in
// compose.yaml but on this machine's loopback.
describe.skipIf(!caddyAvailable || !postgres)("the balancer (deploy/Caddyfile)", () => {
  let database: TestDatabase;
  const recap: TestServer[] = [];
  let balancer = "";
  let stopCaddy = async () => {};
  const home = mkdtempSync(join(tmpdir(), "recap-caddy-"));
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    for (let i = 0; i < 2; i++) {
      recap.push(
        await startTestServer("postgres", { testDatabase: database, env: { RECAP_TRUST_PROXY: "1" } }),
      );
    }
    const port = await freePort();
    balancer = `127.0.0.1:${port}`;
    // The repository's Caddyfile as it is, with the admin endpoint moved off Caddy's fixed default port.
    const caddyfile = join(home, "Caddyfile");
    writeFileSync(
      caddyfile,
      `{\n\tadmin 127.0.0.1:${await freePort()}\n}\nimport ${join(ROOT, "deploy", "Caddyfile")}\n`,
    );
    const caddy = spawn("caddy", ["run", "--adapter", "caddyfile", "--config", caddyfile], {
      env: {
        ...process.env,
        HOME: home,
        XDG_DATA_HOME: home,
        XDG_CONFIG_HOME: home,
        RECAP_SITE_ADDRESS: `:${port}`,
        RECAP_UPSTREAMS: recap.map((server) => new URL(server.url).host).join(" "),
      },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => caddy.on("exit", resolve));
    stopCaddy = async () => {
      caddy.kill("SIGTERM");
      await exited;
    };
    await until(
      () =>
        fetch(`http://${balancer}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      "Caddy in front of Recap",
    );
  }, 120_000);
  afterAll(async () => {
    await stopCaddy();
    for (const server of recap) await server.close();
    await database?.drop();
    rmSync(home, { recursive: true, force: true });
  });

  it("passes live streaming's WebSocket through, both ways", async () => {
    const { token } = await recap[0]!.newApp();
    const socket = new WebSocket(`ws://${balancer}/v1/streaming/through-caddy?access_token=${token}`);
    const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    socket.send("{}");
    // Recap's own answer to a message that is not a start_request: close code 4000 + 400.
    expect(await closed).toBe(4400);
  });

  it("serves every request while one process is down, with tokens signed by the shared secret", async () => {
    const { token } = await recap[0]!.newApp();
    await recap[0]!.close();
    recap.shift();
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`http://${balancer}/v1/conversations`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
    }
  });
});

import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildTestImage,
  containerToolsAvailable,
  imageConfig,
  runArgs,
  runIn,
  workingContainer,
  type ImageConfig,
} from "../helpers/container.ts";
import { ROOT } from "../helpers/processes.ts";
import { freePort, until } from "../helpers/wait.ts";

const available = containerToolsAvailable();

// The Dockerfile built with buildah as `docker build` would (docs/OPERATIONS.md, "Container image"), on a local
// stand-in for the official node image; then its own entry point and health check run from the image.
describe.skipIf(!available)("the container image", () => {
  let config: ImageConfig;
  let container: { name: string; remove: () => Promise<void> };
  beforeAll(async () => {
    const image = await buildTestImage();
    config = await imageConfig(image);
    container = await workingContainer(image);
  }, 45 * 60_000);
  afterAll(() => container?.remove());

  it("declares the non-root user, the data and models volumes, the port and npm start's command", () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }
    ).scripts;
    expect(config.User).toBe("node");
    expect(Object.keys(config.Volumes).sort()).toEqual(["/data", "/models"]);
    expect(config.Env).toEqual(
      expect.arrayContaining([
        "NODE_ENV=production",
        "HOST=0.0.0.0",
        "PORT=8080",
        "RECAP_DATA_DIR=/data",
        "RECAP_MODELS_DIR=/models",
      ]),
    );
    expect(Object.keys(config.ExposedPorts)).toEqual(["8080/tcp"]);
    expect(config.Cmd).toEqual(scripts.start.split(" "));
    expect(config.Healthcheck.Test[0]).toBe("CMD");
  });

  it("starts from its command, answers /healthz and /readyz, and its HEALTHCHECK passes", async () => {
    const port = String(await freePort());
    const env = { PORT: port, RECAP_SECRET: randomBytes(48).toString("base64url") };
    let output = "";
    const server = spawn("buildah", runArgs(container.name, env, config.Cmd), {
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    server.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => server.on("exit", resolve));
    try {
      const healthz = `http://127.0.0.1:${port}/healthz`;
      await until(
        () =>
          fetch(healthz).then(
            (r) => r.ok,
            () => false,
          ),
        `${healthz}; output: ${output}`,
        {
          tries: 240,
          everyMs: 250,
        },
      );
      expect(await (await fetch(healthz)).json()).toEqual({ status: "ok" });
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({
        status: "ready",
        speech: { engine: "none", vad: "Silero VAD v4 shipped with Recap" },
      });
      expect(output).toContain('"database":"/data/recap.db"');

      // The image's own HEALTHCHECK command, run in the container as Docker would.
      await runIn(container.name, { PORT: port }, config.Healthcheck.Test.slice(1));

      // The CLI beside it, on the same data volume: an app it makes gets a token from the server.
      const { stdout } = await runIn(container.name, { RECAP_SECRET: env.RECAP_SECRET }, [
        "recap",
        "apps",
        "create",
        "--name",
        "From the image",
        "--json",
      ]);
      const credentials = JSON.parse(stdout) as { appId: string; appSecret: string };
      const token = await fetch(`http://127.0.0.1:${port}/oauth2/token:generate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "application", ...credentials }),
      });
      expect(token.status).toBe(200);
    } finally {
      server.kill("SIGTERM");
      await exited;
    }
    // With the server stopped the same check fails: it is not a check that cannot fail.
    await expect(runIn(container.name, { PORT: port }, config.Healthcheck.Test.slice(1))).rejects.toThrow();
  }, 120_000);

  it("runs as the node user, not root, with ffmpeg and ffprobe for media and bzip2 for models", async () => {
    const { stdout } = await runIn(container.name, {}, [
      "sh",
      "-c",
      "id -u; ffmpeg -hide_banner -version | head -n 1; ffprobe -hide_banner -version | head -n 1; command -v bzip2; command -v tar",
    ]);
    const [uid, ffmpeg, ffprobe, ...archivers] = stdout.trim().split("\n");
    expect(uid).toBe("1000");
    expect(ffmpeg).toMatch(/^ffmpeg version /);
    expect(ffprobe).toMatch(/^ffprobe version /);
    expect(archivers).toEqual(["/usr/bin/bzip2", "/usr/bin/tar"]);
  });
});

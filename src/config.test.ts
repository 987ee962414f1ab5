import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, resolveSigningSecret } from "./config.ts";

describe("loadConfig", () => {
  it("defaults to port 8080 on 127.0.0.1 with SQLite at ./data/recap.db", () => {
    const config = loadConfig({}, "/srv/recap");
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      database: { dialect: "sqlite", path: "/srv/recap/data/recap.db" },
      publicUrl: "http://localhost:8080",
      tokenTtlSeconds: 86400,
      requestTimeoutSeconds: 30,
    });
  });

  it("reads DATABASE_URL forms", () => {
    expect(loadConfig({ DATABASE_URL: "sqlite:/tmp/a.db" }).database).toEqual({
      dialect: "sqlite",
      path: "/tmp/a.db",
    });
    expect(loadConfig({ DATABASE_URL: "file:/tmp/b.db" }).database).toEqual({
      dialect: "sqlite",
      path: "/tmp/b.db",
    });
    expect(loadConfig({ DATABASE_URL: "postgresql://u@h/db" }).database).toEqual({
      dialect: "postgres",
      url: "postgresql://u@h/db",
      poolSize: 10,
    });
  });

  it("sizes the PostgreSQL pool from RECAP_DATABASE_POOL_SIZE, and refuses it for SQLite", () => {
    const postgres = { DATABASE_URL: "postgres://u@h/db" };
    expect(loadConfig({ ...postgres, RECAP_DATABASE_POOL_SIZE: "4" }).database).toEqual({
      dialect: "postgres",
      url: "postgres://u@h/db",
      poolSize: 4,
    });
    for (const bad of ["0", "1001", "2.5", "ten"]) {
      expect(() => loadConfig({ ...postgres, RECAP_DATABASE_POOL_SIZE: bad })).toThrow(
        `RECAP_DATABASE_POOL_SIZE must be an integer from 1 to 1000 (got "${bad}")`,
      );
    }
    expect(() => loadConfig({ DATABASE_URL: "sqlite:/tmp/a.db", RECAP_DATABASE_POOL_SIZE: "4" })).toThrow(
      "RECAP_DATABASE_POOL_SIZE applies to PostgreSQL only",
    );
  });

  it("reads RECAP_LIVE_INTERIM_SECONDS to the millisecond, 0 turning interim results off", () => {
    expect(loadConfig({}).media.liveInterimSeconds).toBe(0.5);
    expect(loadConfig({ RECAP_LIVE_INTERIM_SECONDS: "0" }).media.liveInterimSeconds).toBe(0);
    expect(loadConfig({ RECAP_LIVE_INTERIM_SECONDS: "1.25" }).media.liveInterimSeconds).toBe(1.25);
    for (const bad of ["-1", "61", "0.0001", "soon", "1e3"]) {
      expect(() => loadConfig({ RECAP_LIVE_INTERIM_SECONDS: bad })).toThrow(
        `RECAP_LIVE_INTERIM_SECONDS must be a number of seconds from 0 to 60, to the millisecond (got "${bad}")`,
      );
    }
  });

  it("reads the voice matching thresholds as raw cosine similarities, the suggestion not above acceptance", () => {
    expect(loadConfig({}).voiceMatching).toEqual({ accept: 0.6, suggest: 0.45, margin: 0.1 });
    expect(
      loadConfig({ RECAP_VOICE_ACCEPT: "0.8", RECAP_VOICE_SUGGEST: "-0.25", RECAP_VOICE_MARGIN: "0" })
        .voiceMatching,
    ).toEqual({ accept: 0.8, suggest: -0.25, margin: 0 });
    for (const bad of ["1.5", "-2", "high", "1e-1", ".5"]) {
      expect(() => loadConfig({ RECAP_VOICE_ACCEPT: bad })).toThrow(
        `RECAP_VOICE_ACCEPT must be a raw cosine similarity from -1 to 1, such as 0.5 (got "${bad}")`,
      );
    }
    expect(() => loadConfig({ RECAP_VOICE_MARGIN: "-0.1" })).toThrow(
      'RECAP_VOICE_MARGIN must be a raw cosine similarity from 0 to 2, such as 0.5 (got "-0.1")',
    );
    expect(() => loadConfig({ RECAP_VOICE_ACCEPT: "0.5", RECAP_VOICE_SUGGEST: "0.7" })).toThrow(
      "RECAP_VOICE_SUGGEST must not be above RECAP_VOICE_ACCEPT (got 0.7 and 0.5): a suggestion is a weaker match",
    );
  });

  it("keeps speech models under the data directory unless RECAP_MODELS_DIR says where", () => {
    expect(loadConfig({ RECAP_DATA_DIR: "/srv/recap" }).media.modelsDir).toBe("/srv/recap/models");
    expect(loadConfig({ RECAP_MODELS_DIR: "/var/lib/recap-models" }).media.modelsDir).toBe(
      "/var/lib/recap-models",
    );
    expect(loadConfig({ RECAP_DATA_DIR: "/srv/recap", RECAP_MODELS_DIR: "speech" }).media.modelsDir).toBe(
      "/srv/recap/speech",
    );
  });

  it("reads the font catalogue's URL (or off) and keeps fetched fonts under the data directory", () => {
    expect(loadConfig({}).fontCatalogueUrl).toBe("https://fonts.googleapis.com");
    expect(loadConfig({ RECAP_FONT_CATALOGUE_URL: "http://127.0.0.1:9/fonts/" }).fontCatalogueUrl).toBe(
      "http://127.0.0.1:9/fonts",
    );
    expect(loadConfig({ RECAP_FONT_CATALOGUE_URL: "off" }).fontCatalogueUrl).toBeNull();
    expect(loadConfig({ RECAP_DATA_DIR: "/srv/recap" }).fontCacheDir).toBe("/srv/recap/fonts");
    expect(loadConfig({ RECAP_FONT_CACHE_DIR: "/var/cache/recap-fonts" }).fontCacheDir).toBe(
      "/var/cache/recap-fonts",
    );
    for (const bad of [
      "fonts.googleapis.com",
      "ftp://fonts.test",
      "https://u:p@fonts.test",
      "https://f.test/?a=1",
    ]) {
      expect(() => loadConfig({ RECAP_FONT_CATALOGUE_URL: bad }), bad).toThrow(/RECAP_FONT_CATALOGUE_URL/);
    }
  });

  it("reads RECAP_WEBHOOK_ALLOW_HOSTS as one spelling per host, and refuses what is not a host", () => {
    expect(
      loadConfig({ RECAP_WEBHOOK_ALLOW_HOSTS: " Hooks.Internal. ,127.1, ::1,[fd00::1]" }).webhookAllowHosts,
    ).toEqual(["hooks.internal", "127.0.0.1", "::1", "fd00::1"]);
    expect(loadConfig({}).webhookAllowHosts).toEqual([]);
    for (const bad of ["http://hooks.internal/", "hooks.internal:8080", "user@hooks.internal", "a b"]) {
      expect(() => loadConfig({ RECAP_WEBHOOK_ALLOW_HOSTS: bad }), bad).toThrow(/RECAP_WEBHOOK_ALLOW_HOSTS/);
    }
  });

  it("reads RECAP_TRUST_PROXY as Fastify's trustProxy: true, false, hops, or addresses and ranges", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ RECAP_TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ RECAP_TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ RECAP_TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(
      loadConfig({ RECAP_TRUST_PROXY: " 10.0.0.0/8, 192.168.1.10 ,fd00::/8,::1,loopback" }).trustProxy,
    ).toEqual(["10.0.0.0/8", "192.168.1.10", "fd00::/8", "::1", "loopback"]);
    for (const bad of ["0", "101", "yes", "10.0.0.0/33", "proxy.internal", "10.0.0.1,", "1.2.3", "::1/129"]) {
      expect(() => loadConfig({ RECAP_TRUST_PROXY: bad }), bad).toThrow(
        `RECAP_TRUST_PROXY must be true, false, a number of proxy hops from 1 to 100, or proxy addresses and CIDR ranges separated by commas (got "${bad}")`,
      );
    }
  });

  it("keeps /metrics closed unless RECAP_METRICS_TOKEN or RECAP_METRICS_PORT is set, and checks both", () => {
    expect(loadConfig({}).metrics).toEqual({ token: null, port: null });
    const token = "0123456789abcdef-_.~+/=";
    expect(loadConfig({ RECAP_METRICS_TOKEN: token }).metrics).toEqual({ token, port: null });
    expect(loadConfig({ RECAP_METRICS_PORT: "9464" }).metrics).toEqual({ token: null, port: 9464 });
    expect(loadConfig({ RECAP_METRICS_TOKEN: token, RECAP_METRICS_PORT: "9464" }).metrics).toEqual({
      token,
      port: 9464,
    });
    for (const bad of ["short-token", "0123456789abcdef ghi", "0123456789abcdéf", "0123456789abcdef\t"]) {
      expect(() => loadConfig({ RECAP_METRICS_TOKEN: bad }), bad).toThrow(
        "RECAP_METRICS_TOKEN must be at least 16 visible ASCII characters without spaces",
      );
    }
    for (const bad of ["0", "65536", "9464.5", "metrics"]) {
      expect(() => loadConfig({ RECAP_METRICS_PORT: bad }), bad).toThrow(
        `RECAP_METRICS_PORT must be an integer from 1 to 65535 (got "${bad}")`,
      );
    }
    expect(() => loadConfig({ PORT: "9464", RECAP_METRICS_PORT: "9464" })).toThrow(
      "RECAP_METRICS_PORT must differ from PORT (both are 9464)",
    );
  });

  it("reports every problem at once", () => {
    let error: unknown;
    try {
      loadConfig({
        NODE_ENV: "production",
        PORT: "eighty",
        DATABASE_URL: "mysql://x",
        RECAP_PUBLIC_URL: "ftp://x",
        LOG_LEVEL: "loud",
        RECAP_TOKEN_TTL_SECONDS: "-5",
        RECAP_REQUEST_TIMEOUT_SECONDS: "0",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join("\n");
    for (const name of [
      "PORT",
      "DATABASE_URL",
      "RECAP_PUBLIC_URL",
      "LOG_LEVEL",
      "RECAP_TOKEN_TTL_SECONDS",
      "RECAP_REQUEST_TIMEOUT_SECONDS",
      "RECAP_SECRET",
    ]) {
      expect(problems).toContain(name);
    }
  });

  it("turns the language model on with RECAP_LLM_URL and RECAP_LLM_MODEL, and off (no network) without them", () => {
    expect(loadConfig({}).llm).toBeNull();
    expect(
      loadConfig({ RECAP_LLM_URL: "http://127.0.0.1:11434/v1/", RECAP_LLM_MODEL: "llama3.1:8b" }).llm,
    ).toEqual({
      url: "http://127.0.0.1:11434/v1",
      model: "llama3.1:8b",
      apiKey: null,
      timeoutSeconds: 120,
      contextTokens: 8192,
    });
    expect(
      loadConfig({
        RECAP_LLM_URL: "https://api.openai.com/v1",
        RECAP_LLM_MODEL: "gpt-4o-mini",
        RECAP_LLM_API_KEY: "sk-x",
        RECAP_LLM_TIMEOUT_SECONDS: "30",
        RECAP_LLM_CONTEXT_TOKENS: "128000",
      }).llm,
    ).toMatchObject({ apiKey: "sk-x", timeoutSeconds: 30, contextTokens: 128000 });
  });

  it("refuses a language-model URL that is not an API base, half a model setting, or a stray one", () => {
    for (const url of [
      "localhost:11434",
      "ftp://models/v1",
      "http://user:key@host/v1",
      "http://host/v1?x=1",
    ]) {
      expect(() => loadConfig({ RECAP_LLM_URL: url, RECAP_LLM_MODEL: "m" }), url).toThrow(
        /RECAP_LLM_URL must be the absolute http\(s\) URL of an OpenAI-compatible API/,
      );
    }
    expect(() => loadConfig({ RECAP_LLM_URL: "http://127.0.0.1:8080/v1" })).toThrow(
      /RECAP_LLM_URL and RECAP_LLM_MODEL must be set together/,
    );
    expect(() => loadConfig({ RECAP_LLM_API_KEY: "sk-x" })).toThrow(
      /RECAP_LLM_API_KEY: only used with RECAP_LLM_URL/,
    );
    expect(() =>
      loadConfig({ RECAP_LLM_URL: "http://h/v1", RECAP_LLM_MODEL: "m", RECAP_LLM_CONTEXT_TOKENS: "512" }),
    ).toThrow(/RECAP_LLM_CONTEXT_TOKENS must be an integer from 2048/);
  });

  it("generates a development secret once and keeps it in the data directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "recap-config-"));
    const config = loadConfig({ RECAP_DATA_DIR: dir });
    const first = resolveSigningSecret(config);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveSigningSecret(config)).toBe(first);
    expect(readFileSync(join(dir, "secret"), "utf8")).toBe(first);
  });
});

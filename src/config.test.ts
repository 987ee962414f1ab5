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
    });
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

  it("generates a development secret once and keeps it in the data directory", () => {
    const dir = mkdtempSync(join(tmpdir(), "recap-config-"));
    const config = loadConfig({ RECAP_DATA_DIR: dir });
    const first = resolveSigningSecret(config);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveSigningSecret(config)).toBe(first);
    expect(readFileSync(join(dir, "secret"), "utf8")).toBe(first);
  });
});

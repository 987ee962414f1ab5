// GET/PATCH /v1/app: the token's own app, with the rules `bin/recap apps update` applies (AppsService).
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { apiClient } from "../helpers/api.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { ROOT } from "../helpers/processes.ts";
import { suiteServer } from "../helpers/suite.ts";

const run = promisify(execFile);

describe.each(await dialects())("the app's settings by API on %s", (dialect) => {
  const suite = suiteServer(dialect);

  const owner = async (settings: { customDomain?: string } = {}) => {
    const app = await suite.server.newApp(settings);
    return { ...app, api: apiClient(suite.server.url, app.token) };
  };

  it("shows the app's settings, never its secrets, and only to its token", async () => {
    const { appId, api } = await owner({ customDomain: "show.example.com" });
    // The answer's writer is made at the first answer; it once warned on stderr of each format it did not know.
    const warn = vi.spyOn(console, "warn");
    const answer = await api.get<Body.AppSettings>("/v1/app");
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      appId,
      name: "Test app",
      customDomain: "show.example.com",
      frameAncestors: [],
      brand: {},
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
      voiceProfiles: false,
    });
    expect(answer.text).not.toMatch(/whsec_|secret/i);
    expect((await apiClient(suite.server.url).get("/v1/app")).status).toBe(401);
    expect((await apiClient(suite.server.url).patch("/v1/app", { name: "Taken" })).status).toBe(401);
  });

  it("changes name, custom domain and frame ancestors in the CLI's canonical forms, and removes the domain with null", async () => {
    const { appId, api } = await owner();
    const changed = await api.patch<Body.AppSettings>("/v1/app", {
      name: "  Acme summaries ",
      customDomain: "Sum.ACME.example.",
      frameAncestors: ["https://intranet.acme.example/", "http://localhost:3000"],
    });
    expect(changed.status, changed.text).toBe(200);
    const expected = {
      appId,
      name: "Acme summaries",
      customDomain: "sum.acme.example",
      frameAncestors: ["https://intranet.acme.example", "http://localhost:3000"],
    };
    expect(changed.body).toMatchObject(expected);
    expect((await api.get<Body.AppSettings>("/v1/app")).body).toMatchObject(expected);
    expect(await suite.server.services.apps.getApp(appId)).toMatchObject(expected);

    const removed = await api.patch<Body.AppSettings>("/v1/app", { customDomain: null, frameAncestors: [] });
    expect(removed.body).toMatchObject({ name: "Acme summaries", customDomain: null, frameAncestors: [] });
  });

  it("answers 400 naming the setting and the rule, and changes nothing", async () => {
    const { api } = await owner({ customDomain: "before.example.com" });
    const before = (await api.get<Body.AppSettings>("/v1/app")).body;
    const cases: [unknown, string][] = [
      [{}, "body must set name, customDomain, frameAncestors, brand, voiceProfiles or rotateWebhookSecret"],
      [
        { rotateWebhookSecret: false },
        "body must set name, customDomain, frameAncestors, brand, voiceProfiles or rotateWebhookSecret",
      ],
      [{ name: "   " }, "name must be 1 to 200 characters"],
      [{ name: "x".repeat(201) }, "name must be 1 to 200 characters"],
      [{ name: 7 }, "name must be string"],
      [
        { customDomain: "https://sum.example.com/" },
        'customDomain must be a host name such as summaries.example.com, without scheme, port or path (got "https://sum.example.com/")',
      ],
      [
        { customDomain: "sum.example.com:8443" },
        'customDomain must be a host name such as summaries.example.com, without scheme, port or path (got "sum.example.com:8443")',
      ],
      [{ frameAncestors: "https://a.example" }, "frameAncestors must be array"],
      [
        { frameAncestors: ["https://a.example", "ftp://b.example"] },
        'frameAncestors must be http(s) origins such as https://example.com (got "ftp://b.example")',
      ],
      [
        { frameAncestors: ["https://a.example/embed"] },
        'frameAncestors must be http(s) origins such as https://example.com (got "https://a.example/embed")',
      ],
      [
        { name: "Good name", frameAncestors: ["nope"] },
        'frameAncestors must be http(s) origins (got "nope")',
      ],
      [{ rotateWebhookSecret: "yes" }, "rotateWebhookSecret must be boolean"],
      [
        { brand: { color: { background: "red" } } },
        "brand.color.background must be a colour written exactly as #RRGGBB, such as #1A2B3C",
      ],
      [{ brand: { logo: "javascript:alert(1)" } }, "brand.logo must be an absolute http(s) URL"],
      [
        { brand: { font: { family: "Comic; Sans" } } },
        "brand.font.family must be a web-font family name of letters, digits, spaces and hyphens (at most 64)",
      ],
      [{ name: "Bad\u0000" }, "name must not contain the NUL character (U+0000)"],
    ];
    for (const [body, message] of cases) {
      const answer = await api.patch<Body.ErrorBody>("/v1/app", body);
      expect([body, answer.status, answer.body.message]).toEqual([body, 400, message]);
    }
    expect((await api.get<Body.AppSettings>("/v1/app")).body).toEqual(before);
  });

  it("refuses (409) a custom domain another app holds, or the server's own host, and changes nothing", async () => {
    await owner({ customDomain: "taken.example.com" });
    const { api } = await owner();
    const publicHost = new URL(suite.server.config.publicUrl).hostname;
    const cases: [unknown, string][] = [
      [
        { customDomain: "TAKEN.example.com." },
        "customDomain taken.example.com is already another app's custom domain",
      ],
      [
        { customDomain: publicHost },
        `customDomain ${publicHost} is this server's own host (RECAP_PUBLIC_URL)`,
      ],
    ];
    for (const [body, message] of cases) {
      const answer = await api.patch<Body.ErrorBody>("/v1/app", { name: "Thief", ...(body as object) });
      expect([answer.status, answer.body.message]).toEqual([409, message]);
    }
    expect((await api.get<Body.AppSettings>("/v1/app")).body).toMatchObject({
      name: "Test app",
      customDomain: null,
    });
    // An app may set its own domain again.
    const same = await owner({ customDomain: "mine.example.com" });
    expect((await same.api.patch("/v1/app", { customDomain: "mine.example.com" })).status).toBe(200);
  });

  it("rotates the webhook signing secret, showing the new one once, and changes only the token's app", async () => {
    const mine = await owner();
    const other = await owner();
    const otherBefore = await suite.server.services.apps.webhookSecret(other.appId);
    const before = await suite.server.services.apps.webhookSecret(mine.appId);
    const rotated = await mine.api.patch<Body.AppSettings>("/v1/app", { rotateWebhookSecret: true });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.body.webhookSecret).not.toBe(before);
    // The one answer that carries the secret is kept by no cache, a browser's or a proxy's.
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    expect(await suite.server.services.apps.webhookSecret(mine.appId)).toBe(rotated.body.webhookSecret);
    expect((await mine.api.get<Body.AppSettings>("/v1/app")).body.webhookSecret).toBeUndefined();
    expect(await suite.server.services.apps.webhookSecret(other.appId)).toBe(otherBefore);

    // A bad setting beside the rotation refuses both.
    const refused = await mine.api.patch<Body.ErrorBody>("/v1/app", { rotateWebhookSecret: true, name: "" });
    expect(refused.status).toBe(400);
    expect(await suite.server.services.apps.webhookSecret(mine.appId)).toBe(rotated.body.webhookSecret);
  });

  it("keeps a brand that summary pages take for what their link does not set, earlier links included", async () => {
    const { api, token } = await owner();
    const { conversationId } = await suite.server.ingest(token, {
      name: "Quarterly review",
      messages: [{ payload: { content: "The budget is final." }, from: { name: "Ana" } }],
    });
    const link = async (body: object) => {
      const created = await api.post<Body.ExperienceCreated>(
        `/v1/conversations/${conversationId}/experiences`,
        { name: "verbose-text-summary", ...body },
      );
      return new URL(created.body.url).pathname;
    };
    const page = async (path: string) => (await fetch(suite.server.url + path)).text();
    const plain = await link({});
    const own = await link({ color: { background: "#203040" }, logo: "https://own.example/logo.png" });

    const brand = {
      logo: "https://acme.example/logo.png",
      favicon: "https://acme.example/favicon.ico",
      color: { background: "#10243E", topicsFilter: "#2f9e8f" },
      font: { family: "Source Sans 3" },
    };
    const changed = await api.patch<Body.AppSettings>("/v1/app", { brand });
    expect(changed.status, changed.text).toBe(200);
    const kept = { ...brand, color: { background: "#10243e", topicsFilter: "#2f9e8f" } };
    expect(changed.body.brand).toEqual(kept);
    expect((await api.get<Body.AppSettings>("/v1/app")).body.brand).toEqual(kept);

    const branded = await page(plain);
    expect(branded).toContain("--bg:#10243e;");
    expect(branded).toContain('<img class="logo" src="https://acme.example/logo.png"');
    expect(branded).toContain('<link rel="icon" href="https://acme.example/favicon.ico"');
    expect(branded).toContain("Source Sans 3");
    const ownPage = await page(own);
    expect(ownPage).toContain("--bg:#203040;");
    expect(ownPage).toContain('src="https://own.example/logo.png"');
    expect(ownPage).toContain('href="https://acme.example/favicon.ico"');
    // The API's list shows each link's own settings, not the app's.
    const listed = await api.get<{ experiences: { settings: { color: object } }[] }>(
      `/v1/conversations/${conversationId}/experiences`,
    );
    expect(listed.body.experiences.map((experience) => experience.settings.color)).toEqual([
      { background: "#203040" },
      {},
    ]);

    expect((await api.patch<Body.AppSettings>("/v1/app", { brand: {} })).body.brand).toEqual({});
    const unbranded = await page(plain);
    expect(unbranded).toContain("--bg:#f5f6f8;");
    expect(unbranded).not.toContain("acme.example");
  });

  it("turns voice profiles on and off with bin/recap apps update, as PATCH /v1/app does", async () => {
    const { appId, api } = await owner();
    const target = suite.server.config.database;
    const env = {
      ...process.env,
      DATABASE_URL: target.dialect === "sqlite" ? `sqlite:${target.path}` : target.url,
      RECAP_SECRET: "x".repeat(32),
    };
    const update = async (flag: string) =>
      JSON.parse(
        (await run(join(ROOT, "bin", "recap"), ["apps", "update", appId, flag, "--json"], { env })).stdout,
      ) as {
        voiceProfiles: boolean;
      };
    expect((await update("--voice-profiles")).voiceProfiles).toBe(true);
    expect((await api.get<Body.AppSettings>("/v1/app")).body.voiceProfiles).toBe(true);
    expect((await update("--no-voice-profiles")).voiceProfiles).toBe(false);
    expect((await api.get<Body.AppSettings>("/v1/app")).body.voiceProfiles).toBe(false);
  }, 120_000);
});

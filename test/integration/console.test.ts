import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startTestServer, TestClock, type TestServer } from "../helpers/app.ts";
import { generateToken } from "../helpers/api.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { dialects } from "../helpers/databases.ts";
import { rawRequest } from "../helpers/raw-http.ts";

const STANDUP_VTT = readFileSync(join(import.meta.dirname, "..", "..", "examples", "standup.vtt"), "utf8");

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function withServer(
  dialect: "sqlite" | "postgres",
  work: (server: TestServer) => Promise<void>,
  options: Parameters<typeof startTestServer>[1] = {},
): Promise<void> {
  const server = await startTestServer(dialect, options);
  try {
    await work(server);
  } finally {
    await server.close();
  }
}

async function signedIn(server: TestServer): Promise<{ client: ConsoleClient; token: string }> {
  const { appId, appSecret, token } = await server.newApp();
  const client = new ConsoleClient(server);
  expect((await client.signIn(appId, appSecret)).status).toBe(303);
  return { client, token };
}

describe.each(await dialects())("the console on %s", (dialect) => {
  it("leads / to sign-in, and signs in with a strict, HttpOnly, expiring __Host- session cookie", async () => {
    await withServer(dialect, async (server) => {
      const root = await fetch(`${server.url}/`, { redirect: "manual" });
      expect(root.status).toBe(303);
      expect(root.headers.get("location")).toBe("/console");
      const console = await fetch(`${server.url}/console`, { redirect: "manual" });
      expect(console.headers.get("location")).toBe("/console/sign-in");

      const { appId, appSecret } = await server.newApp();
      const client = new ConsoleClient(server);
      const answer = await client.signIn(appId, appSecret);
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toBe("/console/conversations");
      const cookie = answer.headers.get("set-cookie") ?? "";
      // A loopback host over plain HTTP: browsers keep Secure cookies from it, so the __Host- form applies.
      expect(cookie).toMatch(/^__Host-recap_console=[\w-]{43};/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Strict/);
      expect(cookie).toMatch(/; Max-Age=43200/);
      expect(cookie).toMatch(/; Path=\/(;|$)/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).not.toMatch(/Domain=/i);
      const list = await client.request("/console/conversations");
      expect(list.status).toBe(200);
      expect(list.headers.get("content-security-policy")).toContain("script-src 'self'");
      const html = await list.text();
      expect(html).toContain("No conversations yet");
      expect(html).toContain("App: <strong>Test app</strong>");
    });
  });

  it("ends the session on the server at sign-out: the same cookie sent again opens nothing", async () => {
    await withServer(dialect, async (server) => {
      const { client } = await signedIn(server);
      const session = client.cookie;
      const out = await client.request("/console/sign-out", { method: "POST" });
      expect(out.status).toBe(303);
      expect(out.headers.get("location")).toBe("/console/sign-in");
      for (const path of ["/console/conversations", "/console/settings", "/console/import"]) {
        const replayed = await fetch(server.url + path, { redirect: "manual", headers: { cookie: session } });
        expect(replayed.status, path).toBe(303);
        expect(replayed.headers.get("location")).toBe("/console/sign-in");
      }
      expect(out.headers.get("set-cookie")).toMatch(/^__Host-recap_console=;.*Path=\/;.*Secure/);
    });
  });

  it("opens nothing for a request carrying two session cookies, one planted beside the owner's", async () => {
    await withServer(dialect, async (server) => {
      const owner = await signedIn(server);
      const planter = await signedIn(server);
      for (const cookie of [
        `${planter.client.cookie}; ${owner.client.cookie}`,
        `${owner.client.cookie}; ${planter.client.cookie}`,
      ]) {
        const answer = await fetch(`${server.url}/console/import`, {
          redirect: "manual",
          headers: { cookie },
        });
        expect(answer.status).toBe(303);
        expect(answer.headers.get("location")).toBe("/console/sign-in");
      }
      expect((await owner.client.request("/console/import")).status).toBe(200);
    });
  });

  it("uses a plain recap_console cookie over plain HTTP to another host, where no browser keeps a Secure one", async () => {
    await withServer(dialect, async (server) => {
      const { appId, appSecret } = await server.newApp();
      const host = `recap.example:${new URL(server.url).port}`;
      const body = new URLSearchParams({ appId, appSecret }).toString();
      const answer = await rawRequest(
        server.url,
        `POST /console/sign-in HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://${host}\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
      expect(answer.status).toBe(303);
      const cookie = answer.headers.get("set-cookie") ?? "";
      expect(cookie).toMatch(/^recap_console=[\w-]{43};/);
      expect(cookie).toMatch(/; Path=\/(;|$)/);
      expect(cookie).not.toMatch(/Secure/);
      const list = await rawRequest(
        server.url,
        `GET /console/conversations HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie.split(";")[0]}\r\n` +
          "Connection: close\r\n\r\n",
      );
      expect(list.status).toBe(200);
    });
  });

  it("refuses a wrong secret with the token route's message and sets no cookie", async () => {
    await withServer(dialect, async (server) => {
      const { appId } = await server.newApp();
      const answer = await new ConsoleClient(server).signIn(appId, "not-the-secret");
      expect(answer.status).toBe(401);
      expect(answer.headers.get("set-cookie")).toBeNull();
      expect(await answer.text()).toContain("appId or appSecret is wrong");
    });
  });

  it("limits sign-in attempts of one address with the token route's limit, counted together", async () => {
    await withServer(
      dialect,
      async (server) => {
        const { appId, appSecret } = await server.newApp();
        const client = new ConsoleClient(server);
        expect((await client.signIn(appId, "wrong")).status).toBe(401);
        const token = await fetch(`${server.url}/oauth2/token:generate`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ type: "application", appId, appSecret }),
        });
        expect(token.status).toBe(200);
        expect((await client.signIn(appId, "wrong")).status).toBe(401);
        const limited = await client.signIn(appId, appSecret);
        expect(limited.status).toBe(429);
        expect(limited.headers.get("content-type")).toMatch(/^text\/html/);
        expect(await limited.text()).toContain("at most 3 requests a minute");
      },
      { env: { RECAP_TOKEN_RATE_LIMIT_PER_MINUTE: "3" } },
    );
  });

  it("answers an unknown console address with a console page (signed in) or sign-in (signed out)", async () => {
    await withServer(dialect, async (server) => {
      const { client } = await signedIn(server);
      const unknown = await client.request("/console/conversations/x/y/z");
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await unknown.text();
      expect(html).toContain("<title>Page not found · Recap console</title>");
      expect(html).toContain("There is no such page in the console");
      expect(html).toContain("Sign out");
      const stranger = await fetch(`${server.url}/console/nope`, { redirect: "manual" });
      expect(stranger.status).toBe(303);
      expect(stranger.headers.get("location")).toBe("/console/sign-in");
    });
  });

  it("ends a session after 12 hours, and at a secret rotation", async () => {
    const clock = new TestClock();
    await withServer(
      dialect,
      async (server) => {
        const { appId, appSecret } = await server.newApp();
        const client = new ConsoleClient(server);
        await client.signIn(appId, appSecret);
        clock.advance(12 * 3600 - 60);
        expect((await client.request("/console/conversations")).status).toBe(200);
        clock.advance(61);
        const expired = await client.request("/console/conversations");
        expect(expired.status).toBe(303);
        expect(expired.headers.get("location")).toBe("/console/sign-in");

        await client.signIn(appId, appSecret);
        expect((await client.request("/console/conversations")).status).toBe(200);
        await server.services.apps.rotateSecret(appId);
        expect((await client.request("/console/conversations")).status).toBe(303);
      },
      { clock },
    );
  });

  it("refuses a forged cross-site POST with 403 and changes nothing", async () => {
    await withServer(dialect, async (server) => {
      const { client, token } = await signedIn(server);
      const { conversationId } = await server.ingest(token, {
        name: "Kept",
        messages: [{ payload: { content: "We keep this." }, from: { name: "Ana" } }],
      });
      const path = `/console/conversations/${conversationId}/delete`;
      const forged = await client.request(path, {
        method: "POST",
        headers: { "sec-fetch-site": "cross-site" },
      });
      expect(forged.status).toBe(403);
      const foreign = await client.request(path, {
        method: "POST",
        headers: { origin: "https://evil.example" },
      });
      expect(foreign.status).toBe(403);
      const bare = await fetch(server.url + path, { method: "POST", headers: { cookie: client.cookie } });
      expect(bare.status).toBe(403);
      expect((await server.api(token, `/v1/conversations/${conversationId}`)).status).toBe(200);
    });
  });

  it("imports a transcript, follows its job to completed, lists, searches and deletes it", async () => {
    await withServer(dialect, async (server) => {
      const { client, token } = await signedIn(server);
      const imported = await client.import("Daily standup", "standup.vtt", STANDUP_VTT);
      expect(imported.status).toBe(303);
      const jobPath = imported.headers.get("location") ?? "";
      expect(jobPath).toMatch(/^\/console\/jobs\//);
      await server.services.jobRunner.runUntilIdle();
      const job = await (await client.request(jobPath)).text();
      expect(job).toContain("Completed");
      // The ways on once it has ended: the conversation's page, a link to it, another import.
      const conversationPath = /href="(\/console\/conversations\/\d+)">Open the conversation</.exec(job)?.[1];
      expect(conversationPath).toBeDefined();
      expect(job).toContain(`href="${conversationPath}/links/new">Create a link</a>`);
      expect(job).toContain('href="/console/import">Import another transcript</a>');

      const list = await (await client.request("/console/conversations?q=STANDUP")).text();
      expect(list).toContain("Daily standup");
      expect(list).toContain("Completed");
      expect(list).toContain("Analysed");
      expect(await (await client.request("/console/conversations?q=retro")).text()).toContain(
        "No conversation's name contains",
      );

      const conversationId = /\/console\/conversations\/(\d+)\/delete/.exec(list)?.[1] ?? "";
      const confirm = await client.request(`/console/conversations/${conversationId}/delete`);
      expect(await confirm.text()).toContain("Delete this conversation?");
      const deleted = await client.request(`/console/conversations/${conversationId}/delete`, {
        method: "POST",
      });
      expect(deleted.status).toBe(303);
      expect((await server.api(token, `/v1/conversations/${conversationId}`)).status).toBe(404);
    });
  });

  it("answers a bad file with 400 and the API's message next to the field, storing nothing", async () => {
    await withServer(dialect, async (server) => {
      const { client, token } = await signedIn(server);
      const bad = await client.import("Broken", "notes.json", JSON.stringify({ messages: [] }));
      expect(bad.status).toBe(400);
      const html = await bad.text();
      expect(html).toMatch(/id="field-file-error">messages must NOT have fewer than 1 items</);
      expect(html).toContain('value="Broken"');
      const vtt = await client.import("Broken", "notes.vtt", "not a transcript");
      expect(vtt.status).toBe(400);
      expect(await vtt.text()).toContain("not a readable WebVTT or SRT transcript");
      const backwards = await client.import(
        "Broken",
        "notes.srt",
        "1\n00:00:01,000 --> 00:00:02,000\nFine.\n\n2\n00:00:08,000 --> 00:00:03,000\nBackwards.\n",
      );
      expect(backwards.status).toBe(400);
      expect(await backwards.text()).toMatch(
        /id="field-file-error">cue 2 \(00:00:08,000 --&gt; 00:00:03,000\) must not end before it starts</,
      );
      const kind = await client.import("Broken", "notes.docx", "hello");
      expect(await kind.text()).toContain(
        "file must be a WebVTT (.vtt), SRT (.srt) or JSON (.json) transcript",
      );
      const listed = await server.api(token, "/v1/conversations");
      expect(((await listed.json()) as { conversations: unknown[] }).conversations).toEqual([]);
    });
  });

  it("shows the app's settings and changes them with PATCH /v1/app's rules", async () => {
    await withServer(dialect, async (server) => {
      const { appId, appSecret, token } = await server.newApp({
        frameAncestors: ["https://intranet.example"],
      });
      const client = new ConsoleClient(server);
      await client.signIn(appId, appSecret);
      const shown = await (await client.request("/console/settings")).text();
      expect(shown).toContain(appId);
      expect(shown).toContain("Test app");
      expect(shown).toContain("<code>https://intranet.example</code>");
      expect(shown).toContain('href="/console/settings"');

      const saved = await client.saveSettings({
        name: "  Team recaps ",
        customDomain: "Recaps.Example.com",
        frameAncestors: "https://intranet.example\r\n\r\nhttps://wiki.example/\n",
      });
      expect(saved.status).toBe(303);
      expect(saved.headers.get("location")).toBe("/console/settings?saved=settings");
      expect(await (await client.request("/console/settings?saved=settings")).text()).toContain(
        "Settings saved.",
      );
      const app = (await (await server.api(token, "/v1/app")).json()) as Record<string, unknown>;
      expect(app).toMatchObject({
        name: "Team recaps",
        customDomain: "recaps.example.com",
        frameAncestors: ["https://intranet.example", "https://wiki.example"],
      });

      expect(app).toMatchObject({ voiceProfiles: false });
      expect(shown).toMatch(/id="field-voiceProfiles"[^>]*type="checkbox"/);
      expect(shown).not.toMatch(/id="field-voiceProfiles"[^>]*checked/);

      const voicesOn = await client.saveSettings({
        name: "Team recaps",
        customDomain: "recaps.example.com",
        frameAncestors: "",
        voiceProfiles: "on",
      });
      expect(voicesOn.status).toBe(303);
      expect(await (await server.api(token, "/v1/app")).json()).toMatchObject({ voiceProfiles: true });
      expect(await (await client.request("/console/settings")).text()).toMatch(
        /id="field-voiceProfiles"[^>]*checked/,
      );

      const cleared = await client.saveSettings({
        name: "Team recaps",
        customDomain: " ",
        frameAncestors: "",
      });
      expect(cleared.status).toBe(303);
      const after = (await (await server.api(token, "/v1/app")).json()) as Record<string, unknown>;
      expect(after).toMatchObject({ customDomain: null, frameAncestors: [], voiceProfiles: false });
    });
  });

  it("refuses a bad setting with the API's message next to its field, storing nothing", async () => {
    await withServer(dialect, async (server) => {
      await server.newApp({ customDomain: "taken.example.com" });
      const { client, token } = await signedIn(server);
      const before = await (await server.api(token, "/v1/app")).text();
      const good = {
        name: "Renamed",
        customDomain: "mine.example.com",
        frameAncestors: "https://ok.example",
      };
      const ownHost = new URL(server.config.publicUrl).hostname;
      const refusals: [Partial<typeof good>, number, string, string][] = [
        [{ name: " " }, 400, "name", "Name must be 1 to 200 characters"],
        [{ name: "x".repeat(201) }, 400, "name", "Name must be 1 to 200 characters"],
        [
          { customDomain: "https://bad.example/path" },
          400,
          "customDomain",
          "Custom domain must be a host name",
        ],
        [
          { customDomain: "taken.example.com" },
          409,
          "customDomain",
          "already another app&#39;s custom domain",
        ],
        [{ customDomain: ownHost }, 409, "customDomain", "this server&#39;s own host"],
        [
          { frameAncestors: "https://ok.example\nftp://files.example" },
          400,
          "frameAncestors",
          "Frame ancestors must be http(s) origins",
        ],
        [
          { frameAncestors: "https://ok.example/page" },
          400,
          "frameAncestors",
          "Frame ancestors must be http(s) origins",
        ],
        [
          { frameAncestors: Array.from({ length: 101 }, (_, i) => `https://s${i}.example`).join("\n") },
          400,
          "frameAncestors",
          "Frame ancestors must NOT have more than 100 items",
        ],
      ];
      for (const [change, status, name, message] of refusals) {
        const answer = await client.saveSettings({ ...good, ...change });
        expect(answer.status, message).toBe(status);
        const html = await answer.text();
        expect(html).toMatch(new RegExp(`id="field-${name}-error">[^<]*${escapeRegExp(message)}`));
        expect(html).toMatch(
          new RegExp(
            `id="field-${name}"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*field-${name}-error`,
          ),
        );
        expect(html.match(/aria-invalid/g)).toHaveLength(1);
        expect(await (await server.api(token, "/v1/app")).text()).toBe(before);
      }
    });
  });

  it("rotates the app secret: shows the new one once, keeps this owner signed in and ends the rest", async () => {
    await withServer(dialect, async (server) => {
      const { appId, appSecret } = await server.newApp();
      const owner = new ConsoleClient(server);
      const other = new ConsoleClient(server);
      await owner.signIn(appId, appSecret);
      await other.signIn(appId, appSecret);
      const oldCookie = owner.cookie;

      const confirm = await (await owner.request("/console/settings/rotate-secret")).text();
      expect(confirm).toContain("Rotate the app secret?");
      expect(confirm).toContain("every console session ends except this one");
      const rotated = await owner.request("/console/settings/rotate-secret", { method: "POST" });
      expect(rotated.status).toBe(200);
      expect(rotated.headers.get("cache-control")).toContain("no-store");
      const html = await rotated.text();
      expect(html).toContain("shown only this once");
      const newSecret = /<textarea id="new-secret"[^>]*>([A-Za-z0-9]+)<\/textarea>/.exec(html)?.[1] ?? "";
      expect(newSecret).toHaveLength(128);
      expect(owner.cookie).not.toBe(oldCookie);
      expect(owner.cookie).not.toContain(newSecret);

      expect((await generateToken(server.url, appId, newSecret)).status).toBe(200);
      expect((await generateToken(server.url, appId, appSecret)).status).toBe(401);

      expect((await owner.request("/console/settings")).status).toBe(200);
      const settings = await (await owner.request("/console/settings")).text();
      expect(settings).not.toContain(newSecret);
      const stale = await fetch(`${server.url}/console/settings`, {
        redirect: "manual",
        headers: { cookie: oldCookie },
      });
      expect(stale.status).toBe(303);
      expect(stale.headers.get("location")).toBe("/console/sign-in");
      expect((await other.request("/console/conversations")).headers.get("location")).toBe(
        "/console/sign-in",
      );
    });
  });

  it("rotates the webhook signing secret and shows the new one once", async () => {
    await withServer(dialect, async (server) => {
      const { appId, appSecret } = await server.newApp();
      const client = new ConsoleClient(server);
      await client.signIn(appId, appSecret);
      const before = await server.services.apps.webhookSecret(appId);
      expect(await (await client.request("/console/settings/rotate-webhook-secret")).text()).toContain(
        "Rotate the webhook signing secret?",
      );
      const rotated = await client.request("/console/settings/rotate-webhook-secret", { method: "POST" });
      expect(rotated.headers.get("cache-control")).toContain("no-store");
      const shown = /<textarea id="new-secret"[^>]*>(whsec_[^<]+)<\/textarea>/.exec(
        await rotated.text(),
      )?.[1];
      const after = await server.services.apps.webhookSecret(appId);
      expect(after).not.toBe(before);
      expect(shown).toBe(after);
      expect(await (await client.request("/console/settings")).text()).not.toContain(after);
    });
  });

  it("refuses a cross-site settings change or rotation with 403 and changes nothing", async () => {
    await withServer(dialect, async (server) => {
      const { client, token } = await signedIn(server);
      const before = await (await server.api(token, "/v1/app")).text();
      for (const path of ["/console/settings", "/console/settings/rotate-secret"]) {
        const forged = await client.request(path, {
          method: "POST",
          headers: { "sec-fetch-site": "cross-site" },
          body: new URLSearchParams({
            name: "Forged",
            customDomain: "",
            frameAncestors: "https://evil.example",
          }),
        });
        expect(forged.status).toBe(403);
      }
      expect(await (await server.api(token, "/v1/app")).text()).toBe(before);
    });
  });

  it("shows a conversation's page: members, job, what the analysis found and its links", async () => {
    await withServer(dialect, async (server) => {
      const { client, token } = await signedIn(server);
      const { conversationId } = await server.ingest(token, {
        name: "Roadmap sync",
        messages: [
          { payload: { content: "We need to ship the beta in May." }, from: { name: "Ana" } },
          { payload: { content: "I will write the release notes by Friday." }, from: { name: "Ben" } },
        ],
      });
      await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
        method: "POST",
        body: { name: "verbose-text-summary", label: "For the team" },
      });
      const list = await (await client.request("/console/conversations")).text();
      expect(list).toContain(`<a href="/console/conversations/${conversationId}">Roadmap sync</a>`);

      const answer = await client.request(`/console/conversations/${conversationId}`);
      expect(answer.status).toBe(200);
      const page = await answer.text();
      expect(page).toContain("<h1>Roadmap sync</h1>");
      expect(page).toContain("Ana, Ben");
      expect(page).toContain("Completed");
      expect(page).toContain("Analysed (local)");
      expect(page).toMatch(/<ul class="summary">\s*<li>Ben will write the release notes by Friday.<\/li>/);
      expect(page).toMatch(/<ul class="chips">\s*<li>release notes<\/li>/);
      expect(page).toMatch(/Action items: [1-9]/);
      expect(page).toContain("Links (1)");
      expect(page).toMatch(
        /<th scope="row">For the team<\/th>[\s\S]*Manage<span class="visually-hidden"> For the team/,
      );
      expect(page).toContain(`href="/console/conversations/${conversationId}/links/new"`);
      expect(page).toContain(`href="/console/conversations/${conversationId}/delete"`);

      const stranger = await signedIn(server);
      expect((await stranger.client.request(`/console/conversations/${conversationId}`)).status).toBe(404);
      const missing = await client.request("/console/conversations/9999999999999999");
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain("<title>Not found · Recap console</title>");
    });
  });
});

import { describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { dialects } from "../helpers/databases.ts";

async function withServer(
  dialect: "sqlite" | "postgres",
  work: (server: TestServer) => Promise<void>,
): Promise<void> {
  const server = await startTestServer(dialect);
  try {
    await work(server);
  } finally {
    await server.close();
  }
}

interface Setup {
  client: ConsoleClient;
  token: string;
  conversationId: string;
}

async function signedInWithConversation(server: TestServer): Promise<Setup> {
  const { appId, appSecret, token } = await server.newApp();
  const client = new ConsoleClient(server);
  expect((await client.signIn(appId, appSecret)).status).toBe(303);
  const { conversationId } = await server.ingest(token, {
    name: "Budget review",
    messages: [{ payload: { content: "We agreed on the budget." }, from: { name: "Ana" } }],
  });
  return { client, token, conversationId };
}

const post = (client: ConsoleClient, path: string, fields: Record<string, string>) =>
  client.request(path, { method: "POST", body: new URLSearchParams(fields) });

async function memberId(server: TestServer, token: string, conversationId: string): Promise<string> {
  const answer = await server.api(token, `/v1/conversations/${conversationId}/members`);
  const { members } = (await answer.json()) as { members: { id: string }[] };
  return members[0]?.id ?? "";
}

async function storedLinks(server: TestServer, token: string) {
  const answer = await server.api(token, "/v1/experiences");
  return ((await answer.json()) as { experiences: { id: string; label: string | null; state: string }[] })
    .experiences;
}

/** Opens a link on the test server (links carry the configured public URL). */
function open(server: TestServer, url: string): Promise<Response> {
  const { pathname, search } = new URL(url);
  return fetch(server.url + pathname + search);
}

/** The field's input carries aria-invalid and points at the message shown next to it. */
function expectRefused(page: string, field: string, message: string): void {
  const input = new RegExp(
    `id="field-${field}"[^>]*aria-invalid="true"\\s+aria-describedby="[^"]*field-${field}-error"`,
  );
  expect(page).toMatch(input);
  expect(page).toContain(`<p class="field-error" id="field-${field}-error">${message}</p>`);
}

describe.each(await dialects())("the console's summary links on %s", (dialect) => {
  it("creates a branded link with every option from a conversation's row, and shows its URL", async () => {
    await withServer(dialect, async (server) => {
      const { client, token, conversationId } = await signedInWithConversation(server);
      const list = await (await client.request("/console/conversations")).text();
      expect(list).toContain(`href="/console/conversations/${conversationId}/links/new"`);
      const ana = await memberId(server, token, conversationId);
      const form = await client.request(`/console/conversations/${conversationId}/links/new`);
      expect(form.status).toBe(200);
      const csp = form.headers.get("content-security-policy") ?? "";
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeDefined();
      const formPage = await form.text();
      expect(formPage).toContain(`<style nonce="${nonce}">`);
      expect(formPage).toMatch(/<style nonce="[^"]+">\s*\.link-preview\{--bg:#f5f6f8;/);

      const created = await post(client, `/console/conversations/${conversationId}/links`, {
        name: "audio-summary",
        label: "  For the board ",
        audioUrl: "https://media.example/meeting.mp3",
        videoUrl: "",
        logo: "https://brand.example/logo.png",
        favicon: "https://brand.example/favicon.ico",
        background: "#10243E",
        topicsFilter: "#2f9e8f",
        insightsFilter: "#f2a541",
        fontFamily: "Source Sans 3",
        summaryURLExpiresIn: "0",
        readOnly: "on",
        hideShareButton: "on",
        [`avatar.${ana}`]: "https://brand.example/ana.png",
      });
      expect(created.status).toBe(201);
      const page = await created.text();
      const url = /id="link-url" type="text" readonly value="([^"]+)"/.exec(page)?.[1] ?? "";
      expect(new URL(url).pathname).toMatch(/^\/s\/./);
      expect(page).toContain('data-copy="link-url"');
      // Said once, with the way to open it: only the token's hash is kept.
      expect(page).toContain("this page is the only time it can be shown");
      expect(page).toMatch(
        new RegExp(`<a class="button" href="${url}" target="_blank" rel="noopener">Open the page</a>`),
      );

      const [link] = await storedLinks(server, token);
      expect(link).toMatchObject({ label: "For the board", state: "active", expiresAt: null });
      const settings = await server.api(token, `/v1/conversations/${conversationId}/experiences`);
      const [experience] = ((await settings.json()) as { experiences: { settings: unknown }[] }).experiences;
      expect(experience?.settings).toMatchObject({
        name: "audio-summary",
        audioUrl: "https://media.example/meeting.mp3",
        logo: "https://brand.example/logo.png",
        favicon: "https://brand.example/favicon.ico",
        color: { background: "#10243e", topicsFilter: "#2f9e8f", insightsFilter: "#f2a541" },
        font: { family: "Source Sans 3" },
        summaryURLExpiresIn: 0,
        readOnly: true,
        hideShareButton: true,
        enableCustomDomain: false,
        speakerAvatarURLs: { [ana]: "https://brand.example/ana.png" },
      });
      const opened = await open(server, url);
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain("--bg:#10243e");
    });
  });

  it("refuses each bad value with the API's message next to its field, 400, and stores nothing", async () => {
    await withServer(dialect, async (server) => {
      const { client, token, conversationId } = await signedInWithConversation(server);
      const path = `/console/conversations/${conversationId}/links`;
      const good = { name: "verbose-text-summary", summaryURLExpiresIn: "2592000" };
      const ana = await memberId(server, token, conversationId);
      const refusals: [Record<string, string>, string, string][] = [
        [
          { name: "slides" },
          "name",
          "Kind of page must be one of: verbose-text-summary, video-summary, audio-summary",
        ],
        [{ label: "x".repeat(101) }, "label", "Label must NOT have more than 100 characters"],
        [
          { background: "blue" },
          "background",
          "Background colour must be a colour written exactly as #RRGGBB, such as #1A2B3C",
        ],
        [
          { topicsFilter: "#12345" },
          "topicsFilter",
          "Topics colour must be a colour written exactly as #RRGGBB, such as #1A2B3C",
        ],
        [
          { insightsFilter: "#zzzzzz" },
          "insightsFilter",
          "Insights colour must be a colour written exactly as #RRGGBB, such as #1A2B3C",
        ],
        [
          { fontFamily: "Comic; Sans" },
          "fontFamily",
          "Font family must be a web-font family name of letters, digits, spaces and hyphens (at most 64)",
        ],
        [{ logo: "javascript:alert(1)" }, "logo", "Logo URL must be an absolute http(s) URL"],
        [{ favicon: "/favicon.ico" }, "favicon", "Favicon URL must be an absolute http(s) URL"],
        [{ summaryURLExpiresIn: "-5" }, "summaryURLExpiresIn", "Expires must be &gt;= 0"],
        [{ summaryURLExpiresIn: "soon" }, "summaryURLExpiresIn", "Expires must be integer"],
        [
          { name: "video-summary" },
          "videoUrl",
          "Video URL is required for video-summary: an absolute http(s) URL of the video (a conversation made from audio or video plays its own without one)",
        ],
        [
          { name: "audio-summary", audioUrl: "ftp://x/y.mp3" },
          "audioUrl",
          "Audio URL must be an absolute http(s) URL",
        ],
        [
          { enableCustomDomain: "on" },
          "enableCustomDomain",
          "enableCustomDomain is true but this app has no customDomain; set one on the app first",
        ],
      ];
      for (const [fields, field, message] of refusals) {
        const answer = await post(client, path, { ...good, ...fields });
        expect(answer.status, field).toBe(400);
        expectRefused(await answer.text(), field, message);
      }
      const avatar = await post(client, path, { ...good, [`avatar.${ana}`]: "ana.png" });
      expect(avatar.status).toBe(400);
      const page = await avatar.text();
      expect(page).toMatch(
        /id="field-avatar-0"[^>]*aria-invalid="true"\s+aria-describedby="field-avatar-0-error"/,
      );
      expect(page).toMatch(
        /<p class="field-error" id="field-avatar-0-error">speakerAvatarURLs(\.|\[)\S+ must be an absolute http\(s\) URL<\/p>/,
      );
      expect(await storedLinks(server, token)).toEqual([]);
    });
  });

  it("previews the brand from the submitted values without creating a link", async () => {
    await withServer(dialect, async (server) => {
      const { client, token, conversationId } = await signedInWithConversation(server);
      const answer = await post(client, `/console/conversations/${conversationId}/links`, {
        name: "verbose-text-summary",
        background: "#10243e",
        topicsFilter: "not a colour",
        logo: "https://brand.example/logo.png",
        action: "preview",
      });
      expect(answer.status).toBe(200);
      const page = await answer.text();
      expect(page).toContain(".link-preview{--bg:#10243e;--text:#ffffff;");
      expect(page).toContain("--topic:#1d5fbf;"); // the refused colour is not previewed: the default is
      expect(page).toMatch(
        /class="preview-logo" alt="Logo" height="32" src="https:\/\/brand.example\/logo.png"/,
      );
      expect(page).toContain('value="not a colour"');
      expect(await storedLinks(server, token)).toEqual([]);
    });
  });

  it("lists the app's links with their views, filtered by state and paginated", async () => {
    await withServer(dialect, async (server) => {
      const { client, token, conversationId } = await signedInWithConversation(server);
      const create = async (label: string) => {
        const answer = await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
          method: "POST",
          body: { name: "verbose-text-summary", label },
        });
        return (await answer.json()) as { id: string; url: string };
      };
      const first = await create("First");
      for (let i = 2; i <= 21; i++) await create(`Link ${i}`);
      expect((await open(server, first.url)).status).toBe(200);
      await server.services.linkViews.flush();
      await server.api(token, `/v1/conversations/${conversationId}/experiences/${first.id}`, {
        method: "DELETE",
      });

      const page1 = await (await client.request("/console/links")).text();
      expect(page1).toContain('<a href="/console/links">Links</a>');
      expect(page1.match(/<tr>/g)?.length).toBe(21); // the head and 20 links
      expect(page1).toContain("Link 21");
      expect(page1).not.toContain(">First<");
      expect(page1).toContain('rel="next" href="/console/links?page=2"');
      const page2 = await (await client.request("/console/links?page=2")).text();
      const firstRow =
        /<tr>\s*<th scope="row">(?:(?!<\/th>)[\s\S])*<span class="link-label">First<\/span>\s*<\/th>[\s\S]*?<\/tr>/.exec(
          page2,
        )?.[0] ?? "";
      expect(firstRow).toContain("Revoked");
      expect(firstRow).toContain("Budget review");
      expect(firstRow).toContain("Text summary");
      expect(firstRow).toMatch(
        /<td>1<\/td>\s*<td class="wide-only">1<\/td>\s*<td class="wide-only"><time datetime=/,
      ); // views, viewers, last view

      const revoked = await (await client.request("/console/links?state=revoked")).text();
      expect(revoked.match(/<tr>/g)?.length).toBe(2);
      expect(revoked).toContain(">First<");
      const expired = await (await client.request("/console/links?state=expired")).text();
      expect(expired).toContain("No expired links.");
      expect((await client.request("/console/links?state=gone")).status).toBe(400);
    });
  });

  it("relabels a link and moves its expiry, refusing bad values next to their field", async () => {
    await withServer(dialect, async (server) => {
      const { client, token, conversationId } = await signedInWithConversation(server);
      const answer = await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
        method: "POST",
        body: { name: "verbose-text-summary", label: "Old" },
      });
      const { id } = (await answer.json()) as { id: string };
      const path = `/console/links/${conversationId}/${id}`;
      expect(await (await client.request(path)).text()).toContain("Revoke this link…");

      const saved = await post(client, path, {
        label: "New name",
        expiry: "at",
        expiresAt: "2099-01-02T03:04",
      });
      expect(saved.status).toBe(303);
      expect(await storedLinks(server, token)).toMatchObject([
        { label: "New name", expiresAt: "2099-01-02T03:04:00.000Z" },
      ]);
      expect(await (await client.request(path)).text()).toContain('datetime="2099-01-02T03:04:00.000Z"');

      expect((await post(client, path, { label: "", expiry: "never" })).status).toBe(303);
      expect(await storedLinks(server, token)).toMatchObject([{ label: null, expiresAt: null }]);

      const past = await post(client, path, { label: "Kept?", expiry: "at", expiresAt: "2001-01-01T00:00" });
      expect(past.status).toBe(400);
      expectRefused(
        await past.text(),
        "expiresAt",
        "Expires at must be later than now; to end a link now, revoke it (DELETE)",
      );
      const typo = await post(client, path, { label: "Kept?", expiry: "at", expiresAt: "tomorrow" });
      expect(typo.status).toBe(400);
      expect(await typo.text()).toContain('id="field-expiresAt-error">Expires at must be');
      const long = await post(client, path, { label: "x".repeat(101), expiry: "keep" });
      expect(long.status).toBe(400);
      expectRefused(await long.text(), "label", "Label must NOT have more than 100 characters");
      expect(await storedLinks(server, token)).toMatchObject([{ label: null, expiresAt: null }]);
    });
  });

  it("revokes a link after a confirmation page; the link then answers 410", async () => {
    await withServer(dialect, async (server) => {
      const { client, token, conversationId } = await signedInWithConversation(server);
      const answer = await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
        method: "POST",
        body: { name: "verbose-text-summary", label: "Short-lived" },
      });
      const { id, url } = (await answer.json()) as { id: string; url: string };
      const path = `/console/links/${conversationId}/${id}/revoke`;
      const confirm = await (await client.request(path)).text();
      expect(confirm).toContain("Revoke this link?");
      expect(confirm).toContain(`action="${path}"`);
      expect((await open(server, url)).status).toBe(200);

      const forged = await client.request(path, {
        method: "POST",
        headers: { "sec-fetch-site": "cross-site" },
      });
      expect(forged.status).toBe(403);
      expect((await open(server, url)).status).toBe(200);

      const revoked = await client.request(path, { method: "POST" });
      expect(revoked.status).toBe(303);
      expect((await open(server, url)).status).toBe(410);
      expect(await storedLinks(server, token)).toMatchObject([{ state: "revoked" }]);
      const after = await (await client.request(`/console/links/${conversationId}/${id}`)).text();
      expect(after).toContain("This link was revoked");
      const relabel = await post(client, `/console/links/${conversationId}/${id}`, { label: "Again" });
      expect(relabel.status).toBe(410);
      expect(await relabel.text()).toContain("This summary link was revoked");
      expect((await client.request(`/console/links/${conversationId}/nope`)).status).toBe(404);
    });
  });

  it("previews this conversation's own first lines, topics and action item, not made-up ones", async () => {
    await withServer(dialect, async (server) => {
      const { appId, appSecret, token } = await server.newApp();
      const client = new ConsoleClient(server);
      await client.signIn(appId, appSecret);
      const { conversationId } = await server.ingest(token, {
        name: "Launch plan",
        messages: [
          { payload: { content: "Good morning, let us look at the launch dates." }, from: { name: "Priya" } },
          { payload: { content: "The printer vendor needs the artwork by Monday." }, from: { name: "Tom" } },
          {
            payload: { content: "I will send the artwork to the vendor tomorrow." },
            from: { name: "Priya" },
          },
          { payload: { content: "This fourth line stays out of the preview." }, from: { name: "Tom" } },
        ],
      });
      const page = await (await client.request(`/console/conversations/${conversationId}/links/new`)).text();
      const preview = /<section class="link-preview"[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
      expect(preview).toContain("Launch plan");
      expect(preview).toMatch(
        /preview-speaker">Priya<\/span>\s*Good morning, let us look at the launch dates\./,
      );
      expect(preview).toMatch(
        /preview-speaker">Tom<\/span>\s*The printer vendor needs the artwork by Monday\./,
      );
      expect(preview).toContain("I will send the artwork to the vendor tomorrow.");
      expect(preview).not.toContain("fourth line");
      expect(preview).not.toContain("Shall we start with the budget?");
      expect(preview).not.toContain("Alex");
      expect(preview).toContain("preview-insight");
    });
  });

  it("takes the app's brand where the form leaves a field empty: hints, the preview and the link's page", async () => {
    await withServer(dialect, async (server) => {
      const { client, token, conversationId } = await signedInWithConversation(server);
      const saved = await client.saveBrand({
        background: "#10243E",
        fontFamily: "Source Sans 3",
        logo: "https://acme.example/logo.png",
      });
      expect(saved.status).toBe(303);
      expect(saved.headers.get("location")).toBe("/console/settings?saved=brand#brand");
      const app = (await (await server.api(token, "/v1/app")).json()) as { brand: unknown };
      expect(app.brand).toEqual({
        logo: "https://acme.example/logo.png",
        color: { background: "#10243e" },
        font: { family: "Source Sans 3" },
      });

      const form = await (await client.request(`/console/conversations/${conversationId}/links/new`)).text();
      expect(form).toContain("Empty: the app&#39;s, #10243e.");
      expect(form).toMatch(/<style nonce="[^"]+">\s*\.link-preview\{--bg:#10243e;/);
      expect(form).toContain('src="https://acme.example/logo.png"');
      expect(form).toMatch(/id="field-background-picker"[^>]*value="#10243e"/);

      const created = await post(client, `/console/conversations/${conversationId}/links`, {
        name: "verbose-text-summary",
        topicsFilter: "#2f9e8f",
        summaryURLExpiresIn: "2592000",
      });
      expect(created.status).toBe(201);
      const url = /id="link-url" type="text" readonly value="([^"]+)"/.exec(await created.text())?.[1] ?? "";
      const opened = await (await open(server, url)).text();
      expect(opened).toContain("--bg:#10243e;");
      expect(opened).toContain("--topic:#2f9e8f;");
      expect(opened).toContain('<img class="logo" src="https://acme.example/logo.png"');
    });
  });

  it("refuses a bad brand colour by the form's label, next to its field, and stores nothing", async () => {
    await withServer(dialect, async (server) => {
      const { client, token } = await signedInWithConversation(server);
      const refused = await client.saveBrand({ background: "red" });
      expect(refused.status).toBe(400);
      const page = await refused.text();
      expectRefused(
        page,
        "background",
        "Background colour must be a colour written exactly as #RRGGBB, such as #1A2B3C",
      );
      expect(page).toContain('value="red"');
      const app = (await (await server.api(token, "/v1/app")).json()) as { brand: unknown };
      expect(app.brand).toEqual({});
    });
  });
});

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
    `id="field-${field}"[^>]*aria-invalid="true"\\s+aria-describedby="field-${field}-error"`,
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
          "name must be one of: verbose-text-summary, video-summary, audio-summary",
        ],
        [{ label: "x".repeat(101) }, "label", "label must NOT have more than 100 characters"],
        [
          { background: "blue" },
          "background",
          "color.background must be a colour written exactly as #RRGGBB, such as #1A2B3C",
        ],
        [
          { topicsFilter: "#12345" },
          "topicsFilter",
          "color.topicsFilter must be a colour written exactly as #RRGGBB, such as #1A2B3C",
        ],
        [
          { insightsFilter: "#zzzzzz" },
          "insightsFilter",
          "color.insightsFilter must be a colour written exactly as #RRGGBB, such as #1A2B3C",
        ],
        [
          { fontFamily: "Comic; Sans" },
          "fontFamily",
          "font.family must be a web-font family name of letters, digits, spaces and hyphens (at most 64)",
        ],
        [{ logo: "javascript:alert(1)" }, "logo", "logo must be an absolute http(s) URL"],
        [{ favicon: "/favicon.ico" }, "favicon", "favicon must be an absolute http(s) URL"],
        [{ summaryURLExpiresIn: "-5" }, "summaryURLExpiresIn", "summaryURLExpiresIn must be &gt;= 0"],
        [{ summaryURLExpiresIn: "soon" }, "summaryURLExpiresIn", "summaryURLExpiresIn must be integer"],
        [
          { name: "video-summary" },
          "videoUrl",
          "videoUrl is required for video-summary: an absolute http(s) URL of the video",
        ],
        [
          { name: "audio-summary", audioUrl: "ftp://x/y.mp3" },
          "audioUrl",
          "audioUrl must be an absolute http(s) URL",
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
      const firstRow = /<tr>\s*<th scope="row">First<\/th>[\s\S]*?<\/tr>/.exec(page2)?.[0] ?? "";
      expect(firstRow).toContain("Revoked");
      expect(firstRow).toContain("Budget review");
      expect(firstRow).toContain("Text summary");
      expect(firstRow).toMatch(/<td>1<\/td>\s*<td>1<\/td>\s*<td><time datetime=/); // views, viewers, last view

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
        "expiresAt must be later than now; to end a link now, revoke it (DELETE)",
      );
      const typo = await post(client, path, { label: "Kept?", expiry: "at", expiresAt: "tomorrow" });
      expect(typo.status).toBe(400);
      expect(await typo.text()).toContain('id="field-expiresAt-error">expiresAt must be');
      const long = await post(client, path, { label: "x".repeat(101), expiry: "keep" });
      expect(long.status).toBe(400);
      expectRefused(await long.text(), "label", "label must NOT have more than 100 characters");
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
});

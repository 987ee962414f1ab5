import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyOf, messageOf, readBody } from "../helpers/api.ts";
import { startTestServer, TestClock, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { editThroughLink } from "../helpers/factories.ts";
import { loadMeeting, meetingFiles, toProcessTextBody } from "../helpers/qmsum.ts";

interface Message {
  id: string;
  text: string;
  from: { id?: string; name?: string };
}

/** GET with an explicit Host header (fetch() does not let a caller choose it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Sends bytes as they are (no client tidies them) and reads the one answer, until the server closes. */
function rawRequest(
  serverUrl: string,
  text: string,
): Promise<{ status: number; headers: Map<string, string>; body: string }> {
  const { hostname, port } = new URL(serverUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("utf8")));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = answer.split("\r\n\r\n", 2);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = new Map(
        lines.map((line) => [
          line.slice(0, line.indexOf(":")).toLowerCase(),
          line.slice(line.indexOf(":") + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
  });
}

/** Any of the three insight lists (`questions`, `actionItems`, `followUps`). */
type InsightList = Record<string, Body.Insight[]>;

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

describe.each(await dialects())("summary links on %s", (dialect) => {
  let server: TestServer;
  let clock: TestClock;

  beforeAll(async () => {
    clock = new TestClock();
    server = await startTestServer(dialect, { clock });
  });
  afterAll(() => server.close());

  /** A small conversation of three lines by two speakers, processed. */
  async function conversation(token: string, name = "Weekly planning") {
    const start = Date.parse("2026-11-02T15:00:00Z");
    const at = (s: number) => new Date(start + s * 1000).toISOString();
    const { conversationId } = await server.ingest(token, {
      name,
      messages: [
        {
          payload: { content: "Good morning, let's start with the budget." },
          from: { name: "Ann Lee" },
          duration: { startTime: at(0), endTime: at(4) },
        },
        {
          payload: { content: "Bob, can you send the report by Friday?" },
          from: { name: "Ann Lee" },
          duration: { startTime: at(5), endTime: at(9) },
        },
        {
          payload: { content: "Sure, I will send the report tomorrow." },
          from: { name: "Bob Stone" },
          duration: { startTime: at(10), endTime: at(14) },
        },
      ],
    });
    return conversationId;
  }

  async function createLink(token: string, conversationId: string, body: Record<string, unknown>) {
    const response = await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
      method: "POST",
      body,
    });
    expect(response.status).toBe(200);
    return await bodyOf<Body.ExperienceCreated>(response);
  }

  const page = (url: string, headers: Record<string, string> = {}) =>
    fetch(server.url + pathOf(url), { headers });

  it("makes a signed text-summary link whose page shows the conversation with the security headers", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token);
    const link = await createLink(token, id, { name: "verbose-text-summary" });
    expect(link.name).toBe("verbose-text-summary");
    expect(link.url).toMatch(new RegExp(`^${server.config.publicUrl}/s/[A-Za-z0-9_-]{43}$`));

    const response = await page(link.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-robots-tag")).toContain("noindex");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const html = await response.text();
    expect(html).toContain("Weekly planning");
    expect(html).toContain("Bob, can you send the report by Friday?");
    expect(html).toContain("Ann Lee");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it("flags video links and gives video and audio pages a player", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token);
    const video = await createLink(token, id, {
      name: "video-summary",
      videoUrl: "https://media.example.com/v.mp4",
    });
    expect(new URL(video.url).searchParams.get("showVideoSummary")).toBe("true");
    expect(await (await page(video.url)).text()).toMatch(
      /<video[^>]+src="https:\/\/media\.example\.com\/v\.mp4"/,
    );
    const audio = await createLink(token, id, {
      name: "audio-summary",
      audioUrl: "https://media.example.com/a.mp3",
    });
    expect(new URL(audio.url).searchParams.has("showVideoSummary")).toBe(false);
    expect(await (await page(audio.url)).text()).toMatch(
      /<audio[^>]+src="https:\/\/media\.example\.com\/a\.mp3"/,
    );

    // A media URL is ignored (docs/PAGES.md) for the kinds that do not play it, whatever it holds.
    const text = await createLink(token, id, {
      name: "verbose-text-summary",
      videoUrl: "ftp://x",
      audioUrl: "nope",
    });
    const html = await (await page(text.url)).text();
    expect(html).not.toMatch(/<video|<audio|ftp:\/\/x/);
  });

  it("answers 400 naming the field for every bad setting, 415 for other content types, 404 for another app's conversation", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token);
    // Each 400 names the field and says the rule, in the exact words a caller sees.
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, "name", "name is required: one of: verbose-text-summary, video-summary, audio-summary"],
      [
        { name: "slideshow" },
        "name",
        "name must be one of: verbose-text-summary, video-summary, audio-summary",
      ],
      [
        { name: "video-summary" },
        "videoUrl",
        "videoUrl is required for video-summary: an absolute http(s) URL of the video",
      ],
      [
        { name: "video-summary", videoUrl: "ftp://example.com/v.mp4" },
        "videoUrl",
        "videoUrl must be an absolute http(s) URL",
      ],
      [
        { name: "video-summary", videoUrl: "javascript:alert(1)" },
        "videoUrl",
        "videoUrl must be an absolute http(s) URL",
      ],
      [
        { name: "audio-summary" },
        "audioUrl",
        "audioUrl is required for audio-summary: an absolute http(s) URL of the audio",
      ],
      [
        { name: "audio-summary", audioUrl: "/relative.mp3" },
        "audioUrl",
        "audioUrl must be an absolute http(s) URL",
      ],
      [
        { name: "verbose-text-summary", color: { background: "red" } },
        "color.background",
        "color.background must be a colour written exactly as #RRGGBB, such as #1A2B3C",
      ],
      [
        { name: "verbose-text-summary", color: { topicsFilter: "#12345" } },
        "color.topicsFilter",
        "color.topicsFilter must be a colour written exactly as #RRGGBB, such as #1A2B3C",
      ],
      [
        { name: "verbose-text-summary", color: { insightsFilter: "#1234567" } },
        "color.insightsFilter",
        "color.insightsFilter must be a colour written exactly as #RRGGBB, such as #1A2B3C",
      ],
      [{ name: "verbose-text-summary", color: "#ffffff" }, "color", "color must be object"],
      [
        { name: "verbose-text-summary", font: { family: "Roboto'; } body { x" } },
        "font.family",
        "font.family must be a web-font family name of letters, digits, spaces and hyphens (at most 64)",
      ],
      [
        { name: "verbose-text-summary", font: { family: "<script>" } },
        "font.family",
        "font.family must be a web-font family name of letters, digits, spaces and hyphens (at most 64)",
      ],
      [
        { name: "verbose-text-summary", summaryURLExpiresIn: -1 },
        "summaryURLExpiresIn",
        "summaryURLExpiresIn must be >= 0",
      ],
      [
        { name: "verbose-text-summary", summaryURLExpiresIn: 1.5 },
        "summaryURLExpiresIn",
        "summaryURLExpiresIn must be integer",
      ],
      [
        { name: "verbose-text-summary", summaryURLExpiresIn: "3600" },
        "summaryURLExpiresIn",
        "summaryURLExpiresIn must be integer",
      ],
      [{ name: "verbose-text-summary", readOnly: "true" }, "readOnly", "readOnly must be boolean"],
      [
        { name: "verbose-text-summary", hideShareButton: 1 },
        "hideShareButton",
        "hideShareButton must be boolean",
      ],
      [
        { name: "verbose-text-summary", enableCustomDomain: "yes" },
        "enableCustomDomain",
        "enableCustomDomain must be boolean",
      ],
      [
        { name: "verbose-text-summary", logo: "data:image/png;base64,AAAA" },
        "logo",
        "logo must be an absolute http(s) URL",
      ],
      [
        { name: "verbose-text-summary", favicon: "javascript:alert(1)" },
        "favicon",
        "favicon must be an absolute http(s) URL",
      ],
      [
        { name: "verbose-text-summary", speakerAvatarURLs: { x: "file:///etc/passwd" } },
        "speakerAvatarURLs",
        "speakerAvatarURLs.x must be an absolute http(s) URL",
      ],
      [
        { name: "verbose-text-summary", disableSummaryURLAuthentication: true },
        "disableSummaryURLAuthentication",
        "disableSummaryURLAuthentication must be false or left out: every summary link is signed, so its authentication cannot be disabled",
      ],
      [
        { name: "verbose-text-summary", enableCustomDomain: true },
        "enableCustomDomain",
        "enableCustomDomain is true but this app has no customDomain; set one on the app first",
      ],
    ];
    for (const [body, field, exact] of cases) {
      const response = await server.api(token, `/v1/conversations/${id}/experiences`, {
        method: "POST",
        body,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      const message = await messageOf(response);
      expect(message, JSON.stringify(body)).toContain(field);
      expect(message, JSON.stringify(body)).toBe(exact);
    }
    const named = await server.api(token, `/v1/conversations/${id}/experiences`, {
      method: "POST",
      body: { name: "x" },
    });
    expect(await messageOf(named)).toContain("verbose-text-summary, video-summary, audio-summary");

    const accepted = await server.api(token, `/v1/conversations/${id}/experiences`, {
      method: "POST",
      body: {
        name: "verbose-text-summary",
        color: {},
        font: {},
        disableSummaryURLAuthentication: false,
        extra: 1,
      },
    });
    expect(accepted.status).toBe(200);

    const plain = await server.api(token, `/v1/conversations/${id}/experiences`, {
      method: "POST",
      body: JSON.stringify({ name: "verbose-text-summary" }),
      headers: { "content-type": "text/plain" },
    });
    expect(plain.status).toBe(415);

    const other = await server.newApp();
    const hidden = await server.api(other.token, `/v1/conversations/${id}/experiences`, {
      method: "POST",
      body: { name: "verbose-text-summary" },
    });
    expect(hidden.status).toBe(404);
    expect((await server.api(other.token, `/v1/conversations/${id}/experiences`)).status).toBe(404);
    const anonymous = await fetch(`${server.url}/v1/conversations/${id}/experiences`);
    expect(anonymous.status).toBe(401);
  });

  it("keeps only the settings the schema describes, with defaults, and documents the same rules in OpenAPI", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token);
    await createLink(token, id, {
      name: "verbose-text-summary",
      videoUrl: "https://media.example.com/v.mp4",
      logo: "https://img.example.com/our logo.png",
      color: { background: "#AABBCC", shadow: "#000000" },
      font: { family: "Source Sans 3", weight: 700 },
      speakerAvatarURLs: { "member-1": "https://img.example.com/a.png" },
      extra: true,
    });
    const list = await readBody<Body.ExperienceList>(server, token, `/v1/conversations/${id}/experiences`);
    expect(list.experiences[0]?.settings).toEqual({
      name: "verbose-text-summary",
      logo: "https://img.example.com/our%20logo.png",
      color: { background: "#aabbcc" },
      font: { family: "Source Sans 3" },
      summaryURLExpiresIn: 2_592_000,
      readOnly: false,
      enableCustomDomain: false,
      speakerAvatarURLs: { "member-1": "https://img.example.com/a.png" },
      hideShareButton: false,
    });

    interface Schema {
      enum?: unknown[];
      pattern?: string;
      description?: string;
      properties?: Record<string, Schema>;
    }
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        { post?: { requestBody: { content: Record<string, { schema: Schema } | undefined> } } }
      >;
    };
    const body =
      openapi.paths["/v1/conversations/{conversationId}/experiences"]?.post?.requestBody.content[
        "application/json"
      ]?.schema;
    expect(body?.properties?.name?.enum).toEqual(["verbose-text-summary", "video-summary", "audio-summary"]);
    expect(body?.properties?.color?.properties?.background?.pattern).toBe("^#[0-9a-fA-F]{6}$");
    expect(body?.properties?.logo?.description).toBe("an absolute http(s) URL");
    expect(body?.properties?.disableSummaryURLAuthentication).toMatchObject({
      enum: [false],
      description: expect.stringContaining("every summary link is signed") as unknown,
    });
  });

  it("expires links after their lifetime (default 30 days, 0 never) with a 410 page that says nothing about the conversation", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token, "Secret merger talk");
    const short = await createLink(token, id, { name: "verbose-text-summary", summaryURLExpiresIn: 60 });
    const standard = await createLink(token, id, { name: "verbose-text-summary" });
    const forever = await createLink(token, id, { name: "verbose-text-summary", summaryURLExpiresIn: 0 });
    expect((await page(short.url)).status).toBe(200);

    clock.advance(61);
    const expired = await page(short.url);
    expect(expired.status).toBe(410);
    expect(expired.headers.get("cache-control")).toBe("private, no-store");
    const text = await expired.text();
    expect(text).toContain("This link has expired");
    expect(text).not.toContain("revoked");
    expect(text).not.toContain("Secret merger talk");
    expect(text).not.toContain("Ann Lee");
    expect((await page(short.url + ".json")).status).toBe(410);
    expect((await page(standard.url)).status).toBe(200);

    clock.advance(30 * 86_400);
    expect((await page(standard.url)).status).toBe(410);
    clock.advance(3650 * 86_400);
    expect((await page(forever.url)).status).toBe(200);
  });

  it("lists links with their settings and state, and revokes one", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token);
    const kept = await createLink(token, id, {
      name: "verbose-text-summary",
      color: { background: "#102030" },
    });
    const revoked = await createLink(token, id, {
      name: "audio-summary",
      audioUrl: "https://media.example.com/a.mp3",
      readOnly: true,
    });
    const list = async () =>
      (await readBody<Body.ExperienceList>(server, token, `/v1/conversations/${id}/experiences`)).experiences;
    const before = await list();
    expect(before).toHaveLength(2);
    const audio = before.find((e) => e.name === "audio-summary");
    expect(audio?.status).toBe("active");
    expect(audio?.settings).toMatchObject({ audioUrl: "https://media.example.com/a.mp3", readOnly: true });
    expect(before.find((e) => e.name === "verbose-text-summary")?.settings).toMatchObject({
      color: { background: "#102030" },
    });
    expect(JSON.stringify(before)).not.toContain(new URL(kept.url).pathname.slice(3));

    const deleted = await server.api(token, `/v1/conversations/${id}/experiences/${audio?.id}`, {
      method: "DELETE",
    });
    expect(deleted.status).toBe(200);
    const gone = await page(revoked.url);
    expect(gone.status).toBe(410);
    expect(gone.headers.get("cache-control")).toBe("private, no-store");
    const text = await gone.text();
    expect(text).toContain("This link was revoked");
    expect(text).not.toContain("expired");
    expect(text).not.toContain("Weekly planning");
    expect(text).not.toContain("Ann Lee");
    const asJson = await page(revoked.url, { accept: "application/json" });
    expect(asJson.status).toBe(410);
    expect(await asJson.json()).toEqual({ message: "This summary link was revoked" });
    const markdown = await page(revoked.url + ".md");
    expect(markdown.status).toBe(410);
    expect(await markdown.text()).toBe("This summary link was revoked\n");
    const edit = await fetch(server.url + pathOf(revoked.url) + "/conversation", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Renamed" }),
    });
    expect(edit.status).toBe(410);
    expect(await edit.json()).toEqual({ message: "This summary link was revoked" });
    expect((await page(kept.url)).status).toBe(200);
    expect((await list()).find((e) => e.id === audio?.id)?.status).toBe("revoked");

    const other = await server.newApp();
    const foreign = await server.api(other.token, `/v1/conversations/${id}/experiences/${audio?.id}`, {
      method: "DELETE",
    });
    expect(foreign.status).toBe(404);
  });

  it("answers a 404 page for tampered and unknown links, revealing nothing", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token, "Confidential roadmap");
    const link = await createLink(token, id, { name: "verbose-text-summary" });
    const token43 = new URL(link.url).pathname.split("/").pop() ?? "";
    const flipped = token43.slice(0, 10) + (token43[10] === "A" ? "B" : "A") + token43.slice(11);
    for (const path of [`/s/${flipped}`, `/s/${"A".repeat(43)}`, "/s/not-a-link", `/s/${token43}x`]) {
      const response = await fetch(server.url + path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const html = await response.text();
      expect(html).toContain("not found");
      expect(html).not.toContain("Confidential roadmap");
    }
    const edit = await fetch(`${server.url}/s/${flipped}/conversation`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Hacked" }),
    });
    expect(edit.status).toBe(404);

    // Deleting the conversation deletes its links.
    await server.api(token, `/v1/conversations/${id}`, { method: "DELETE" });
    expect((await page(link.url)).status).toBe(404);
  });

  it("keeps each link's settings: a later read-only or branded link changes nothing on an older one", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token);
    const editable = await createLink(token, id, { name: "verbose-text-summary" });
    const readOnly = await createLink(token, id, {
      name: "verbose-text-summary",
      readOnly: true,
      color: { background: "#0b1f3a" },
      font: { family: "Source Sans 3" },
    });
    const editableHtml = await (await page(editable.url)).text();
    const readOnlyHtml = await (await page(readOnly.url)).text();
    expect(editableHtml).toContain('data-editable="true"');
    expect(editableHtml).toContain('data-action="rename-member"');
    expect(editableHtml).not.toContain("#0b1f3a");
    expect(editableHtml).not.toContain("fonts.googleapis.com");
    expect(readOnlyHtml).toContain('data-editable="false"');
    expect(readOnlyHtml).not.toMatch(
      /data-action="(edit-message|toggle-hidden|rename-member|rename-conversation|edit-insight|dismiss-insight)"/,
    );
    expect(readOnlyHtml).toContain("--bg:#0b1f3a");
    expect(readOnlyHtml).toContain("--text:#ffffff");
    expect(readOnlyHtml).toContain("https://fonts.googleapis.com/css2?family=Source+Sans+3&amp;display=swap");
  });

  it("stores every edit made through an editable link at once; a read-only link gets 403", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token);
    const editable = await createLink(token, id, { name: "verbose-text-summary" });
    const readOnly = await createLink(token, id, { name: "verbose-text-summary", readOnly: true });
    const edit = (url: string, path: string, body: unknown) =>
      fetch(`${server.url}${new URL(url).pathname}${path}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const messages = async (): Promise<Message[]> =>
      (await readBody<Body.MessageList>(server, token, `/v1/conversations/${id}/messages`)).messages;
    const [first, second] = await messages();
    const bob = (await messages()).find((m) => m.from.name === "Bob Stone")?.from.id ?? "";

    for (const [path, body] of [
      ["/conversation", { name: "Nope" }],
      [`/members/${bob}`, { name: "Nope" }],
      [`/messages/${first?.id}`, { text: "Nope" }],
      [`/messages/${first?.id}`, { hidden: true }],
    ] as const) {
      const refused = await edit(readOnly.url, path, body);
      expect(refused.status, path).toBe(403);
    }

    expect((await edit(editable.url, "/conversation", { name: "Budget review" })).status).toBe(200);
    const renamed = await readBody<Body.Conversation>(server, token, `/v1/conversations/${id}`);
    expect(renamed.name).toBe("Budget review");

    expect((await edit(editable.url, `/members/${bob}`, { name: "Robert Stone" })).status).toBe(200);
    const members = await readBody<Body.MemberList>(server, token, `/v1/conversations/${id}/members`);
    expect(members.members.find((m) => m.id === bob)?.name).toBe("Robert Stone");

    expect(
      (await edit(editable.url, `/messages/${second?.id}`, { text: "Bob, please send the report." })).status,
    ).toBe(200);
    expect((await edit(editable.url, `/messages/${first?.id}`, { hidden: true })).status).toBe(200);
    const afterEdits = await messages();
    expect(afterEdits.map((m) => m.text)).toEqual([
      "Bob, please send the report.",
      "Sure, I will send the report tomorrow.",
    ]);

    // Every link shows the edits; the read-only one leaves the hidden line out, the editable one marks it.
    const readOnlyHtml = await (await page(readOnly.url)).text();
    expect(readOnlyHtml).toContain("Budget review");
    expect(readOnlyHtml).toContain("Robert Stone");
    expect(readOnlyHtml).not.toContain("Good morning");
    const editableHtml = await (await page(editable.url)).text();
    expect(editableHtml).toMatch(/class="line is-hidden"/);
    expect((await edit(editable.url, `/messages/${first?.id}`, { hidden: false })).status).toBe(200);
    expect(await messages()).toHaveLength(3);

    expect((await edit(editable.url, "/conversation", { name: "   " })).status).toBe(400);
    expect((await edit(editable.url, "/messages/0000000000000000", { text: "x" })).status).toBe(404);
    const wrongType = await fetch(`${server.url}${new URL(editable.url).pathname}/conversation`, {
      method: "PATCH",
      headers: { "content-type": "text/plain" },
      body: "name",
    });
    expect(wrongType.status).toBe(415);
  });

  it("edits and dismisses insights through an editable link, and the insight APIs show it", async () => {
    const { token } = await server.newApp();
    const file = meetingFiles("val")[0] ?? "";
    const { conversationId } = await server.ingest(token, toProcessTextBody(loadMeeting("val", file)));
    const link = await createLink(token, conversationId, { name: "verbose-text-summary" });
    const html = await (await page(link.url)).text();
    expect(html).not.toContain("No summary was found");

    const kinds = ["questions", "action-items", "follow-ups"] as const;
    const lists = await Promise.all(
      kinds.map(async (kind) => {
        const body = await readBody<InsightList>(
          server,
          token,
          `/v1/conversations/${conversationId}/${kind}`,
        );
        return { kind, items: Object.values(body)[0] ?? [] };
      }),
    );
    // A list with two insights, so that dismissing one is seen to leave the other.
    const withItems = lists.find((list) => list.items.length > 1);
    expect(withItems).toBeDefined();
    const [insight, other] = withItems?.items ?? [];
    expect(html).toContain(`data-insight-id="${insight?.id}"`);

    const patch = (insightId: string | undefined, body: unknown) =>
      editThroughLink(server, link.url, `/insights/${insightId}`, body);
    expect((await patch(insight?.id, { text: "Edited by a viewer" })).status).toBe(200);
    const listed = async () =>
      Object.values(
        await readBody<InsightList>(server, token, `/v1/conversations/${conversationId}/${withItems?.kind}`),
      )[0] ?? [];
    expect((await listed()).find((i) => i.id === insight?.id)?.text).toBe("Edited by a viewer");
    expect((await patch(insight?.id, { dismissed: true })).status).toBe(200);
    expect((await listed()).some((i) => i.id === insight?.id)).toBe(false);
    expect(await (await page(link.url)).text()).not.toContain("Edited by a viewer");
    expect((await listed()).some((i) => i.id === other?.id)).toBe(true);
  });

  it("says plainly that nothing was found when a conversation has no analysis yet", async () => {
    const { token } = await server.newApp();
    const { conversationId } = await server.ingest(token, {
      name: "Quick hello",
      messages: [{ payload: { content: "Hi." }, from: { name: "Ann" } }],
    });
    const link = await createLink(token, conversationId, { name: "verbose-text-summary" });
    const html = await (await page(link.url)).text();
    expect(html).toContain("No action items, follow-ups or questions were found.");
  });

  it("answers the same link as JSON and Markdown, by suffix or Accept", async () => {
    const { token } = await server.newApp();
    const id = await conversation(token);
    const link = await createLink(token, id, { name: "verbose-text-summary" });
    const bySuffix = await page(link.url + ".json");
    expect(bySuffix.status).toBe(200);
    expect(bySuffix.headers.get("referrer-policy")).toBe("no-referrer");
    const json = (await bySuffix.json()) as {
      name: string;
      messages: { text: string }[];
      attendees: { name: string }[];
    };
    expect(json.name).toBe("Weekly planning");
    expect(json.messages.map((m) => m.text)).toContain("Sure, I will send the report tomorrow.");
    expect(json.attendees.map((a) => a.name)).toEqual(["Ann Lee", "Bob Stone"]);
    const byAccept = await page(link.url, { accept: "application/json" });
    expect((await bodyOf<Body.Conversation>(byAccept)).name).toBe("Weekly planning");

    const markdown = await page(link.url + ".md");
    expect(markdown.headers.get("content-type")).toMatch(/^text\/markdown/);
    const md = await markdown.text();
    expect(md).toContain("# Weekly planning");
    expect(md).toContain("**Bob Stone** [0:10]: Sure, I will send the report tomorrow.");
    expect(await (await page(link.url, { accept: "text/markdown" })).text()).toContain("# Weekly planning");
  });

  it("escapes script payloads in every user value", async () => {
    const { token } = await server.newApp();
    const payload = `<script>alert(1)</script><img src=x onerror=alert(2)>"'`;
    const { conversationId } = await server.ingest(token, {
      name: payload,
      messages: [{ payload: { content: payload }, from: { name: payload } }],
    });
    const link = await createLink(token, conversationId, { name: "verbose-text-summary" });
    const html = await (await page(link.url)).text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("compares hosts in one spelling: another app's domain with a port, a trailing dot, other case or IDN serves none of this app's links", async () => {
    const other = await server.newApp({ customDomain: "Sum.App2.Test." });
    const idn = await server.newApp({ customDomain: "Bücher.Example" });
    const mine = await server.newApp();
    expect((await server.services.apps.getApp(other.appId)).customDomain).toBe("sum.app2.test");
    expect((await server.services.apps.getApp(idn.appId)).customDomain).toBe("xn--bcher-kva.example");

    const plain = pathOf(
      (await createLink(mine.token, await conversation(mine.token), { name: "verbose-text-summary" })).url,
    );
    const branded = pathOf(
      (
        await createLink(other.token, await conversation(other.token, "App two meeting"), {
          name: "verbose-text-summary",
          enableCustomDomain: true,
        })
      ).url,
    );
    const utf8AsSent = (host: string) => Buffer.from(host, "utf8").toString("latin1");
    const spellingsOfOther = [
      "sum.app2.test",
      "sum.app2.test:443",
      "sum.app2.test:8080",
      "sum.app2.test.",
      "sum.app2.test.:443",
      "SUM.APP2.TEST",
      "Sum.App2.Test.:80",
      "sum%2eapp2.test",
      utf8AsSent("ｓｕｍ.app2.test"),
    ];
    for (const host of spellingsOfOther) {
      expect((await getWithHost(server.url + plain, host)).status, host).toBe(404);
      const onItsDomain = await getWithHost(server.url + branded, host);
      expect(onItsDomain.status, host).toBe(200);
      expect(onItsDomain.body).toContain("App two meeting");
    }
    for (const host of [
      "xn--bcher-kva.example",
      "XN--BCHER-KVA.EXAMPLE.:443",
      utf8AsSent("bücher.example"),
    ]) {
      expect((await getWithHost(server.url + plain, host)).status, host).toBe(404);
    }
    for (const host of ["sum.app2.test@evil.test", "evil.test/sum.app2.test", "sum.app2.test:99999"]) {
      expect((await getWithHost(server.url + plain, host)).status, host).toBe(404);
      expect((await getWithHost(server.url + branded, host)).status, host).toBe(404);
    }
    for (const host of ["[::1]:8080", "sum.app3.test:443", "127.0.0.1"]) {
      expect((await getWithHost(server.url + plain, host)).status, host).toBe(200);
      expect((await getWithHost(server.url + branded, host)).status, host).toBe(404);
    }

    const renamed = await server.services.apps.updateApp(mine.appId, { customDomain: " SUM.App3.Test. " });
    expect(renamed.customDomain).toBe("sum.app3.test");
    expect((await getWithHost(server.url + plain, "sum.app3.test:443")).status).toBe(200);
    expect((await getWithHost(server.url + branded, "Sum.App3.Test.")).status).toBe(404);
    await expect(
      server.services.apps.updateApp(mine.appId, { customDomain: "sum.app3.test:443" }),
    ).rejects.toThrow(/without scheme, port or path/);

    for (const customDomain of [
      "sum.app2.test:8443",
      "https://sum.app2.test",
      "sum.app2.test/x",
      "a@b.test",
    ]) {
      await expect(
        server.services.apps.createApp({ name: "Bad", customDomain }),
        customDomain,
      ).rejects.toThrow(/customDomain must be a host name/);
    }
  });

  it("sends the page security headers on every answer under /s/, errors from the router and the HTTP parser included", async () => {
    const { token } = await server.newApp();
    const link = await createLink(token, await conversation(token), { name: "verbose-text-summary" });
    const linkPath = pathOf(link.url);
    const request = (line: string, headers = "Host: recap.test\r\n") =>
      rawRequest(server.url, `${line}\r\n${headers}Connection: close\r\n\r\n`);
    const cases: [string, Promise<Awaited<ReturnType<typeof rawRequest>>>, number][] = [
      ["over-long link", request(`GET /s/${"A".repeat(500)} HTTP/1.1`), 414],
      ["badly encoded path", request("GET /s/%E0%A4%A HTTP/1.1"), 400],
      ["badly encoded edit path", request("PATCH /s/x/members/%E0%A4%A HTTP/1.1"), 400],
      ["unknown path", request("GET /s/x/y/z HTTP/1.1"), 404],
      ["/s itself", request("GET /s HTTP/1.1"), 404],
      ["wrong method", request("DELETE /s/x HTTP/1.1"), 404],
      ["wrong method on a real link", request(`POST ${linkPath} HTTP/1.1`), 404],
      ["request line larger than the parser takes", request(`GET /s/${"A".repeat(20_000)} HTTP/1.1`), 431],
      ["method HTTP does not know", request("FETCH /s/x HTTP/1.1"), 400],
      ["no Host", request("GET /s/x HTTP/1.1", ""), 400],
    ];
    for (const [name, answer, status] of cases) {
      const { status: got, headers, body } = await answer;
      expect(got, name).toBe(status);
      expect(headers.get("content-security-policy"), name).toContain("frame-ancestors 'none'");
      expect(headers.get("content-security-policy"), name).not.toContain("unsafe-inline");
      expect(headers.get("referrer-policy"), name).toBe("no-referrer");
      expect(headers.get("x-robots-tag"), name).toContain("noindex");
      expect(headers.get("x-content-type-options"), name).toBe("nosniff");
      expect(headers.get("cache-control"), name).toBe("private, no-store");
      expect(headers.get("content-type"), name).toMatch(/^application\/json/);
      expect(JSON.parse(body), name).toEqual({ message: expect.any(String) as unknown });
    }
    const page = await request(`GET ${linkPath} HTTP/1.1`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toMatch(/style-src [^;]*'nonce-/);
  });

  it("serves custom-domain links on the app's domain only, and that host serves only the app's links", async () => {
    const branded = await server.newApp({
      customDomain: "summaries.example.com",
      frameAncestors: ["https://portal.example.com"],
    });
    const plain = await server.newApp();
    const brandedId = await conversation(branded.token, "Branded meeting");
    const plainId = await conversation(plain.token, "Plain meeting");

    const custom = await createLink(branded.token, brandedId, {
      name: "verbose-text-summary",
      enableCustomDomain: true,
    });
    expect(new URL(custom.url).host).toBe("summaries.example.com");
    const onDomain = await getWithHost(server.url + pathOf(custom.url), "summaries.example.com");
    expect(onDomain.status).toBe(200);
    expect(onDomain.body).toContain("Branded meeting");
    expect((await page(custom.url)).status).toBe(404);

    const plainLink = await createLink(plain.token, plainId, { name: "verbose-text-summary" });
    expect((await getWithHost(server.url + pathOf(plainLink.url), "summaries.example.com")).status).toBe(404);
    expect((await page(plainLink.url)).status).toBe(200);

    const embeddable = await createLink(branded.token, brandedId, { name: "verbose-text-summary" });
    const response = await page(embeddable.url);
    expect(response.headers.get("content-security-policy")).toContain(
      "frame-ancestors https://portal.example.com",
    );
  });
});

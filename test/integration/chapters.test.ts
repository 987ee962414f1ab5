import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBody, request } from "../helpers/api.ts";
import { startTestServer, TestClock, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, ingestMeeting, onServer } from "../helpers/factories.ts";

interface PageChapter {
  kind: string;
  text: string;
  messageIds: string[];
  timeOffset?: number | null;
  share?: number | null;
}

describe.each(await dialects())("chapters of a timed meeting on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { clock: new TestClock() });
  });
  afterAll(() => server.close());

  it("are listed on the page in order, each with its start, share of the meeting and first line", async () => {
    const { token } = await server.newApp();
    // A committee session (QMSum val), its lines 5 s apart: the analysis finds several chapters.
    const { conversationId } = await ingestMeeting(server, token, "education_0.json");
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });

    const json = (await (await fetch(onServer(server, link.url) + ".json")).json()) as {
      topics: PageChapter[];
      messages: { id: string; timeOffset: number | null }[];
    };
    const chapters = json.topics.filter((t) => t.kind === "chapter");
    expect(chapters.length).toBeGreaterThan(1);
    const offsetOf = new Map(json.messages.map((m) => [m.id, m.timeOffset]));
    expect(chapters[0]?.timeOffset).toBe(0);
    chapters.forEach((chapter, i) => {
      expect(chapter.timeOffset).toBe(offsetOf.get(chapter.messageIds[0] ?? ""));
      if (i > 0) expect(chapter.timeOffset).toBeGreaterThan(chapters[i - 1]?.timeOffset ?? Infinity);
      expect(chapter.share).toBeGreaterThan(0);
    });
    const total = chapters.reduce((sum, c) => sum + (c.share ?? 0), 0);
    expect(total).toBeCloseTo(1, 6);

    const html = await (await fetch(onServer(server, link.url))).text();
    const items = [...html.matchAll(/<li class="chapter">([\s\S]*?)<\/li>/g)].map((m) =>
      (m[1] ?? "").replace(/\s+/g, " "),
    );
    expect(items).toHaveLength(chapters.length);
    items.forEach((item, i) => {
      const chapter = chapters[i]!;
      const offset = chapter.timeOffset ?? 0;
      const clock = `${Math.floor(offset / 60)}:${String(offset % 60).padStart(2, "0")}`;
      expect(item).toContain(`href="#m-${chapter.messageIds[0]}"`);
      expect(item).toContain(`>${chapter.text}</a`);
      expect(item).toContain(`starts at <time datetime="PT${offset}S">${clock}</time>`);
      expect(item).toContain(`${Math.round((chapter.share ?? 0) * 100)}% of the meeting`);
    });
    expect(html).toMatch(/<h3 id="chapters-heading">Chapters<\/h3>\s*<ol class="items chapters"/);

    // The topics API keeps Symbl's shape: no field beyond Symbl's, chapters and phrases alike.
    const { topics } = await readBody<Body.TopicList>(
      server,
      token,
      `/v1/conversations/${conversationId}/topics`,
    );
    expect(topics.length).toBe(json.topics.length);
    for (const topic of topics) {
      expect(Object.keys(topic).sort()).toEqual(["id", "messageIds", "score", "text", "type"]);
    }
  });
});

describe.each(await dialects())("GET /v1/conversations/{id}/chapters on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { clock: new TestClock() });
  });
  afterAll(() => server.close());

  it("lists the chapters alone, in order, covering the conversation, as the page and /topics have them", async () => {
    const { token } = await server.newApp();
    const { conversationId } = await ingestMeeting(server, token, "education_0.json");
    const base = `/v1/conversations/${conversationId}`;

    const { chapters } = await readBody<Body.ChapterList>(server, token, `${base}/chapters`);
    expect(chapters.length).toBeGreaterThan(1);
    for (const chapter of chapters) {
      expect(Object.keys(chapter).sort()).toEqual(["id", "messageIds", "text"]);
      expect(chapter.messageIds.length).toBeGreaterThan(0);
    }
    // In order and together every line once: the chapters' lines, one after another, are the transcript.
    const { messages } = await readBody<Body.MessageList>(server, token, `${base}/messages`);
    expect(chapters.flatMap((c) => c.messageIds)).toEqual(messages.map((m) => m.id));

    // The same chapters as the page's, in its order, and each one of /topics (whose other topics are key phrases).
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    const page = (await (await fetch(onServer(server, link.url) + ".json")).json()) as {
      topics: PageChapter[];
    };
    const pageChapters = page.topics.filter((t) => t.kind === "chapter");
    expect(chapters.map((c) => [c.text, c.messageIds])).toEqual(
      pageChapters.map((c) => [c.text, c.messageIds]),
    );
    const { topics } = await readBody<Body.TopicList>(server, token, `${base}/topics`);
    const topicById = new Map(topics.map((t) => [t.id, t]));
    for (const chapter of chapters) {
      expect(topicById.get(chapter.id)).toMatchObject({ text: chapter.text, messageIds: chapter.messageIds });
    }
    expect(topics.length).toBeGreaterThanOrEqual(chapters.length);
  });

  it("needs a token and answers 404 for a conversation of another app or none", async () => {
    const owner = await server.newApp();
    const other = await server.newApp();
    const { conversationId } = await server.ingest(owner.token, {
      messages: [{ payload: { content: "We will look at the budget next week." }, from: { name: "Ada" } }],
    });
    const path = `${server.url}/v1/conversations/${conversationId}/chapters`;
    const anonymous = await request<unknown>(path, "GET");
    expect(anonymous.status).toBe(401);
    expect((await request<unknown>(path, "GET", { token: other.token })).status).toBe(404);
    const missing = await request<unknown>(
      `${server.url}/v1/conversations/1234567890123456/chapters`,
      "GET",
      { token: owner.token },
    );
    expect(missing.status).toBe(404);
    // A one-line chat is one chapter.
    const mine = await request<Body.ChapterList>(path, "GET", { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.body.chapters).toHaveLength(1);
  });
});

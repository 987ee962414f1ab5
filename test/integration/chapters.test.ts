import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBody } from "../helpers/api.ts";
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

import { describe, expect, it } from "vitest";
import { waitForJob } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, importTranscript, onServer } from "../helpers/factories.ts";
import { suiteServer } from "../helpers/suite.ts";

type Message = Body.MessageList["messages"][number];

const vtt = (...cues: string[]) =>
  `WEBVTT\n\n${cues.map((text, i) => `00:00:0${i + 1}.000 --> 00:00:0${i + 2}.000\n${text}\n`).join("\n")}`;

describe.each(await dialects())("transcript imports on %s", (dialect) => {
  const suite = suiteServer(dialect);

  const importFile = (body: string, type = "text/vtt") =>
    importTranscript(suite.server, suite.token, body, type);
  const messagesOf = async (conversationId: string) =>
    (await suite.api.get<Body.MessageList>(`/v1/conversations/${conversationId}/messages`)).body.messages;

  async function importAndRead(body: string): Promise<{ conversationId: string; messages: Message[] }> {
    const response = await importFile(body);
    expect(response.status).toBe(201);
    const { conversationId, jobId } = response.body;
    expect(await waitForJob(suite.server, suite.token, jobId)).toBe("completed");
    return { conversationId, messages: await messagesOf(conversationId) };
  }

  it("keeps cue times as media positions: a first cue at 00:01:00 is 60 s in, on the API and the page", async () => {
    const { conversationId, messages } = await importAndRead(`WEBVTT

00:01:00.000 --> 00:01:04.000
<v Dana>Let's start with the budget.

00:01:30.500 --> 00:01:33.000
<v Bob>I will send the numbers by Friday.
`);
    expect(messages.map((m) => [m.timeOffset, m.duration])).toEqual([
      [60, 4],
      [90.5, 2.5],
    ]);

    const { url } = await createLink(suite.server, suite.token, conversationId, {
      name: "video-summary",
      videoUrl: "https://media.example.com/meeting.mp4",
    });
    const html = await (await fetch(onServer(suite.server, url))).text();
    const line = (id: string | undefined) =>
      new RegExp(`id="m-${id}"\\s+data-offset="([\\d.]+)"[^]*?class="time"[^>]*>([\\d:]+)</a`).exec(html);
    expect(line(messages[0]?.id)?.slice(1)).toEqual(["60", "1:00"]);
    expect(line(messages[1]?.id)?.slice(1)).toEqual(["90.5", "1:30"]);
    // A summary item or insight that jumps to a line seeks the media to that line's cue.
    const seeks = [...html.matchAll(/data-goto="(\d+)"\s+data-seek="([\d.]+)"/g)];
    expect(seeks.length).toBeGreaterThan(0);
    for (const [, target, seek] of seeks) {
      expect(Number(seek)).toBe(messages.find((m) => m.id === target)?.timeOffset);
    }
  });

  it("invents no speaker from a `Word:` prefix in captions that name none", async () => {
    const { conversationId, messages } = await importAndRead(
      vtt(
        "Note: revenue grew four percent this quarter.",
        "Bottom line: we hit the target.",
        "So we can hire two more people.",
      ),
    );
    expect(messages.map((m) => [m.from.name, m.text])).toEqual([
      [undefined, "Note: revenue grew four percent this quarter."],
      [undefined, "Bottom line: we hit the target."],
      [undefined, "So we can hire two more people."],
    ]);
    const { members } = (await suite.api.get<Body.MemberList>(`/v1/conversations/${conversationId}/members`))
      .body;
    expect(members).toEqual([]);
  });

  it("stores cues received out of order in time order, on the API and the page", async () => {
    const { conversationId, messages } = await importAndRead(`WEBVTT

00:05:00.000 --> 00:05:04.000
<v Dana>Let's wrap up.

00:00:01.000 --> 00:00:03.000
<v Bob>Good morning.

00:02:00.000 --> 00:02:05.000
<v Dana>The budget is approved.
`);
    expect(messages.map((m) => [m.timeOffset, m.text])).toEqual([
      [1, "Good morning."],
      [120, "The budget is approved."],
      [300, "Let's wrap up."],
    ]);
    const { url } = await createLink(suite.server, suite.token, conversationId, {
      name: "verbose-text-summary",
    });
    const html = await (await fetch(onServer(suite.server, url))).text();
    const times = [...html.matchAll(/class="time"[^>]*>([\d:]+)<\/a/g)].map((match) => match[1]);
    expect(times).toEqual(["0:01", "2:00", "5:00"]);
  });

  it("refuses a cue that ends before it starts with a 400 naming it, and stores nothing", async () => {
    const count = async () =>
      (await suite.api.get<Body.ConversationList>("/v1/conversations?limit=1000")).body.conversations.length;
    const before = await count();
    const response = await importFile(
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Dana>Fine.\n\n00:00:09.000 --> 00:00:04.000\n<v Bob>Backwards.\n",
    );
    expect(response.status).toBe(400);
    expect(response.body.message).toBe("cue 2 (00:00:09.000 --> 00:00:04.000) must not end before it starts");
    const srt = await importFile(
      "1\n00:01:00,000 --> 00:00:59,000\nBob: Backwards.\n",
      "application/x-subrip",
    );
    expect(srt.status).toBe(400);
    expect(srt.body.message).toBe("cue 1 (00:01:00,000 --> 00:00:59,000) must not end before it starts");
    expect(await count()).toBe(before);
  });

  it("shows no date for an imported transcript, whose file gives none: only its length", async () => {
    const { conversationId, messages } = await importAndRead(`WEBVTT

00:00:02.000 --> 00:00:10.000
<v Dana>Morning, let's go through the budget.

00:01:50.000 --> 00:02:00.000
<v Bob>I will send the numbers by Friday.
`);
    // Symbl's shape keeps a date-time: media position 0, which is the moment of the import.
    const conversation = (await suite.api.get<Body.Conversation>(`/v1/conversations/${conversationId}`)).body;
    expect(new Date(conversation.startTime).toISOString()).toBe(conversation.startTime);
    expect(Date.parse(messages[0]?.startTime ?? "") - Date.parse(conversation.startTime)).toBe(2000);

    const { url } = await createLink(suite.server, suite.token, conversationId, {
      name: "verbose-text-summary",
    });
    const link = onServer(suite.server, url);
    const html = await (await fetch(link)).text();
    const header = /<header class="page-header">[\s\S]*?<\/header>/.exec(html)?.[0] ?? "";
    expect(header).toContain('<span class="duration">2 min</span>');
    expect(header).not.toContain("<time");
    const day = conversation.startTime.slice(0, 10);
    const markdown = await (await fetch(`${link}.md`)).text();
    expect(markdown.split("\n").slice(0, 3)).toEqual([expect.stringMatching(/^# /), "", "2 min"]);
    const text = await (await fetch(`${link}.txt`)).text();
    expect(text.split("\n").slice(1, 2)).toEqual(["2 min"]);
    expect(markdown + text).not.toContain(day);
  });

  it("decodes WebVTT character references in voice names and cue text", async () => {
    const { conversationId, messages } = await importAndRead(
      vtt(
        "<v.loud Tom &amp; Jerry>Fish &amp; chips &lt;3 &#x1F41F; &#233;t&eacute;</v>",
        "<v Ann&nbsp;Lee>a&rlm;b &gt; c &amp;amp;",
      ),
    );
    expect(messages.map((m) => [m.from.name, m.text])).toEqual([
      ["Tom & Jerry", "Fish & chips <3 🐟 été"],
      // A no-break space is white space, which names and lines keep as one plain space.
      ["Ann Lee", "a\u200fb > c &amp;"],
    ]);
    const { members } = (await suite.api.get<Body.MemberList>(`/v1/conversations/${conversationId}/members`))
      .body;
    expect(members.map((m) => m.name)).toEqual(["Tom & Jerry", "Ann Lee"]);
  });

  it("parses hostile cue text in linear time, off the event loop, and answers every other request meanwhile", async () => {
    const srt = (text: string) => `1\n00:00:01,000 --> 00:00:02,000\n${text}\n`;
    const hostile: [string, string][] = [
      // The voice-tag pattern that used to backtrack exponentially: each two more characters doubled the time.
      [vtt(`<v${".x".repeat(40)}`), "text/vtt"],
      [vtt(`<v${".x".repeat(200_000)}`), "text/vtt"],
      [srt(`<v${".x".repeat(200_000)}`), "application/x-subrip"],
      [vtt("<a".repeat(400_000)), "text/vtt"],
      [vtt(`<v Dana>hi <c${"<".repeat(400_000)}`), "text/vtt"],
      [vtt(`<v Dana>${"<b>".repeat(200_000)}hi`), "text/vtt"],
      [vtt(`<v Dana>hi <lang ${"&amp;".repeat(100_000)}>`), "text/vtt"],
      [vtt(`Dana:${" ".repeat(400_000)}hi`), "text/vtt"],
    ];
    const answers = hostile.map(async ([body, type]) => {
      const { status, body: answer } = await importFile(body, type);
      return { status, body: answer };
    });
    // While those are parsed, the server keeps answering.
    const health = await fetch(`${suite.server.url}/healthz`, { signal: AbortSignal.timeout(20_000) });
    expect(health.status).toBe(200);
    const results = await Promise.all(answers);
    expect(results.map((r) => r.status)).toEqual([400, 400, 400, 400, 201, 201, 201, 201]);
    expect(results[0]?.body.message).toBe("body holds no transcript cue (expected WebVTT or SRT)");
    for (const result of results.slice(4)) {
      const messages = await messagesOf(result.body.conversationId);
      expect(messages.map((m) => [m.from.name, m.text])).toEqual([["Dana", "hi"]]);
    }
  }, 60_000);

  it("reads what follows a lone `<` or an unterminated tag as the WebVTT tokenizer does", async () => {
    const { messages } = await importAndRead(
      vtt("<v Dana>x < y and 2 <3", "<v Bob>kept <i>italic</i> then <b unterminated"),
    );
    expect(messages.map((m) => [m.from.name, m.text])).toEqual([
      ["Dana", "x < y and 2"],
      ["Bob", "kept italic then"],
    ]);
  });

  it("refuses a JSON body on the transcript route with 415, before looking at its shape", async () => {
    const response = await importFile(JSON.stringify({ messages: [] }), "application/json");
    expect(response.status).toBe(415);
    expect(response.body.message).toMatch(/text\/vtt/);
  });

  it("documents the transcript route's request body in /openapi.json", async () => {
    const openapi = (await (await fetch(`${suite.server.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        { post?: { requestBody?: { required?: boolean; content: Record<string, unknown> } } }
      >;
    };
    const body = openapi.paths["/v1/process/transcript"]?.post?.requestBody;
    expect(body?.required).toBe(true);
    expect(Object.keys(body?.content ?? {}).sort()).toEqual(["application/x-subrip", "text/vtt"]);
    expect(body?.content["text/vtt"]).toMatchObject({ schema: { type: "string" } });
  });
});

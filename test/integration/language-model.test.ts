// Over 300 lines: one scripted model server drives each rule of docs/LLM.md (request shape, evidence,
// parts and rounds, fallbacks, no network without a model) against the real server, on both dialects.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { bodyOf } from "../helpers/api.ts";
import { startTestServer, waitForJob } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects, POSTGRES_ADMIN_URL } from "../helpers/databases.ts";
import { LAUNCH_MEETING, timedLines } from "../helpers/factories.ts";
import { FOREIGN_MEETINGS } from "../helpers/languages.ts";
import { shownTo, startModelServer, type ModelReply, type ModelRequest } from "../helpers/model-server.ts";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { suiteServer } from "../helpers/suite.ts";
import type { ProcessTextBody } from "../../src/modules/ingestion/ingestion.schemas.ts";

// The answers here are scripted: these tests prove what Recap asks and what it does with an answer, valid
// or not. How good a real model's answers are is not measured by the suite (docs/LLM.md).
const model = await startModelServer();
afterAll(() => model.close());

const START = "2026-11-02T10:00:00Z"; // a Monday
const MADE_UP_ID = "9999999999999999";
/** A design meeting that settles three things, one after another. */
const REMOTE_DESIGN: [string, string][] = [
  ["Ann", "First the battery: which battery goes in the remote?"],
  ["Raj", "A rechargeable battery costs more than two standard batteries."],
  ["Ann", "Standard batteries last a year in a remote like this."],
  ["Raj", "Then the battery choice is two standard batteries."],
  ["Ann", "Agreed, we keep the standard batteries and drop the rechargeable battery."],
  ["Raj", "Fine, the battery question is settled."],
  ["Ann", "Next, the case: what material should the case be?"],
  ["Raj", "A rubber case survives a drop, a plastic case cracks."],
  ["Ann", "Rubber feels softer in the hand, and the case can be yellow."],
  ["Raj", "So the case is rubber, in yellow."],
  ["Ann", "Yes, a yellow rubber case it is."],
  ["Raj", "Good, the case material is done."],
  ["Ann", "Last, the scroll wheel on the front."],
  ["Raj", "A scroll wheel makes the channel list quick to browse."],
  ["Ann", "The scroll wheel adds cost to the chip, though."],
  ["Raj", "The scroll wheel is worth that cost, users asked for the wheel."],
  ["Ann", "Then we put the scroll wheel in the middle of the front."],
  ["Raj", "Good, the wheel goes in the middle."],
];

/** A valid answer about one part: statements with and without evidence, titles, verdicts by candidate text. */
function partAnswer(request: ModelRequest) {
  const { lines, chapters, candidates } = shownTo(request);
  const first = lines[0]?.id ?? "";
  return {
    summary: [
      { text: "The team reviewed the launch plan for the new billing page.", messageIds: [first] },
      { text: "The team agreed on everything.", messageIds: [] },
      { text: "The team hired a new designer.", messageIds: [MADE_UP_ID] },
      { text: "Dana promised a pony.", messageIds: [lines[1]?.id ?? "", MADE_UP_ID] },
    ],
    decisions: [
      { text: "The team agreed to finish the billing page design first.", messageIds: [lines[5]?.id] },
      { text: "The team chose a new logo.", messageIds: [MADE_UP_ID] },
    ],
    chapters: chapters.map((chapter) => ({
      chapter: chapter.id,
      title: "Billing page launch",
      messageIds: [chapter.firstLine],
    })),
    actionItems: candidates.map((candidate) => {
      const budget = candidate.text.includes("budget");
      return {
        candidate: candidate.id,
        isTask: budget,
        assignee: budget ? "Dana" : null,
        dueBy: budget ? "2026-11-06" : null,
        text: budget ? "Dana will send Bob the budget numbers by Friday." : candidate.text,
        messageIds: candidate.messageIds,
      };
    }),
  };
}

describe.each(await dialects())("an optional language model on %s", (dialect) => {
  const suite = suiteServer(dialect, {
    env: {
      RECAP_LLM_URL: model.url,
      RECAP_LLM_MODEL: "test-model",
      RECAP_LLM_API_KEY: "sk-test-key",
      RECAP_LLM_TIMEOUT_SECONDS: "1",
      // 1,024 tokens (about 4,096 characters) of transcript a request: the launch meeting fits one.
      RECAP_LLM_CONTEXT_TOKENS: "2048",
    },
  });

  async function analyse(
    rows: [string, string][] | ProcessTextBody,
    script: (request: ModelRequest) => ModelReply,
  ) {
    model.requests.length = 0;
    model.script = script;
    const body = Array.isArray(rows)
      ? { name: "Launch", messages: timedLines(rows, { start: START }) }
      : rows;
    const { conversationId } = await suite.server.ingest(suite.token, body);
    const base = `/v1/conversations/${conversationId}`;
    const get = async <T>(path: string) => (await suite.api.get<T>(`${base}${path}`)).body;
    return {
      conversation: await get<Body.Conversation>(""),
      messages: (await get<Body.MessageList>("/messages")).messages,
      members: (await get<Body.MemberList>("/members")).members,
      summary: (await get<Body.SummaryList>("/summary")).summary,
      topics: (await get<Body.TopicList>("/topics")).topics,
      actionItems: (await get<Body.ActionItemList>("/action-items")).actionItems,
      decisions: (await get<Body.DecisionList>("/decisions")).decisions,
      chapters: (await get<Body.ChapterList>("/chapters")).chapters,
    };
  }

  it("asks with structured output and stores the model's summary, chapter titles and verdicts, dropping what cites no shown line", async () => {
    const analysis = await analyse(LAUNCH_MEETING, (request) => ({ content: partAnswer(request) }));
    const { messages, members } = analysis;

    expect(model.requests).toHaveLength(1);
    const [request] = model.requests;
    expect(request?.headers.authorization).toBe("Bearer sk-test-key");
    expect(request?.body.model).toBe("test-model");
    expect(request?.body.messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(request?.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: {
        name: "meeting_part",
        strict: true,
        schema: { type: "object", required: ["summary", "decisions", "chapters", "actionItems"] },
      },
    });
    const shown = shownTo(request as ModelRequest);
    expect(shown.lines.map((line) => [line.id, line.speaker, line.text])).toEqual(
      messages.map((message, i) => [message.id, LAUNCH_MEETING[i]?.[0], message.text]),
    );
    expect(shown.prompt).toContain("The meeting started on Monday 2026-11-02.");

    // Whether the local analysis finds chapters in six lines is its own business; when it does, they are titled.
    const titled = shown.chapters.length > 0;
    expect(analysis.conversation.analysis).toEqual({
      status: "analysed",
      engines: { summary: "llm", decisions: "llm", chapters: titled ? "llm" : "local", actionItems: "llm" },
    });
    expect(analysis.summary.map((item) => [item.text, item.messageRefs])).toEqual([
      ["The team reviewed the launch plan for the new billing page.", [{ id: messages[0]?.id }]],
    ]);
    expect(analysis.decisions.map((item) => [item.text, item.messageIds])).toEqual([
      ["The team agreed to finish the billing page design first.", [messages[5]?.id]],
    ]);
    expect(analysis.topics.map((topic) => topic.text).includes("Billing page launch")).toBe(titled);
    const dana = members.find((member) => member.name === "Dana");
    expect(analysis.actionItems).toEqual([
      expect.objectContaining({
        text: "Dana will send Bob the budget numbers by Friday.",
        messageIds: [messages[1]?.id],
        assignee: { id: dana?.id, name: "Dana" },
        dueBy: "2026-11-06T00:00:00.000Z",
      }),
    ]);
  });

  it("stores the model's decisions and chapter titles when they rest on lines they cite, keeping the local boundaries", async () => {
    const subjects = ["battery", "case", "scroll wheel"];
    const titleOf = (lines: { text: string }[]) => {
      const named = subjects.filter((subject) => lines.some((line) => line.text.includes(subject)));
      const title = named.length > 1 ? `${named.slice(0, -1).join(", ")} and ${named.at(-1)}` : named[0];
      return `Choice of ${title ?? "nothing"}`;
    };
    let expectedChapters: { text: string; messageIds: string[] }[] = [];
    const analysis = await analyse(REMOTE_DESIGN, (request) => {
      const { lines, chapters } = shownTo(request);
      const idOf = (text: string) => lines.find((line) => line.text.startsWith(text))?.id ?? "";
      expectedChapters = chapters.map((chapter) => {
        const from = lines.findIndex((line) => line.id === chapter.firstLine);
        const to = lines.findIndex((line) => line.id === chapter.lastLine);
        const own = lines.slice(from, to + 1);
        return { text: titleOf(own), messageIds: own.map((line) => line.id) };
      });
      return {
        content: {
          summary: [{ text: "The team chose the remote's parts.", messageIds: [lines[0]?.id] }],
          decisions: [
            {
              text: "The team chose two standard batteries.",
              messageIds: [idOf("Agreed"), idOf("Then the")],
            },
            { text: "The team chose a yellow rubber case.", messageIds: [idOf("Yes, a yellow")] },
            { text: "The team hired a designer.", messageIds: [MADE_UP_ID] },
            { text: "The team dropped the wheel.", messageIds: [idOf("Good, the wheel"), MADE_UP_ID] },
          ],
          chapters: chapters.flatMap((chapter, i) => [
            // Said nowhere in the meeting: refused, so the supported title after it is taken.
            { chapter: chapter.id, title: "Marketing strategy", messageIds: [chapter.firstLine] },
            {
              chapter: chapter.id,
              title: expectedChapters[i]?.text ?? "",
              messageIds: [chapter.firstLine, chapter.lastLine],
            },
          ]),
          actionItems: [],
        },
      };
    });
    const { messages } = analysis;
    const idOf = (text: string) => messages.find((message) => message.text.startsWith(text))?.id;

    expect(model.requests).toHaveLength(1);
    expect(expectedChapters.length).toBeGreaterThan(0);
    expect(analysis.conversation.analysis?.engines).toMatchObject({
      summary: "llm",
      decisions: "llm",
      chapters: "llm",
    });
    expect(analysis.decisions.map(({ text, messageIds }) => ({ text, messageIds }))).toEqual([
      { text: "The team chose two standard batteries.", messageIds: [idOf("Agreed"), idOf("Then the")] },
      { text: "The team chose a yellow rubber case.", messageIds: [idOf("Yes, a yellow")] },
    ]);
    expect(analysis.chapters.map(({ text, messageIds }) => ({ text, messageIds }))).toEqual(expectedChapters);
    expect(expectedChapters.flatMap((chapter) => chapter.messageIds)).toEqual(messages.map((m) => m.id));
    expect(analysis.topics.map((topic) => topic.text)).not.toContain("Marketing strategy");
  });

  it("keeps each part local on its own when the model's answer for it does not match the schema or cites no line of its own", async () => {
    const analysis = await analyse(LAUNCH_MEETING, (request) => {
      const valid = partAnswer(request);
      return {
        content: {
          summary: valid.summary,
          decisions: valid.decisions.map((decision) => ({ ...decision, messageIds: [MADE_UP_ID] })),
          chapters: valid.chapters.map((chapter) => ({ ...chapter, title: 5 })),
          actionItems: valid.actionItems.map((verdict) => ({ ...verdict, messageIds: [MADE_UP_ID] })),
        },
      };
    });
    expect(analysis.conversation.analysis?.engines).toEqual({
      summary: "llm",
      decisions: "local",
      chapters: "local",
      actionItems: "local",
    });
    expect(analysis.decisions.map((item) => item.text)).not.toContain("The team chose a new logo.");
    expect(analysis.summary.map((item) => item.text)).toEqual([
      "The team reviewed the launch plan for the new billing page.",
    ]);
    expect(analysis.topics.map((topic) => topic.text)).not.toContain("Billing page launch");
    expect(analysis.actionItems.map((item) => item.text)).toContain(
      "Dana will send the budget numbers by Friday.",
    );
  });

  it.each<[string, ModelReply]>([
    ["an answer that is not JSON", { content: "Sure! Here is the summary: the team met." }],
    ["a body that is not a chat completion", { status: 200, body: "<html>proxy error</html>" }],
    ["an error status", { status: 500, body: '{"error":{"message":"model crashed"}}' }],
    ["no answer within the timeout", { delaySeconds: 3, content: {} }],
  ])("stores the local analysis and completes the job after %s", async (_case, reply) => {
    const analysis = await analyse(LAUNCH_MEETING, () => reply);
    expect(model.requests.length).toBeGreaterThan(0);
    expect(analysis.conversation.analysis?.engines).toEqual({
      summary: "local",
      decisions: "local",
      chapters: "local",
      actionItems: "local",
    });
    expect(analysis.summary.length).toBeGreaterThan(0);
    expect(analysis.summary.every((item) => !item.text.startsWith("The team"))).toBe(true);
    expect(analysis.actionItems.map((item) => item.text)).toContain(
      "Dana will send the budget numbers by Friday.",
    );
  });

  it("does not ask the model about a conversation in a language the analysis does not read (issue 24)", async () => {
    const spanish = FOREIGN_MEETINGS["es-ES"] ?? [];
    const analysis = await analyse(
      spanish.map((text, i): [string, string] => [i % 2 === 0 ? "Ana" : "Luis", text]),
      (request) => ({ content: partAnswer(request) }),
    );
    expect(model.requests).toEqual([]);
    expect(analysis.conversation.analysis).toMatchObject({
      status: "language_not_supported",
      engines: { summary: "local", decisions: "local", chapters: "local", actionItems: "local" },
    });
    expect(analysis.summary).toEqual([]);
  });

  it("sends no Authorization header when no key is configured", async () => {
    const keyless = await startTestServer(dialect, {
      env: { RECAP_LLM_URL: model.url, RECAP_LLM_MODEL: "local-model" },
    });
    try {
      model.requests.length = 0;
      model.script = (request) => ({ content: partAnswer(request) });
      const { token } = await keyless.newApp();
      await keyless.ingest(token, { messages: timedLines(LAUNCH_MEETING, { start: START }) });
      expect(model.requests.map((request) => [request.body.model, request.headers.authorization])).toEqual([
        ["local-model", undefined],
      ]);
    } finally {
      await keyless.close();
    }
  });

  it("asks about a long meeting in parts that each fit the budget, then combines their summaries", async () => {
    const subjects = ["the battery", "the charging dock", "the case colour", "the button layout"];
    const rows = Array.from({ length: 120 }, (_, i): [string, string] => [
      i % 2 === 0 ? "Ann" : "Raj",
      `Line ${i + 1} of the review: the prototype of ${subjects[Math.floor(i / 30)]} looked fine in the last round of tests.`,
    ]);
    const analysis = await analyse(rows, (request) => {
      const shown = shownTo(request);
      if (request.body.response_format?.json_schema?.name === "meeting_summary") {
        const cited = shown.statements.flatMap((statement) => statement.messageIds);
        return {
          content: {
            summary: [
              { text: "The team reviewed four prototype parts in turn.", messageIds: cited.slice(0, 2) },
              { text: "The team found every part fine.", messageIds: cited.slice(-1) },
            ],
          },
        };
      }
      return {
        content: {
          summary: [{ text: `The team discussed ${shown.lines[0]?.text}`, messageIds: [shown.lines[0]?.id] }],
          chapters: [],
          actionItems: [],
        },
      };
    });

    const names = model.requests.map((request) => request.body.response_format?.json_schema?.name);
    expect(names.length).toBeGreaterThanOrEqual(4);
    expect(names).toEqual([...names.slice(0, -1).map(() => "meeting_part"), "meeting_summary"]);
    const parts = model.requests.slice(0, -1).map((request) => shownTo(request).lines);
    expect(parts.flat().map((line) => line.id)).toEqual(analysis.messages.map((message) => message.id));
    for (const lines of parts) {
      expect(
        lines.map((line) => `[${line.id}] ${line.speaker}: ${line.text}\n`).join("").length,
      ).toBeLessThanOrEqual(4096);
    }
    const combined = shownTo(model.requests.at(-1) as ModelRequest).statements;
    expect(combined.map((statement) => statement.messageIds[0])).toEqual(parts.map((lines) => lines[0]?.id));

    expect(analysis.conversation.analysis?.engines.summary).toBe("llm");
    expect(analysis.summary.map((item) => item.text)).toEqual([
      "The team reviewed four prototype parts in turn.",
      "The team found every part fine.",
    ]);
  });

  it("combines the parts' summaries in rounds when they do not fit one request", async () => {
    const isCombine = (request: ModelRequest) =>
      request.body.response_format?.json_schema?.name === "meeting_summary";
    const analysis = await analyse(toProcessTextBody(loadMeeting("val", "IS1006a.json")), (request) => {
      const shown = shownTo(request);
      if (isCombine(request)) {
        const cited = shown.statements.flatMap((statement) => statement.messageIds);
        return {
          content: {
            summary: [
              {
                text: `The team opened (round of ${shown.statements.length}).`,
                messageIds: cited.slice(0, 1),
              },
              { text: `The team closed (round of ${shown.statements.length}).`, messageIds: cited.slice(-1) },
            ],
          },
        };
      }
      // Long sentences, so that the parts' summaries together exceed one request's budget.
      const text = `The team discussed ${shown.lines.map((line) => line.text).join(" ")}`.slice(0, 600);
      return {
        content: { summary: [{ text, messageIds: [shown.lines[0]?.id] }], chapters: [], actionItems: [] },
      };
    });

    const combining = model.requests.filter(isCombine).map((request) => shownTo(request).statements);
    const parts = model.requests.length - combining.length;
    expect(combining.length).toBeGreaterThanOrEqual(3);
    expect(combining.slice(0, -1).flat()).toHaveLength(parts);
    expect(combining.at(-1)).toHaveLength(2 * (combining.length - 1));
    for (const statements of combining) {
      expect(
        statements.map((s) => `[${s.messageIds.join(", ")}] ${s.text}\n`).join("").length,
      ).toBeLessThanOrEqual(4096);
    }
    const last = combining.length - 1;
    expect(analysis.summary.map((item) => item.text)).toEqual([
      `The team opened (round of ${2 * last}).`,
      `The team closed (round of ${2 * last}).`,
    ]);
    expect(analysis.conversation.analysis?.engines.summary).toBe("llm");
  });
});

describe.each(await dialects())("without a language model on %s", (dialect) => {
  const suite = suiteServer(dialect);

  it("analyses locally, opens no connection but to its own server and database, and records every part as local", async () => {
    model.requests.length = 0;
    // Every TCP connection this process opens while the conversation is submitted and analysed.
    const opened: { port?: number }[] = [];
    const onSocket = (message: unknown) => {
      const { socket } = message as { socket: Socket };
      const entry: { port?: number } = {};
      opened.push(entry);
      socket.once("connect", () => (entry.port = socket.remotePort));
    };
    subscribe("net.client.socket", onSocket);
    let jobId: string;
    let conversationId: string;
    try {
      const submitted = await suite.server.api(suite.token, "/v1/process/text", {
        method: "POST",
        body: { messages: timedLines(LAUNCH_MEETING, { start: START }) },
      });
      ({ jobId, conversationId } = await bodyOf<Body.Accepted>(submitted));
      expect(await waitForJob(suite.server, suite.token, jobId)).toBe("completed");
    } finally {
      unsubscribe("net.client.socket", onSocket);
    }
    const allowed = [
      Number(new URL(suite.server.url).port),
      Number(new URL(POSTGRES_ADMIN_URL).port || 5432),
    ];
    expect(opened.filter((entry) => entry.port === undefined || !allowed.includes(entry.port))).toEqual([]);
    expect(model.requests).toEqual([]);

    const conversation = (await suite.api.get<Body.Conversation>(`/v1/conversations/${conversationId}`)).body;
    expect(conversation.analysis).toEqual({
      status: "analysed",
      engines: { summary: "local", decisions: "local", chapters: "local", actionItems: "local" },
    });
  });
});

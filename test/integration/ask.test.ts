// POST /v1/ask (docs/SEARCH.md, Ask): a question answered from the lines search finds, by a scripted model
// server. These tests prove what Recap sends and what it keeps of an answer; a real model's quality is not
// measured here (docs/LLM.md).
import { afterAll, describe, expect, it } from "vitest";
import type { AskAnswer } from "../../src/modules/search/ask.schemas.ts";
import { apiClient } from "../helpers/api.ts";
import { dialects } from "../helpers/databases.ts";
import { message } from "../helpers/factories.ts";
import { shownTo, startModelServer, type ModelReply, type ModelRequest } from "../helpers/model-server.ts";
import { suiteServer } from "../helpers/suite.ts";

const model = await startModelServer();
afterAll(() => model.close());

const MONDAY = "2026-03-02T09:00:00Z";
const MADE_UP_ID = "9999999999999999";

const BUDGET_REVIEW: [string, string][] = [
  ["Ann", "Good morning, let us start."],
  ["Bob", "The marketing budget is cut by ten percent for the spring."],
  ["Ann", "Then the spring campaign waits until May."],
  ["Bob", "Agreed, the campaign starts in May."],
  ["Ann", "Next, the office move."],
];
const HIRING: [string, string][] = [
  ["Cleo", "We hire two designers this quarter."],
  ["Dan", "The designers start in April, after the budget is signed."],
];

/** The analysis jobs' requests get an unusable answer (they stay local, at once); questions get `answer`. */
function answering(answer: (request: ModelRequest) => ModelReply) {
  model.requests.length = 0;
  model.script = (request) =>
    request.body.response_format?.json_schema?.name === "question_answer" ? answer(request) : { content: {} };
}

/** The requests that asked a question (not the analysis jobs'). */
const questions = () =>
  model.requests.filter((request) => request.body.response_format?.json_schema?.name === "question_answer");

describe.each(await dialects())("asking about conversations on %s", (dialect) => {
  const suite = suiteServer(dialect, {
    env: { RECAP_LLM_URL: model.url, RECAP_LLM_MODEL: "test-model", RECAP_LLM_TIMEOUT_SECONDS: "2" },
  });

  /** A new app with `meetings` ingested, and its client. */
  async function appWith(meetings: { name: string; lines: [string, string][] }[]) {
    answering(() => ({ content: { answer: [] } }));
    const { token } = await suite.server.newApp();
    const ids: string[] = [];
    for (const [index, meeting] of meetings.entries()) {
      const messages = meeting.lines.map(([name, text], line) =>
        message(text, name, [index * 3600 + line * 10, index * 3600 + line * 10 + 8], MONDAY),
      );
      ids.push((await suite.server.ingest(token, { name: meeting.name, messages })).conversationId);
    }
    const api = apiClient(suite.server.url, token);
    const lines = async (conversationId: string) =>
      (
        await api.get<{ messages: { id: string; text: string }[] }>(
          `/v1/conversations/${conversationId}/messages`,
        )
      ).body.messages;
    return { api, ids, lines };
  }

  const ask = (api: ReturnType<typeof apiClient>, body: unknown) => api.post<AskAnswer>("/v1/ask", body);

  it("answers from the lines search finds, keeping only sentences that cite lines the model was shown", async () => {
    const { api, ids, lines } = await appWith([
      { name: "Budget review", lines: BUDGET_REVIEW },
      { name: "Hiring", lines: HIRING },
    ]);
    const [budgetLines, hiringLines] = [await lines(ids[0] ?? ""), await lines(ids[1] ?? "")];
    const cut = budgetLines[1]?.id ?? "";
    const may = budgetLines[3]?.id ?? "";
    answering(() => ({
      content: {
        answer: [
          { text: "The marketing budget was cut by ten percent.", messageIds: [cut] },
          { text: "The campaign starts in May.", messageIds: [may, cut] },
          { text: "Everyone was happy.", messageIds: [] },
          { text: "The budget doubled next year.", messageIds: [MADE_UP_ID] },
          { text: "Half made up.", messageIds: [may, MADE_UP_ID] },
        ],
      },
    }));

    const answer = await ask(api, { question: "What happened to the marketing budget?" });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      answer: [
        { text: "The marketing budget was cut by ten percent.", messageIds: [cut] },
        { text: "The campaign starts in May.", messageIds: [may, cut] },
      ],
      sources: [
        { conversationId: ids[0], messageId: cut },
        { conversationId: ids[0], messageId: may },
      ],
    });
    const [request] = questions();
    expect(questions()).toHaveLength(1);
    expect(request?.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "question_answer", strict: true, schema: { required: ["answer"] } },
    });
    const { prompt, lines: shown } = shownTo(request as ModelRequest);
    expect(prompt).toContain('Meeting "Budget review", 2026-03-02:');
    expect(prompt).toContain("Question: What happened to the marketing budget?");
    // Both meetings say "budget"; each line is shown once, with its speaker.
    expect(shown.map((line) => line.id)).toContain(hiringLines[1]?.id);
    expect(new Set(shown.map((line) => line.id)).size).toBe(shown.length);
    expect(shown.find((line) => line.id === cut)?.speaker).toBe("Bob");

    // Kept to one conversation, the other's lines are not shown.
    answering((asked) => ({
      content: { answer: [{ text: "Designers start in April.", messageIds: [shownTo(asked).lines[0]?.id] }] },
    }));
    const kept = await ask(api, { question: "When is the budget signed?", conversationIds: [ids[1]] });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.sources.map((source) => source.conversationId)).toEqual([ids[1]]);
    const keptShown = shownTo(questions()[0] as ModelRequest).lines.map((line) => line.id);
    expect(keptShown.every((id) => hiringLines.some((line) => line.id === id))).toBe(true);
  });

  it("says not found, without asking the model, when search finds nothing; and when every citation is made up", async () => {
    const { api, lines, ids } = await appWith([{ name: "Budget review", lines: BUDGET_REVIEW }]);
    const notFound = { answer: [], sources: [], message: "Not found in your conversations." };

    answering(() => ({ content: { answer: [{ text: "Penguins.", messageIds: [MADE_UP_ID] }] } }));
    const nothing = await ask(api, { question: "Who ordered the penguins?" });
    expect(nothing.status, nothing.text).toBe(200);
    expect(nothing.body).toEqual(notFound);
    expect(questions()).toHaveLength(0);

    const madeUp = await ask(api, { question: "What about the budget?" });
    expect(madeUp.status, madeUp.text).toBe(200);
    expect(madeUp.body).toEqual(notFound);
    expect(questions()).toHaveLength(1);

    // A model that finds no answer in the lines is the same.
    answering(() => ({ content: { answer: [] } }));
    expect((await ask(api, { question: "What about the budget?" })).body).toEqual(notFound);
    expect((await lines(ids[0] ?? "")).length).toBe(BUDGET_REVIEW.length);
  });

  it("answers 503 with the reason when the model fails, never a crash", async () => {
    const { api } = await appWith([{ name: "Budget review", lines: BUDGET_REVIEW }]);
    const failures: [ModelReply, RegExp][] = [
      [{ status: 500, body: '{"error":{"message":"model crashed"}}' }, /answered HTTP 500/],
      [{ content: "The budget was cut." }, /not JSON/],
      [{ content: { answer: "The budget was cut." } }, /"answer" does not match the schema/],
    ];
    for (const [reply, reason] of failures) {
      answering(() => reply);
      const failed = await ask(api, { question: "What about the budget?" });
      expect(failed.status, failed.text).toBe(503);
      expect(failed.body).toEqual({
        message: expect.stringMatching(reason) as unknown,
      });
      expect((failed.body as unknown as { message: string }).message).toMatch(
        /^The language model could not answer/,
      );
    }
    // The server is still up and answers the next question.
    answering((request) => ({
      content: { answer: [{ text: "It was cut.", messageIds: [shownTo(request).lines[1]?.id] }] },
    }));
    expect((await ask(api, { question: "What about the budget?" })).status).toBe(200);
  });

  it("never shows the model another app's lines: its conversation ids are 404, its words find nothing", async () => {
    const mine = await appWith([{ name: "Budget review", lines: BUDGET_REVIEW }]);
    const theirs = await appWith([
      {
        name: "Secret plans",
        lines: [["Eve", "The zeppelin budget is secret, the zeppelin flies in June."]],
      },
    ]);
    const theirLines = await theirs.lines(theirs.ids[0] ?? "");
    answering(() => ({
      content: { answer: [{ text: "The zeppelin flies in June.", messageIds: [theirLines[0]?.id] }] },
    }));

    const foreign = await ask(mine.api, {
      question: "When does the zeppelin fly?",
      conversationIds: theirs.ids,
    });
    expect(foreign.status, foreign.text).toBe(404);
    const mixed = await ask(mine.api, {
      question: "What about the budget?",
      conversationIds: [mine.ids[0], theirs.ids[0]],
    });
    expect(mixed.status, mixed.text).toBe(404);
    expect(questions()).toHaveLength(0);

    const zeppelin = await ask(mine.api, { question: "When does the zeppelin fly?" });
    expect(zeppelin.body).toEqual({ answer: [], sources: [], message: "Not found in your conversations." });
    // "budget" is in both apps' lines: only mine reach the model, and an answer citing theirs is dropped.
    const budget = await ask(mine.api, { question: "What about the zeppelin budget?" });
    expect(budget.body.answer).toEqual([]);
    const prompts = questions().map((request) => shownTo(request).prompt);
    expect(prompts).toHaveLength(1);
    expect(prompts.join("\n")).not.toMatch(/zeppelin flies|Secret plans|Eve/);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const { api, ids } = await appWith([{ name: "Budget review", lines: BUDGET_REVIEW }]);
    const refusals: [unknown, RegExp][] = [
      [{}, /question/],
      [{ question: "" }, /question/],
      [{ question: "   \n " }, /question/],
      [{ question: "x".repeat(1001) }, /question/],
      [{ question: 42 }, /question/],
      [{ question: "budget?", conversationIds: ids[0] }, /conversationIds/],
      [{ question: "budget?", conversationIds: [] }, /conversationIds/],
      [
        { question: "budget?", conversationIds: Array.from({ length: 51 }, (_, i) => String(i)) },
        /conversationIds/,
      ],
      [{ question: "budget?", conversationIds: [7] }, /conversationIds\[0\]/],
      [{ question: "budget?", extra: true }, /extra/],
      [{ question: "?!" }, /question must hold a word/],
    ];
    for (const [body, field] of refusals) {
      const refused = await ask(api, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((refused.body as unknown as { message: string }).message).toMatch(field);
    }
    expect(questions()).toHaveLength(0);

    const openapi = await apiClient(suite.server.url).get<{
      paths: Record<string, { post?: { responses?: Record<string, unknown> } }>;
    }>("/openapi.json");
    expect(Object.keys(openapi.body.paths["/v1/ask"]?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "400", "401", "404", "409", "503"]),
    );
  });
});

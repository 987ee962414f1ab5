import { describe, expect, it } from "vitest";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, LAUNCH_MEETING, onServer, timedLines } from "../helpers/factories.ts";
import { FOREIGN_MEETINGS } from "../helpers/languages.ts";
import { suiteServer } from "../helpers/suite.ts";

const START = "2026-11-02T10:00:00Z"; // a Monday
const toMessages = (rows: [string, string][], first = 0) => timedLines(rows, { start: START, first });

describe.each(await dialects())("analysis through the API on %s", (dialect) => {
  const suite = suiteServer(dialect);

  it("answers summary, topics and insights in Symbl's shapes, filtered by confidenceThreshold, and re-analyses appends", async () => {
    const { server, token } = suite;
    const get = async <T>(path: string) => (await suite.api.get<T>(path)).body;
    const { conversationId } = await server.ingest(token, {
      name: "Launch",
      confidenceThreshold: 0.7,
      messages: toMessages(LAUNCH_MEETING),
    });
    const base = `/v1/conversations/${conversationId}`;
    const { messages } = await get<Body.MessageList>(`${base}/messages`);
    const { members } = await get<Body.MemberList>(`${base}/members`);
    const dana = members.find((m) => m.name === "Dana");

    const { actionItems } = await get<Body.ActionItemList>(`${base}/action-items`);
    expect(actionItems.map((a) => a.text)).toEqual(["Dana will send the budget numbers by Friday."]);
    expect(actionItems[0]).toMatchObject({
      type: "action_item",
      messageIds: [messages[1]?.id],
      from: { id: dana?.id, name: "Dana" },
      assignee: { id: dana?.id, name: "Dana" },
      dueBy: "2026-11-06T00:00:00.000Z",
    });
    expect(actionItems[0]?.score).toBeGreaterThanOrEqual(0.7);

    const { questions } = await get<Body.QuestionList>(`${base}/questions`);
    expect(questions.map((q) => q.text)).toContain("What is the deadline for the marketing copy?");
    const { followUps } = await get<Body.FollowUpList>(`${base}/follow-ups`);
    expect(followUps[0]).toMatchObject({ from: { name: "Bob" }, messageIds: [messages[4]?.id] });

    // The summary leads with the outcome (the action item with its owner), then quotes in order.
    const { summary } = await get<Body.SummaryList>(`${base}/summary`);
    const outcome = summary.findIndex((item) => item.text === "Dana will send the budget numbers by Friday.");
    expect(outcome).toBeGreaterThanOrEqual(0);
    expect(summary[outcome]?.messageRefs).toEqual([{ id: messages[1]?.id }]);
    const quotes = summary.slice(outcome + 1);
    expect(quotes.length).toBeGreaterThan(0);
    expect(quotes.every((item) => /^\w+: /.test(item.text))).toBe(true);
    const positions = quotes.map((item) => messages.findIndex((m) => m.id === item.messageRefs[0]?.id));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);

    const { topics } = await get<Body.TopicList>(`${base}/topics`);
    expect(topics.length).toBeGreaterThan(0);
    expect(topics.every((t) => t.type === "topic" && t.text.length > 0)).toBe(true);
    expect(topics.map((t) => t.score)).toEqual([...topics.map((t) => t.score)].sort((a, b) => b - a));

    await server.ingest(
      token,
      {
        messages: toMessages(
          [["Eve", "Who is going to present the demo on Thursday?"]],
          LAUNCH_MEETING.length,
        ),
      },
      conversationId,
    );
    const after = await get<Body.QuestionList>(`${base}/questions`);
    expect(after.questions.find((q) => q.text.startsWith("Who is going to present"))?.from.name).toBe("Eve");
  });

  it("says so, in the API and on the page, when the conversation's language is one the analysis does not read (issue 24)", async () => {
    const { server, token } = suite;
    const get = async <T>(path: string) => (await suite.api.get<T>(path)).body;
    const english = await server.ingest(token, { name: "Launch", messages: toMessages(LAUNCH_MEETING) });
    expect(await get<Body.Conversation>(`/v1/conversations/${english.conversationId}`)).toMatchObject({
      languageCode: "en-US",
      analysis: { status: "analysed" },
    });

    const notice =
      "This conversation is in Spanish (es-ES). Recap's analysis reads English only, so it has no summary, topics or insights.";
    const spanish = FOREIGN_MEETINGS["es-ES"] ?? [];
    const { conversationId } = await server.ingest(token, {
      name: "Reunión",
      messages: toMessages(spanish.map((text, i) => [i % 2 === 0 ? "Ana" : "Luis", text])),
    });
    const base = `/v1/conversations/${conversationId}`;
    const conversation = await get<Body.Conversation>(base);
    expect(conversation.languageCode).toBe("es-ES");
    expect(conversation.analysis).toMatchObject({ status: "language_not_supported", notice });
    expect((await get<Body.SummaryList>(`${base}/summary`)).summary).toEqual([]);
    expect((await get<Body.TopicList>(`${base}/topics`)).topics).toEqual([]);
    expect((await get<Body.ActionItemList>(`${base}/action-items`)).actionItems).toEqual([]);
    expect((await get<Body.QuestionList>(`${base}/questions`)).questions).toEqual([]);

    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    const page = await (await fetch(onServer(server, link.url))).text();
    expect(page).toContain(notice.replace("'", "&#39;"));
    expect(page).not.toContain("The meeting was about");
    expect(page).toMatch(/<html lang="es-ES"/);
    const json = (await (await fetch(`${onServer(server, link.url)}/export.json`)).json()) as {
      analysisNotice?: string;
    };
    expect(json.analysisNotice).toBe(notice);
  });
});

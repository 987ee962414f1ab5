import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, editThroughLink, ingestMeeting } from "../helpers/factories.ts";
import { meetingFiles } from "../helpers/qmsum.ts";

type Insight = Body.Insight;
interface Analysis {
  summary: { text: string; messageIds: string[] }[];
  topics: { text: string; messageIds: string[] }[];
  insights: Insight[];
}

const INSIGHT_ROUTES = ["action-items", "follow-ups", "questions"] as const;

describe.each(await dialects())("re-analysis after edits made through a link on %s", (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  /** A real meeting, processed, with an editable link to it. */
  async function meetingWithLink(token: string) {
    const { conversationId } = await ingestMeeting(server, token, meetingFiles("val")[0] ?? "");
    const { url } = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    return { conversationId, linkPath: new URL(url).pathname };
  }

  const get = async <T>(token: string, path: string): Promise<T> => {
    const response = await apiClient(server.url, token).get<T>(path);
    expect(response.status, path).toBe(200);
    return response.body;
  };

  /** What the API says the analysis found: summary and topics with their lines, and the visible insights. */
  async function analysis(token: string, id: string): Promise<Analysis> {
    const base = `/v1/conversations/${id}`;
    const { summary } = await get<Body.SummaryList>(token, `${base}/summary`);
    const { topics } = await get<Body.TopicList>(token, `${base}/topics`);
    const insightLists = await Promise.all(
      INSIGHT_ROUTES.map(
        async (route) =>
          Object.values(await get<Record<string, Insight[]>>(token, `${base}/${route}`))[0] ?? [],
      ),
    );
    return {
      summary: summary.map((item) => ({
        text: item.text,
        messageIds: item.messageRefs.map((ref) => ref.id),
      })),
      topics: topics.map((topic) => ({ text: topic.text, messageIds: topic.messageIds })),
      insights: insightLists.flat(),
    };
  }

  async function edit(linkPath: string, path: string, body: unknown) {
    const response = await editThroughLink(server, server.url + linkPath, path, body);
    expect(response.status, path).toBe(200);
    return response.body;
  }

  /** Makes a line edit and waits for the re-analysis it started. */
  async function editLine(token: string, linkPath: string, messageId: string, body: unknown) {
    const { jobId } = await edit(linkPath, `/messages/${messageId}`, body);
    expect(jobId).toBeDefined();
    expect(await waitForJob(server, token, jobId ?? "")).toBe("completed");
  }

  const references = (result: Analysis, messageId: string) =>
    [...result.summary, ...result.topics, ...result.insights].some((item) =>
      item.messageIds.includes(messageId),
    );

  it("hiding a line takes it out of the summary, topics and insights; restoring it brings them back", async () => {
    const { token } = await server.newApp();
    const { conversationId, linkPath } = await meetingWithLink(token);
    const before = await analysis(token, conversationId);
    const { messages } = await get<Body.MessageList>(token, `/v1/conversations/${conversationId}/messages`);
    // A line the summary quotes, and that an insight rests on, if one does both.
    const quoted = new Set(before.summary.flatMap((item) => item.messageIds));
    const target =
      before.insights.flatMap((insight) => insight.messageIds).find((id) => quoted.has(id)) ?? [...quoted][0];
    const line = messages.find((message) => message.id === target);
    expect(line).toBeDefined();

    await editLine(token, linkPath, target ?? "", { hidden: true });
    const hidden = await analysis(token, conversationId);
    expect(hidden.summary.length).toBeGreaterThan(0);
    expect(references(hidden, target ?? "")).toBe(false);
    for (const item of hidden.summary) expect(item.text).not.toContain(line?.text);
    const { body: page } = await apiClient(server.url).get<Record<string, unknown>>(`${linkPath}.json`);
    expect(JSON.stringify(page)).not.toContain(line?.text);

    await editLine(token, linkPath, target ?? "", { hidden: false });
    const restored = await analysis(token, conversationId);
    expect(references(restored, target ?? "")).toBe(true);
    expect(restored.summary).toEqual(before.summary);
  });

  it("analyses a line's edited text, not the text it replaced", async () => {
    const { token } = await server.newApp();
    const { conversationId, linkPath } = await meetingWithLink(token);
    const before = await analysis(token, conversationId);
    // The opening overview names the chapters, quoting no line; every other item quotes its line.
    const isOverview = (item: { text: string }) => item.text.startsWith("The meeting was about");
    const lineId = before.summary.find((item) => !isOverview(item))?.messageIds[0] ?? "";
    const quoting = (result: Analysis) =>
      [...result.summary, ...result.insights]
        .filter((item) => !isOverview(item) && item.messageIds.includes(lineId))
        .map((item) => item.text);
    const oldQuotes = quoting(before);
    expect(oldQuotes.length).toBeGreaterThan(0);

    const rewritten = "Zephyrine will approve the quarterly budget for the remote control design by Friday.";
    await editLine(token, linkPath, lineId, { text: rewritten });
    const newQuotes = quoting(await analysis(token, conversationId));
    expect(newQuotes).toContain(rewritten);
    for (const quote of oldQuotes) expect(newQuotes).not.toContain(quote);
  });

  it("keeps an insight a viewer edited or dismissed when a re-analysis finds it again", async () => {
    const { token } = await server.newApp();
    const { conversationId, linkPath } = await meetingWithLink(token);
    const before = await analysis(token, conversationId);
    const [edited, dismissed] = before.insights;
    expect(dismissed).toBeDefined();
    await edit(linkPath, `/insights/${edited?.id}`, { text: "Viewer's own wording" });
    await edit(linkPath, `/insights/${dismissed?.id}`, { dismissed: true });

    // Hide a line no insight rests on, so the re-analysis finds the same insights again.
    const { messages } = await get<Body.MessageList>(token, `/v1/conversations/${conversationId}/messages`);
    const used = new Set(before.insights.flatMap((insight) => insight.messageIds));
    const unrelated = messages.find((message) => !used.has(message.id));
    await editLine(token, linkPath, unrelated?.id ?? "", { hidden: true });

    const after = await analysis(token, conversationId);
    expect(after.insights.find((insight) => insight.id === edited?.id)).toMatchObject({
      text: "Viewer's own wording",
      messageIds: edited?.messageIds,
    });
    expect(after.insights.some((insight) => insight.id === dismissed?.id)).toBe(false);
    expect(after.insights.map((insight) => insight.text)).not.toContain(dismissed?.text);
    const page = await (await fetch(`${server.url}${linkPath}`)).text();
    expect(page).toContain("Viewer&#39;s own wording");

    // It is the same insight, kept dismissed: undoing the dismissal brings back its original text.
    await edit(linkPath, `/insights/${dismissed?.id}`, { dismissed: false });
    expect((await analysis(token, conversationId)).insights).toContainEqual(
      expect.objectContaining({ id: dismissed?.id, text: dismissed?.text }),
    );
  });
});

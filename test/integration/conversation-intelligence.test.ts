import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { createLink, message, onServer, planningMeeting, timedLines } from "../helpers/factories.ts";
import { suiteServer } from "../helpers/suite.ts";

interface RawResponse {
  status: number;
  body: unknown;
}
type Callback = (error: (Error & { status?: number }) | null, data: unknown, response: RawResponse) => void;
interface SymblModule {
  ApiClient: new () => { basePath: string; authentications: { jwt: { apiKey?: string } } };
  ConversationsApi: new (client: unknown) => {
    getInsightsByConversationId(id: string, callback: Callback): void;
    getIntentsByConversationId(id: string, callback: Callback): void;
  };
  InsightsListResponse: unknown;
  IntentListResponse: unknown;
  ConversationInsightItem: new () => object;
  ConversationIntent: new () => object;
}

// Symbl's official client, as its users load it (CommonJS).
const symbl = createRequire(import.meta.url)("@symblai/api-client") as SymblModule;

function officialClient(url: string, token: string) {
  const client = new symbl.ApiClient();
  client.basePath = url;
  client.authentications.jwt.apiKey = token;
  const conversations = new symbl.ConversationsApi(client);
  const call = (run: (callback: Callback) => void) =>
    new Promise<unknown>((resolve, reject) => run((error, data) => (error ? reject(error) : resolve(data))));
  return {
    insights: (id: string) => call((cb) => conversations.getInsightsByConversationId(id, cb)),
    intents: (id: string) => call((cb) => conversations.getIntentsByConversationId(id, cb)),
  };
}

const READS = ["insights", "intents", "entities", "analytics"] as const;

describe.each(await dialects())("the rest of Symbl's conversation API on %s", (dialect) => {
  const suite = suiteServer(dialect);

  it("answers 404 for another app's conversation and 400 naming a bad id, on every route", async () => {
    const id = await planningMeeting(suite.server, suite.token);
    const other = apiClient(suite.server.url, (await suite.server.newApp()).token);
    for (const route of READS) {
      expect((await other.get(`/v1/conversations/${id}/${route}`)).status).toBe(404);
      const bad = await suite.api.get<Body.ErrorBody>(`/v1/conversations/${"9".repeat(65)}/${route}`);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain("conversationId");
    }
    const transcript = await other.post(`/v1/conversations/${id}/transcript`, { contentType: "text/srt" });
    expect(transcript.status).toBe(404);
    expect((await other.put(`/v1/conversations/${id}`, { name: "Mine now" })).status).toBe(404);
    expect((await suite.api.get<Body.Conversation>(`/v1/conversations/${id}`)).body.name).toBe(
      "Weekly planning",
    );
  });

  it("lists every insight in Symbl's {insights} shape, which the official client parses", async () => {
    const { conversationId: id } = await suite.server.ingest(suite.token, {
      messages: timedLines([
        ["Ann Lee", "What is the launch date for the new website?"],
        ["Bob Stone", "I will send the launch plan to the team by Friday."],
        ["Ann Lee", "Great, let's meet with the vendor next week to review it."],
      ]),
    });
    const all = await suite.api.get<Body.InsightList>(`/v1/conversations/${id}/insights`);
    expect(all.status).toBe(200);
    const byType = await Promise.all(
      ["action-items", "follow-ups", "questions"].map(async (route) => {
        const { body } = await suite.api.get<Record<string, Body.Insight[]>>(
          `/v1/conversations/${id}/${route}`,
        );
        return Object.values(body).flat();
      }),
    );
    const ids = (items: Body.Insight[]) => items.map((item) => item.id).sort();
    expect(ids(all.body.insights)).toEqual(ids(byType.flat()));
    expect(all.body.insights.map((item) => item.type)).toEqual(
      expect.arrayContaining(["action_item", "question"]),
    );

    const parsed = (await officialClient(suite.server.url, suite.token).insights(id)) as {
      insights: (object & { id: string; type: string; messageIds: string[] })[];
    };
    expect(parsed.insights).toHaveLength(all.body.insights.length);
    expect(parsed.insights[0]).toBeInstanceOf(symbl.ConversationInsightItem);
    expect(parsed.insights[0]).toMatchObject({
      id: all.body.insights[0]?.id,
      type: all.body.insights[0]?.type,
      messageIds: all.body.insights[0]?.messageIds,
    });
  });

  it("reads call intents from the lines that state them, which the official client parses", async () => {
    const { conversationId } = await suite.server.ingest(suite.token, {
      messages: [
        message("Hi, this is Sam from Northwind about your energy plan.", "Sam"),
        message("Honestly, I'm not interested, thanks.", "Kim"),
        message("Please take me off your calling list.", "Kim"),
      ],
    });
    const { body } = await suite.api.get<Body.IntentList>(`/v1/conversations/${conversationId}/intents`);
    expect(body.intents.map((intent) => [intent.text, intent.intent, intent.type])).toEqual([
      ["Honestly, I'm not interested, thanks.", "not_interested", "intent"],
      ["Please take me off your calling list.", "do_not_call", "intent"],
    ]);
    const parsed = (await officialClient(suite.server.url, suite.token).intents(conversationId)) as {
      intents: (object & { intent: string; messageIds: string[] })[];
    };
    expect(parsed.intents[0]).toBeInstanceOf(symbl.ConversationIntent);
    expect(parsed.intents.map((intent) => intent.intent)).toEqual(["not_interested", "do_not_call"]);
    expect(parsed.intents[1]?.messageIds).toEqual(body.intents[1]?.messageIds);
  });

  it("finds entities in the transcript with their normalised values and message ids", async () => {
    const { conversationId } = await suite.server.ingest(suite.token, {
      messages: timedLines([
        ["Ann Lee", "We spoke with Priya from Acme Inc., who will pay $2,500 by Friday."],
        ["Bob Stone", "Good, I'll tell the team in London tomorrow."],
      ]),
    });
    const [messages, entities] = await Promise.all([
      suite.api.get<Body.MessageList>(`/v1/conversations/${conversationId}/messages`),
      suite.api.get<Body.EntityList>(`/v1/conversations/${conversationId}/entities`),
    ]);
    const [first, second] = messages.body.messages.map((m) => m.id);
    const brief = entities.body.entities.map((e) => [e.type, e.text, e.value, e.messageIds]);
    // The meeting starts on Monday 2 November 2026.
    expect(brief).toEqual(
      expect.arrayContaining([
        ["person", "Priya", "Priya", [first]],
        ["organization", "Acme Inc.", "Acme Inc.", [first]],
        ["money", "$2,500", "2500", [first]],
        ["datetime", "Friday", "2026-11-06", [first]],
        ["location", "London", "London", [second]],
        ["datetime", "tomorrow", "2026-11-03", [second]],
      ]),
    );
  });

  it("computes speaker analytics from the lines' times, and leaves them out of an untimed conversation", async () => {
    const id = await planningMeeting(suite.server, suite.token);
    const { body } = await suite.api.get<Body.Analytics>(`/v1/conversations/${id}/analytics`);
    // Ann speaks 0–4 s and 5–9 s, Bob 10–14 s: 12 s of talk in 14 s, nobody at once.
    expect(body.metrics).toEqual([
      { type: "total_silence", percent: 14.286, seconds: 2 },
      { type: "total_talk_time", percent: 85.714, seconds: 12 },
      { type: "total_overlap", percent: 0, seconds: 0 },
    ]);
    expect(body.members.map((m) => [m.name, m.talkTime, m.listenTime, m.pace, m.words])).toEqual([
      ["Ann Lee", { percentage: 66.667, seconds: 8 }, { percentage: 33.333, seconds: 4 }, { wpm: 113 }, 15],
      ["Bob Stone", { percentage: 33.333, seconds: 4 }, { percentage: 66.667, seconds: 8 }, { wpm: 105 }, 7],
    ]);
    expect(body.members[0]?.longestMonologue).toMatchObject({ words: 15, seconds: 9 });

    const { conversationId } = await suite.server.ingest(suite.token, {
      messages: [message("Morning, all four of us are here.", "Ann"), message("Good.", "Bob")],
    });
    const untimed = await suite.api.get<Body.Analytics>(`/v1/conversations/${conversationId}/analytics`);
    expect(untimed.body.metrics).toEqual([]);
    expect(untimed.body.members.map((m) => [m.name, m.words, "talkTime" in m, "pace" in m])).toEqual([
      ["Ann", 7, false, false],
      ["Bob", 1, false, false],
    ]);
  });

  it("formats the transcript as the summary page's downloads do", async () => {
    const id = await planningMeeting(suite.server, suite.token);
    const link = await createLink(suite.server, suite.token, id, { name: "verbose-text-summary" });
    const download = async (format: string) =>
      (await fetch(onServer(suite.server, link.url).replace(/\?.*$/, "") + `/export.${format}`)).text();
    const formatted = async (body: Record<string, unknown>) => {
      const answer = await suite.api.post<Body.Transcript>(`/v1/conversations/${id}/transcript`, body);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.transcript.contentType).toBe(body.contentType);
      return answer.body.transcript.payload;
    };
    expect(await formatted({ contentType: "text/srt" })).toBe(await download("srt"));
    expect(await formatted({ contentType: "text/vtt" })).toBe(await download("vtt"));
    const markdown = await formatted({ contentType: "text/markdown" });
    expect(markdown).toContain("**Ann Lee** [0:05]: Bob, can you send the report by Friday?");
    expect(await download("md")).toContain(`## Transcript\n\n${markdown}`);
    expect(
      await formatted({ contentType: "text/markdown", showSpeakerSeparation: false, showTimestamps: false }),
    ).toBe(
      "Good morning, let's start with the budget.\n\nBob, can you send the report by Friday?\n\n" +
        "Sure, I will send the report tomorrow.\n",
    );
    expect(await formatted({ contentType: "text/srt", showSpeakerSeparation: false })).toContain(
      "1\n00:00:00,000 --> 00:00:04,000\nGood morning, let's start with the budget.\n",
    );
  });

  it("refuses a bad transcript request with a 400 naming the field, and captions of untimed lines with a 409", async () => {
    const id = await planningMeeting(suite.server, suite.token);
    const refusals: [unknown, string][] = [
      [{}, "contentType is required: one of: text/markdown, text/srt, text/vtt"],
      [{ contentType: "text/html" }, "contentType must be one of: text/markdown, text/srt, text/vtt"],
      [{ contentType: "text/srt", showSpeakerSeparation: "yes" }, "showSpeakerSeparation must be boolean"],
      [{ contentType: "text/srt", colour: "red" }, 'unknown property "colour"'],
    ];
    for (const [body, wording] of refusals) {
      const answer = await suite.api.post<Body.ErrorBody>(`/v1/conversations/${id}/transcript`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toContain(wording);
    }
    const { conversationId } = await suite.server.ingest(suite.token, {
      messages: [message("Hello.", "Ann")],
    });
    const untimed = await suite.api.post<Body.ErrorBody>(`/v1/conversations/${conversationId}/transcript`, {
      contentType: "text/vtt",
    });
    expect(untimed.status).toBe(409);
    expect(untimed.body.message).toContain("no times");
  });

  it("updates a conversation's name and metadata, and refuses anything else with a 400 naming the field", async () => {
    const id = await planningMeeting(suite.server, suite.token);
    const path = `/v1/conversations/${id}`;
    const updated = await suite.api.put<Body.ConversationUpdated>(path, {
      name: " Quarterly planning ",
      metadata: { team: "finance", round: 2 },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toEqual({ id, name: "Quarterly planning", metadata: { team: "finance", round: 2 } });
    const refusals: [unknown, string][] = [
      [{ type: "call" }, 'body has an unknown property "type"'],
      [{ name: 5 }, "name must be string"],
      [{ name: "   " }, "name must not be blank"],
      [{ metadata: ["a"] }, "metadata must be object"],
      [{}, "send name or metadata"],
    ];
    for (const [body, wording] of refusals) {
      const answer = await suite.api.put<Body.ErrorBody>(path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message).toContain(wording);
    }
    const stored = await suite.api.get<Body.Conversation>(path);
    expect(stored.body).toMatchObject({
      name: "Quarterly planning",
      metadata: { team: "finance", round: 2 },
    });
  });
});

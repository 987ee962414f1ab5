import { afterAll, describe, expect, it } from "vitest";
import { createAnalyzer } from "./pool.ts";
import { analyzeConversation } from "./analyze.ts";
import { findEntities } from "./entities.ts";
import { findIntents } from "./intents.ts";
import { speakerAnalytics } from "./speaker-analytics.ts";
import { detectTrackers } from "./trackers.ts";
import type { AnalysisInput } from "./types.ts";

const input: AnalysisInput = {
  conversationStartTime: "2024-01-03T09:00:00.000Z",
  messages: [
    {
      id: "3000000000000001",
      text: "OK , Bhaskara will do the big show on Friday .",
      memberId: "m1",
      speakerName: "Professor",
      startTime: null,
    },
    {
      id: "3000000000000002",
      text: "Are we gonna do it altogether or separately ?",
      memberId: "m2",
      speakerName: "Grad",
      startTime: null,
    },
  ],
};

describe("createAnalyzer", () => {
  const analyzer = createAnalyzer();
  afterAll(async () => {
    await analyzer.close();
  });

  it("runs the analysis in a worker thread and gives the same result as in-process", async () => {
    const result = await analyzer.analyze(input);
    expect(result).toEqual(analyzeConversation(input));
    expect(result.insights.map((i) => i.type)).toEqual(["action_item", "question"]);
  });

  it("finds entities in a worker thread, as findEntities does in-process", async () => {
    const entitiesInput = {
      lines: input.messages.map((m) => ({ id: m.id, text: m.text, reference: input.conversationStartTime })),
      knownNames: ["Bhaskara"],
    };
    const found = await analyzer.findEntities(entitiesInput);
    expect(found).toEqual(findEntities(entitiesInput.lines, entitiesInput.knownNames));
    expect(found.map((e) => [e.type, e.value])).toEqual(expect.arrayContaining([["person", "Bhaskara"]]));
  });

  it("matches trackers, finds intents and works out analytics in a worker thread, as in-process", async () => {
    const lines = [
      { id: "1", text: "Please take me off your calling list." },
      { id: "2", text: "We will do the big show on Friday." },
    ];
    const trackers = [{ id: "t", name: "Shows", vocabulary: ["big shows"] }];
    expect(await analyzer.detectTrackers({ trackers, lines, insights: [] })).toEqual(
      detectTrackers(trackers, lines, []),
    );
    expect(await analyzer.findIntents(lines)).toEqual(findIntents(lines));
    const analyticsInput = {
      members: [{ id: "m1", name: "Ann" }],
      lines: lines.map((line, i) => ({ ...line, memberId: "m1", start: i * 5, end: i * 5 + 4 })),
      conversationEnd: 10,
    };
    expect(await analyzer.speakerAnalytics(analyticsInput)).toEqual(speakerAnalytics(analyticsInput));
  });

  it("handles concurrent jobs", async () => {
    const results = await Promise.all([
      analyzer.analyze(input),
      analyzer.analyze(input),
      analyzer.analyze(input),
    ]);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
  });

  it("refuses work after close", async () => {
    const other = createAnalyzer({ threads: 1 });
    await other.close();
    await expect(other.analyze(input)).rejects.toThrow(/closed/);
  });
});

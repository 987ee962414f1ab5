import { describe, expect, it } from "vitest";
import { analyzeConversation, topicSegmentStarts } from "./analyze.ts";
import { DEFAULT_SEGMENTATION_OPTIONS } from "./segmentation.ts";
import { FOREIGN_MEETINGS } from "../../test/helpers/languages.ts";
import type { AnalysisInput } from "./types.ts";

/** Two clearly different discussions, from QMSum product meetings (ES2006a/IS1006b-like wording). */
const remoteTurns = [
  "So this is our project . What we're aiming to do is to create a new remote control for a television .",
  "We want the remote control to be original , trendy and user friendly , with big buttons .",
  "The buttons on the remote control should be few , and the remote control should have a menu button .",
  "I think the remote control needs a volume button , a channel button and a power button .",
  "Um {disfmarker} yeah .",
  "The remote control could have a display , so the buttons for teletext are not needed on the remote control .",
  "Users lose the remote control , so a beeper to find the remote control would help , and fewer buttons .",
  "Mm - hmm .",
  "A remote control with a scroll button and a menu button is easier than twenty buttons on the remote control .",
];
const batteryTurns = [
  "Now the batteries . The battery should last long , and a rechargeable battery costs more .",
  "A solar battery or a kinetic battery could charge the battery , but the battery price goes up .",
  "Yeah .",
  "We could use a docking station to charge the battery , and the battery charger sits on the table .",
  "The battery cover must be easy to open , and the battery should be a standard battery size .",
  "Lithium batteries are light but the battery costs are high , so a standard battery is cheaper .",
  "Dana will send the battery prices by Friday .",
  "Can you check by Monday whether the battery charger fits in the docking station ?",
  "I'll get back to you on the battery supplier next week .",
];

function conversation(turns: readonly string[]): AnalysisInput {
  return {
    conversationStartTime: "2024-01-03T09:00:00.000Z",
    messages: turns.map((text, i) => ({
      id: String(2_000_000_000_000_000 + i),
      text,
      memberId: i % 2 === 0 ? "member-pm" : "member-id",
      speakerName: i % 2 === 0 ? "Project Manager" : "Industrial Designer",
      startTime: null,
    })),
  };
}

const input = conversation([...remoteTurns, ...batteryTurns, ...remoteTurns, ...batteryTurns]);

describe("analyzeConversation", () => {
  it("only refers to input message ids", () => {
    const result = analyzeConversation(input);
    const ids = new Set(input.messages.map((m) => m.id));
    const referenced = [
      ...result.summary.flatMap((s) => s.messageIds),
      ...result.topics.flatMap((t) => t.messageIds),
      ...result.insights.flatMap((i) => i.messageIds),
    ];
    expect(referenced.length).toBeGreaterThan(0);
    for (const id of referenced) expect(ids.has(id)).toBe(true);
  });

  it("is deterministic", () => {
    expect(analyzeConversation(input)).toEqual(analyzeConversation(input));
  });

  it("summarises with the outcomes first, then quotes in conversation order, with cleaned text", () => {
    const { summary } = analyzeConversation(input);
    expect(summary.length).toBeGreaterThan(1);
    // After the overview line: the outcomes (no speaker label), then the attributed quotes.
    const quoted = summary.map((s) => /^[\p{L} ]+: /u.test(s.text));
    const firstQuote = quoted.indexOf(true);
    expect(firstQuote).toBeGreaterThan(0);
    expect(quoted.slice(firstQuote).every(Boolean)).toBe(true);
    const quotes = summary.slice(firstQuote);
    const positions = quotes.map((s) => input.messages.findIndex((m) => m.id === s.messageIds[0]));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const item of summary) expect(item.text).not.toMatch(/\{|\bum\b|\s[,.?]/i);
  });

  it("finds the remote-control and battery topics, labelled with key phrases, by score", () => {
    const { topics } = analyzeConversation(input);
    const labels = topics.map((t) => t.text);
    expect(labels.some((l) => /remote control|button/.test(l))).toBe(true);
    expect(labels.some((l) => /batter/.test(l))).toBe(true);
    const scores = topics.map((t) => t.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0);
  });

  it("segments at the change of subject", () => {
    const starts = topicSegmentStarts(input, {
      ...DEFAULT_SEGMENTATION_OPTIONS,
      scales: [
        { termsPerUnit: 8, blockUnits: 3, smoothing: 1 },
        { termsPerUnit: 4, blockUnits: 2, smoothing: 0 },
      ],
      baseChapters: 4,
      chaptersPerLogSpeaker: 0,
      minChapterTerms: 20,
      // Lexical cohesion only: the learned weights are for meetings of hundreds of lines.
      weights: [1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
    });
    expect(starts[0]).toBe(0);
    // A boundary within two messages of each change: battery (9), remote (18), battery (27).
    for (const change of [9, 18, 27]) expect(starts.some((s) => Math.abs(s - change) <= 2)).toBe(true);
  });

  it("reports action items, follow-ups and questions with their speaker", () => {
    const { insights } = analyzeConversation(input);
    const dana = insights.find((i) => i.text.startsWith("Dana will send"));
    expect(dana).toMatchObject({
      type: "action_item",
      assigneeName: "Dana",
      assigneeMemberId: null,
      dueBy: "2024-01-05T00:00:00.000Z",
    });
    const followUp = insights.find((i) => i.type === "follow_up");
    const said = input.messages.find((m) => m.id === followUp?.messageIds[0]);
    expect(said?.text).toMatch(/^I'll get back to you/);
    expect(followUp?.assigneeName).toBe(said?.speakerName);
    expect(followUp?.memberId).toBe(said?.memberId);
    expect(followUp?.assigneeMemberId).toBe(said?.memberId);
    expect(insights.some((i) => i.type === "action_item" && i.text.startsWith("Can you check"))).toBe(true);
    for (const insight of insights) {
      expect(insight.score).toBeGreaterThan(0);
      expect(insight.score).toBeLessThanOrEqual(1);
    }
  });

  it("quotes names and words of other scripts whole, in the summary and the insights (issue 24)", () => {
    const said = "Soós will send the budget to the São Paulo office by Friday.";
    const result = analyzeConversation(
      conversation([said, "Đorđe and Łukasz will visit the factory with Иван next week."]),
    );
    expect(result.summary.map((s) => s.text)).toEqual([
      said,
      "Industrial Designer: Đorđe and Łukasz will visit the factory with Иван next week.",
    ]);
    expect(result.insights.find((i) => i.type === "action_item")).toMatchObject({
      text: said,
      assigneeName: "Soós",
    });
  });

  it("makes no English summary, topics or insights of a conversation in another language (issue 24)", () => {
    for (const [languageCode, lines] of Object.entries(FOREIGN_MEETINGS)) {
      expect(analyzeConversation(conversation(lines))).toEqual({
        languageCode,
        summary: [],
        decisions: [],
        topics: [],
        insights: [],
      });
    }
    expect(analyzeConversation(input).languageCode).toBe("en-US");
  });

  it("takes a given language over the one its lines read as", () => {
    const english = analyzeConversation({ ...conversation(batteryTurns), languageCode: "en-GB" });
    expect(english.languageCode).toBe("en-GB");
    expect(english.summary.length).toBeGreaterThan(0);
    const spanish = { ...conversation(FOREIGN_MEETINGS["es-ES"] ?? []), languageCode: "es-MX" };
    expect(analyzeConversation(spanish)).toMatchObject({ languageCode: "es-MX", summary: [] });
    const tagged = { ...conversation(batteryTurns), languageCode: "es-ES" };
    expect(analyzeConversation(tagged)).toMatchObject({ languageCode: "es-ES", summary: [], insights: [] });
  });

  it("handles an empty conversation and a one-line chat", () => {
    expect(analyzeConversation(conversation([]))).toEqual({
      languageCode: "en-US",
      summary: [],
      decisions: [],
      topics: [],
      insights: [],
    });
    const chat = analyzeConversation(conversation(["Dana will send the budget by Friday."]));
    expect(chat.summary.map((s) => s.text)).toEqual(["Dana will send the budget by Friday."]);
    expect(chat.topics).toHaveLength(1);
  });
});

import { describe, expect, it } from "vitest";
import { sentencesOf } from "./analyze.ts";
import { FEATURE_NAMES } from "./summary-features.ts";
import {
  DEFAULT_SUMMARY_OPTIONS,
  overviewItem,
  selectSummarySentences,
  summaryItems,
  summaryParts,
} from "./summary.ts";
import type { AnalysisInput, InsightItem, TopicItem } from "./types.ts";

// Turns from ES2002a (QMSum train), where "remote control" is the repeated phrase, and a last
// descriptive one written for the test: determiners, prepositions and the key phrase, no "I" or "you".
const TURNS = [
  { speaker: "Project Manager", text: "I'm Laura and I'm the project manager ." },
  { speaker: "Marketing", text: "Well for a remote control , do you think that will be {disfmarker}" },
  { speaker: "User Interface", text: "I suppose it's depends on how complicated our remote control is ." },
  { speaker: "Project Manager", text: "Like how much does , you know , a remote control cost ?" },
  {
    speaker: "Project Manager",
    text: "We're designing a new remote control and I have to record who's here actually .",
  },
  {
    speaker: "Industrial Designer",
    text: "The price of the remote control depends on the number of buttons on the case .",
  },
];
const sentences = sentencesOf(TURNS.map((t) => t.text));
const input: AnalysisInput = {
  conversationStartTime: "2026-11-02T15:00:00.000Z",
  messages: TURNS.map((t, i) => ({
    id: `m${i}`,
    text: t.text,
    memberId: null,
    speakerName: t.speaker,
    startTime: null,
  })),
};

/** Weights that score sentences by one feature only. */
function only(feature: (typeof FEATURE_NAMES)[number]): number[] {
  return FEATURE_NAMES.map((name) => (name === feature ? 1 : 0));
}

describe("selectSummarySentences", () => {
  it("picks by the learned weights: the descriptive sentence on the meeting's subject wins", () => {
    const picked = selectSummarySentences(sentences, { ...DEFAULT_SUMMARY_OPTIONS, wordBudget: 8 });
    expect(picked.map((p) => p.text)).toEqual([
      "The price of the remote control depends on the number of buttons on the case.",
    ]);
  });

  it("scores with the weights it is given", () => {
    const asked = {
      ...DEFAULT_SUMMARY_OPTIONS,
      wordBudget: 6,
      weights: only("question"),
      statementsOnly: false,
    };
    expect(selectSummarySentences(sentences, asked).map((p) => p.text)).toEqual([
      "How much does a remote control cost?",
    ]);
    const early = { ...DEFAULT_SUMMARY_OPTIONS, wordBudget: 6, weights: only("early") };
    expect(selectSummarySentences(sentences, early).map((p) => p.text)).toEqual([
      "I'm Laura and I'm the project manager.",
    ]);
  });
});

function chapter(text: string, messageIds: string[], score: number): TopicItem {
  return { kind: "chapter", text, score, messageIds };
}

describe("overviewItem", () => {
  const ids = ["a", "b", "c", "d", "e", "f"];

  it("names the chapters in meeting order and links each chapter's first line", () => {
    const topics: TopicItem[] = [
      chapter("budget", ["c", "d"], 1),
      chapter("remote control", ["a", "b"], 0.8),
      chapter("TCL", ["e", "f"], 0.5),
    ];
    expect(overviewItem(topics, ids)).toEqual({
      text: "The meeting was about the remote control, the budget and TCL.",
      messageIds: ["a", "c", "e"],
    });
  });

  it("places a key-phrase topic of a one-chapter meeting at its first mention", () => {
    const topics: TopicItem[] = [
      chapter("remote control", ["a", "b", "c", "d", "e", "f"], 1),
      { kind: "phrase", text: "speech recognition", score: 0.8, messageIds: ["d", "f"] },
      { kind: "phrase", text: "budget", score: 0.5, messageIds: ["b", "e"] },
    ];
    expect(overviewItem(topics, ids)).toEqual({
      text: "The meeting was about the remote control, the budget and the speech recognition.",
      messageIds: ["a", "b", "d"],
    });
  });

  it("says nothing with fewer than two titled topics", () => {
    expect(overviewItem([chapter("budget", ["a", "b", "c"], 1)], ids)).toBeNull();
    expect(
      overviewItem([chapter("budget", ["a", "b"], 1), chapter("general discussion", ["c", "d"], 0.5)], ids),
    ).toBeNull();
  });
});

describe("summaryItems", () => {
  it("opens with the overview, then attributes each sentence to its speaker and links its line", () => {
    const topics = [
      chapter("remote control", ["m0", "m1", "m2"], 1),
      chapter("price", ["m3", "m4", "m5"], 0.5),
    ];
    const items = summaryItems(input, sentences, topics, [], { ...DEFAULT_SUMMARY_OPTIONS, wordBudget: 8 });
    expect(items).toEqual([
      { text: "The meeting was about the remote control and the price.", messageIds: ["m0", "m3"] },
      {
        text: "Industrial Designer: The price of the remote control depends on the number of buttons on the case.",
        messageIds: ["m5"],
      },
    ]);
  });

  it("leaves a sentence without a known speaker unattributed", () => {
    const anonymous = { ...input, messages: input.messages.map((m) => ({ ...m, speakerName: null })) };
    const items = summaryItems(anonymous, sentences, [], [], { ...DEFAULT_SUMMARY_OPTIONS, wordBudget: 8 });
    expect(items.map((i) => i.text)).toEqual([
      "The price of the remote control depends on the number of buttons on the case.",
    ]);
  });
});

// A meeting written for these tests: a question, a fragment, a cut-off sentence and two whole
// statements, all on the subject of the venue; and an action item its speaker commits to.
const PLANNING = [
  { speaker: "Dana", text: "Which venue should we book for the spring conference in Lisbon ?" },
  { speaker: "Omar", text: "Because the venue in Lisbon near the river holds the whole conference ." },
  {
    speaker: "Dana",
    text: "The venue near the river costs less than the hotel venue for the conference and the",
  },
  { speaker: "Omar", text: "The conference venue near the river has a hall for four hundred people ." },
  { speaker: "Dana", text: "I'll send the venue contract to the lawyers by Friday ." },
  { speaker: "Omar", text: "The venue near the river also offers catering for the whole conference ." },
];
const planning: AnalysisInput = {
  conversationStartTime: "2026-11-02T15:00:00.000Z",
  messages: PLANNING.map((t, i) => ({
    id: `p${i}`,
    text: t.text,
    memberId: null,
    speakerName: t.speaker,
    startTime: null,
  })),
};
const planningSentences = sentencesOf(PLANNING.map((t) => t.text));
const contract: InsightItem = {
  type: "action_item",
  text: "I'll send the venue contract to the lawyers by Friday.",
  score: 0.9,
  messageIds: ["p4"],
  memberId: null,
  assigneeName: "Dana",
  assigneeMemberId: null,
  dueBy: null,
};

describe("summary statements", () => {
  it("picks no question, fragment or cut-off sentence, however the weights rank them", () => {
    for (const feature of ["question", "early", "centrality", "length"] as const) {
      const options = { ...DEFAULT_SUMMARY_OPTIONS, wordBudget: 200, weights: only(feature) };
      expect(selectSummarySentences(planningSentences, options).map((p) => p.sentence.messageIndex)).toEqual([
        3, 4, 5,
      ]);
    }
  });

  it("picks them when told not to keep to statements", () => {
    const options = { ...DEFAULT_SUMMARY_OPTIONS, wordBudget: 200, statementsOnly: false };
    const picked = selectSummarySentences(planningSentences, options).map((p) => p.text);
    expect(picked).toContain("Which venue should we book for the spring conference in Lisbon?");
  });
});

describe("summary outcomes", () => {
  it("opens with the action item stated with its owner and linked to its line, then the quotes", () => {
    const items = summaryItems(planning, planningSentences, [], [contract], {
      ...DEFAULT_SUMMARY_OPTIONS,
      wordBudget: 25,
    });
    expect(items[0]).toEqual({
      text: "Dana will send the venue contract to the lawyers by Friday.",
      messageIds: ["p4"],
    });
    expect(items.length).toBeGreaterThan(1);
    for (const item of items.slice(1)) {
      expect(item.text).toMatch(/^Omar: The (conference )?venue near the river/);
      expect(item.messageIds).toHaveLength(1);
      expect(item.messageIds[0]).not.toBe("p4");
    }
  });

  it("keeps the outcomes and quotes within the word budget together", () => {
    const parts = summaryParts(planning, planningSentences, [], [contract], {
      ...DEFAULT_SUMMARY_OPTIONS,
      wordBudget: 25,
    });
    const words = [...parts.outcomes, ...parts.quotes]
      .map((item) => item.text.split(" ").length)
      .reduce((a, b) => a + b, 0);
    expect(parts.outcomes).toHaveLength(1);
    expect(parts.quotes.length).toBeGreaterThan(0);
    expect(words).toBeLessThanOrEqual(25 * 1.25);
  });

  it("leads with no action item that has no owner, asks, or names its object only as 'it'", () => {
    const unowned = { ...contract, assigneeName: null };
    const asked = { ...contract, text: "Could you send the venue contract to the lawyers?" };
    const vague = { ...contract, text: "I will take a closer look at it." };
    const question = { ...contract, type: "question" as const };
    const parts = summaryParts(planning, planningSentences, [], [unowned, asked, vague, question]);
    expect(parts.outcomes).toEqual([]);
  });

  it("leads with none when told so", () => {
    const parts = summaryParts(planning, planningSentences, [], [contract], {
      ...DEFAULT_SUMMARY_OPTIONS,
      maxOutcomes: 0,
    });
    expect(parts.outcomes).toEqual([]);
  });
});

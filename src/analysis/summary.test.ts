import { describe, expect, it } from "vitest";
import { sentencesOf } from "./analyze.ts";
import { FEATURE_NAMES } from "./summary-features.ts";
import { DEFAULT_SUMMARY_OPTIONS, overviewItem, selectSummarySentences, summaryItems } from "./summary.ts";
import type { AnalysisInput, TopicItem } from "./types.ts";

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
    const asked = { ...DEFAULT_SUMMARY_OPTIONS, wordBudget: 6, weights: only("question") };
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
    const items = summaryItems(input, sentences, topics, { ...DEFAULT_SUMMARY_OPTIONS, wordBudget: 8 });
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
    const items = summaryItems(anonymous, sentences, [], { ...DEFAULT_SUMMARY_OPTIONS, wordBudget: 8 });
    expect(items.map((i) => i.text)).toEqual([
      "The price of the remote control depends on the number of buttons on the case.",
    ]);
  });
});

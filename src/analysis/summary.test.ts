import { describe, expect, it } from "vitest";
import { sentencesOf } from "./analyze.ts";
import { DEFAULT_SUMMARY_OPTIONS, selectSummarySentences } from "./summary.ts";

describe("selectSummarySentences", () => {
  // Turns from ES2002a (QMSum train): "remote control" is the meeting's repeated phrase.
  const sentences = sentencesOf([
    "I'm Laura and I'm the project manager .",
    "Well for a remote control , do you think that will be {disfmarker}",
    "I suppose it's depends on how complicated our remote control is .",
    "Like how much does , you know , a remote control cost .",
    "We're designing a new remote control and I have to record who's here actually .",
  ]);
  const onlyPhrases = {
    ...DEFAULT_SUMMARY_OPTIONS,
    wordBudget: 8,
    centrality: 0,
    keywords: 0,
    position: 0,
    cues: 0,
    phrases: 1,
  };

  it("favours sentences with the meeting's repeated multi-word phrase", () => {
    const picked = selectSummarySentences(sentences, onlyPhrases);
    expect(picked).toHaveLength(1);
    expect(picked[0]?.text).toContain("remote control");
  });

  it("without the phrase weight, ties go to the earliest sentence", () => {
    const picked = selectSummarySentences(sentences, { ...onlyPhrases, phrases: 0 });
    expect(picked.map((p) => p.text)).toEqual(["I'm Laura and I'm the project manager."]);
  });
});

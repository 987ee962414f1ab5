import { describe, expect, it } from "vitest";
import { cleanTranscriptText } from "./clean.ts";
import { splitSentences } from "./nlp.ts";
import { compressSentence, DEFAULT_SUMMARY_OPTIONS, selectSummarySentences } from "./summary.ts";

describe("compressSentence", () => {
  it("drops spoken hedges inside a sentence (ES2002b, QMSum train)", () => {
    expect(
      compressSentence(
        "I think one thing we should try not to avoid is not to say we have to use speech recognition right now,",
      ),
    ).toBe("One thing we should try not to avoid is not to say we have to use speech recognition right now,");
    expect(compressSentence("We're kind of like sorting them, you know, by function.")).toBe(
      "We're like sorting them by function.",
    );
  });

  it("keeps 'like' as a verb and text that is nothing but hedges", () => {
    expect(compressSentence("I like the idea of a spongy remote.")).toBe(
      "I like the idea of a spongy remote.",
    );
    expect(compressSentence("You know")).toBe("You know");
  });
});

describe("selectSummarySentences", () => {
  // Turns from ES2002a (QMSum train): "remote control" is the meeting's repeated phrase.
  const sentences = splitSentences(
    [
      "I'm Laura and I'm the project manager .",
      "Well for a remote control , do you think that will be {disfmarker}",
      "I suppose it's depends on how complicated our remote control is .",
      "Like how much does , you know , a remote control cost .",
      "We're designing a new remote control and I have to record who's here actually .",
    ].map(cleanTranscriptText),
  );
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

import { describe, expect, it } from "vitest";
import { rouge, rougeLsum, rougeSentences, rougeTokens, stemmedTokens, truncateWords } from "./rouge.ts";

describe("rouge", () => {
  it("tokenises like rouge-score: lowercase, alphanumeric runs", () => {
    expect(rougeTokens("The TV remote-control costs 25 Euro!")).toEqual([
      "the",
      "tv",
      "remote",
      "control",
      "costs",
      "25",
      "euro",
    ]);
  });

  it("scores identical texts 1 and disjoint texts 0", () => {
    expect(rouge("the team discussed the battery", "the team discussed the battery")).toEqual({
      rouge1: 1,
      rouge2: 1,
      rougeL: 1,
    });
    expect(rouge("alpha beta", "gamma delta")).toEqual({ rouge1: 0, rouge2: 0, rougeL: 0 });
  });

  it("matches hand-computed F1 values", () => {
    // candidate 4 tokens, reference 5; unigram overlap 3, bigram overlap 1 (the cat), LCS 3.
    const scores = rouge("the cat sat down", "the cat lay down here");
    expect(scores.rouge1).toBeCloseTo((2 * (3 / 4) * (3 / 5)) / (3 / 4 + 3 / 5), 10);
    expect(scores.rouge2).toBeCloseTo((2 * (1 / 3) * (1 / 4)) / (1 / 3 + 1 / 4), 10);
    expect(scores.rougeL).toBeCloseTo(scores.rouge1, 10);
  });

  it("truncates to a word count in rouge tokens", () => {
    expect(truncateWords("Okay, so this is our project.", 3)).toBe("okay so this");
  });

  it("computes summary-level ROUGE-L as in Lin (2004, p. 5): the union of LCS hits per reference sentence", () => {
    // Reference w1 w2 w3 w4 w5; candidate sentences give LCS {w1 w2} and {w1 w3 w5}: 4 hits, R 4/5, P 4/10.
    const f = rougeLsum(["w1 w2 w6 w7 w8", "w1 w3 w8 w9 w5"], ["w1 w2 w3 w4 w5"]);
    expect(f).toBeCloseTo((2 * 0.8 * 0.4) / 1.2, 10);
  });

  it("stems tokens longer than three characters with Porter's algorithm", () => {
    expect(stemmedTokens("The designers discussed buttons")).toEqual(["the", "design", "discuss", "button"]);
    expect(rougeLsum(["The team discussed buttons."], ["The teams discuss the button."])).toBeGreaterThan(
      rouge("The team discussed buttons.", "The teams discuss the button.").rougeL,
    );
  });

  it("splits a text into sentences after terminal punctuation", () => {
    expect(rougeSentences("They met. Was it good? Yes!  Done")).toEqual([
      "They met.",
      "Was it good?",
      "Yes!",
      "Done",
    ]);
  });
});

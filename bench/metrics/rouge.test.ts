import { describe, expect, it } from "vitest";
import { rouge, rougeTokens, truncateWords } from "./rouge.ts";

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
});

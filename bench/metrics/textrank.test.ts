import { describe, expect, it } from "vitest";
import { textRankScores } from "./textrank.ts";

describe("textRankScores", () => {
  it("ranks the sentence that shares words with the others highest", () => {
    const scores = textRankScores([
      ["remote", "control", "button"],
      ["remote", "control", "price", "euro"],
      ["remote", "control", "battery", "button"],
      ["lunch", "break"],
    ]);
    const best = scores.indexOf(Math.max(...scores));
    expect([0, 1, 2]).toContain(best);
    expect(scores[3]).toBeLessThan(Math.min(scores[0] ?? 0, scores[1] ?? 0, scores[2] ?? 0));
    expect(scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 1);
  });

  it("handles no sentences", () => {
    expect(textRankScores([])).toEqual([]);
  });
});

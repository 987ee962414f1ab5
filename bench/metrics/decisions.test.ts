import { describe, expect, it } from "vitest";
import { addCounts } from "./counts.ts";
import {
  decisionPrecision,
  decisionRecall,
  NO_DECISION_COUNTS,
  outcomePrecision,
  scoreDecisions,
} from "./decisions.ts";

describe("scoreDecisions", () => {
  it("counts a prediction correct only when every line it cites is inside one span", () => {
    const counts = scoreDecisions(
      [[12], [19, 20], [40], [31, 32]],
      [
        [10, 20],
        [30, 31],
      ],
      [[35, 45]],
    );
    // [12] inside [10,20]; [19,20] inside; [40] only inside the outcome span; [31,32] straddles [30,31]'s end.
    expect(counts).toEqual({ predicted: 4, correct: 2, correctWithOutcomes: 3, spans: 2, hit: 1 });
    expect(decisionPrecision(counts)).toBe(0.5);
    expect(outcomePrecision(counts)).toBe(0.75);
    expect(decisionRecall(counts)).toBe(0.5);
  });

  it("counts a span once however many predictions fall in it", () => {
    expect(scoreDecisions([[1], [2], [3]], [[0, 5]])).toEqual({
      predicted: 3,
      correct: 3,
      correctWithOutcomes: 3,
      spans: 1,
      hit: 1,
    });
  });

  it("adds counts and treats empty sides as perfect rather than dividing by zero", () => {
    const total = addCounts(scoreDecisions([], [[0, 1]]), scoreDecisions([[7]], []));
    expect(total).toEqual({ predicted: 1, correct: 0, correctWithOutcomes: 0, spans: 1, hit: 0 });
    expect(decisionPrecision(NO_DECISION_COUNTS)).toBe(1);
    expect(decisionRecall(NO_DECISION_COUNTS)).toBe(1);
  });
});

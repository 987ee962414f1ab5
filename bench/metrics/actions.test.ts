import { describe, expect, it } from "vitest";
import { precision, precisionWithoutNeutral, recall, scoreActions, type GoldAction } from "./actions.ts";

const item = (turn: number, confidence: GoldAction["confidence"], alsoAt: number[] = []): GoldAction => ({
  turn,
  alsoAt,
  quote: "",
  task: "",
  assignee: "group",
  due: null,
  type: "action_item",
  confidence,
});

describe("action-item scoring", () => {
  const gold = [item(10, "clear", [4]), item(10, "clear"), item(20, "borderline"), item(30, "clear")];

  it("matches a detection on a gold turn or one of its alsoAt turns, and recalls every item on that turn", () => {
    const counts = scoreActions(
      [
        { turn: 4, type: "action_item" },
        { turn: 50, type: "action_item" },
      ],
      gold,
      "clear",
    );
    expect(counts).toMatchObject({ matchedDetections: 1, detections: 2, matchedGold: 1, gold: 3 });
    expect(precision(counts)).toBe(0.5);
    expect(recall(counts)).toBeCloseTo(1 / 3, 10);
  });

  it("counts several detections on one turn once", () => {
    const counts = scoreActions(
      [
        { turn: 10, type: "action_item" },
        { turn: 10, type: "follow_up" },
      ],
      gold,
      "clear",
    );
    expect(counts).toMatchObject({
      matchedDetections: 1,
      detections: 1,
      matchedGold: 2,
      pairs: 2,
      sameType: 2,
    });
  });

  it("treats a detection on a borderline item as neutral under clear-only and as a match under all", () => {
    const detections = [{ turn: 20, type: "follow_up" as const }];
    const clear = scoreActions(detections, gold, "clear");
    expect(clear).toMatchObject({ matchedDetections: 0, neutralDetections: 1 });
    expect(precision(clear)).toBe(0);
    expect(precisionWithoutNeutral(clear)).toBe(0);
    const all = scoreActions(detections, gold, "all");
    expect(all).toMatchObject({ matchedDetections: 1, gold: 4, pairs: 1, sameType: 0 });
  });
});

import { describe, expect, it } from "vitest";
import { fixedWindows, pk, segmentIds, standardWindow, startsFromLabels, windowDiff } from "./segeval.ts";

describe("segmentation metrics", () => {
  it("turns labels into segment starts and back", () => {
    expect(startsFromLabels([0, 0, 1, 1, 1, 0])).toEqual([0, 2, 5]);
    expect(segmentIds([0, 2, 5], 6)).toEqual([0, 0, 1, 1, 1, 2]);
  });

  it("is 0 for a perfect segmentation and positive for a wrong one", () => {
    const reference = [0, 10, 20];
    expect(pk(reference, reference, 30, 5)).toBe(0);
    expect(windowDiff(reference, reference, 30, 5)).toBe(0);
    expect(pk(reference, [0], 30, 5)).toBeCloseTo(10 / 25, 10);
    expect(windowDiff(reference, [0, 15], 30, 5)).toBeGreaterThan(0);
  });

  it("penalises a near miss less than a far miss", () => {
    const reference = [0, 50];
    expect(pk(reference, [0, 52], 100, 10)).toBeLessThan(pk(reference, [0, 80], 100, 10));
  });

  it("uses half the mean reference segment length as k", () => {
    expect(standardWindow([0, 10, 20], 30)).toBe(5);
  });

  it("makes equal windows", () => {
    expect(fixedWindows(3, 30)).toEqual([0, 10, 20]);
    expect(fixedWindows(1, 30)).toEqual([0]);
  });
});

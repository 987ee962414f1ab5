import { describe, expect, it } from "vitest";
import { sentencesOf } from "./analyze.ts";
import {
  BOUNDARY_FEATURES,
  chapterCount,
  chooseStarts,
  segmentBoundaries,
  type SegmentationOptions,
} from "./segmentation.ts";

// Wording from QMSum product meetings (ES2006a, IS1006b): a remote-control discussion, then batteries.
const remote = [
  "We want the remote control to be original , trendy and user friendly , with big buttons .",
  "The buttons on the remote control should be few , and the remote control should have a menu button .",
  "I think the remote control needs a volume button , a channel button and a power button .",
  "The remote control could have a display , so the teletext buttons are not needed on the remote control .",
  "Users lose the remote control , so a beeper to find the remote control would help , with fewer buttons .",
  "A remote control with a scroll button and a menu button is easier than twenty buttons on the remote control .",
];
const battery = [
  "The battery should last long , and a rechargeable battery costs more than a standard battery .",
  "A solar battery or a kinetic battery could charge the battery , but the battery price goes up .",
  "We could use a docking station to charge the battery , and the battery charger sits on the table .",
  "The battery cover must be easy to open , and the battery should be a standard battery size .",
  "Lithium batteries are light but battery costs are high , so a standard battery is cheaper .",
  "The battery supplier sends battery prices , and the charger needs a battery slot in the docking station .",
];

/** Small units so that a few dozen turns give enough blocks; two chapters unless a test says otherwise. */
const small: SegmentationOptions = {
  scales: [
    { termsPerUnit: 8, blockUnits: 3, smoothing: 1 },
    { termsPerUnit: 4, blockUnits: 2, smoothing: 0 },
  ],
  // Lexical depth at both scales only; each test turns on what it is about.
  weights: [1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
  baseChapters: 2,
  chaptersPerLogSpeaker: 0,
  maxChapters: 8,
  minChapterTerms: 50,
  separation: 0.2,
};
const only = (feature: (typeof BOUNDARY_FEATURES)[number], weight = 1): readonly number[] =>
  BOUNDARY_FEATURES.map((f) => (f === feature ? weight : 0));

const bySpeaker = (turns: readonly string[]) => turns.map((_, i) => (i % 2 === 0 ? "pm" : "id"));

describe("segmentBoundaries", () => {
  it("starts a chapter where the subject changes", () => {
    const turns = [...remote, ...remote, ...battery, ...battery];
    const starts = segmentBoundaries(sentencesOf(turns), bySpeaker(turns), small);
    expect(starts).toHaveLength(2);
    expect(Math.abs((starts[1] ?? 0) - 12)).toBeLessThanOrEqual(1);
  });

  it("finds each change of subject when the conversation has three parts", () => {
    const turns = [...remote, ...remote, ...battery, ...battery, ...remote, ...remote];
    const starts = segmentBoundaries(sentencesOf(turns), bySpeaker(turns), { ...small, baseChapters: 3 });
    expect(starts).toHaveLength(3);
    expect(Math.abs((starts[1] ?? 0) - 12)).toBeLessThanOrEqual(1);
    expect(Math.abs((starts[2] ?? 0) - 24)).toBeLessThanOrEqual(1);
  });

  it("starts the chapter at the line that moves the meeting on", () => {
    const turns = [
      ...remote,
      ...remote,
      "Yeah .",
      "Mm - hmm .",
      "That's it for the remote control buttons , so let's move on .",
      ...battery,
      ...battery,
    ];
    const speakers = bySpeaker(turns);
    const cued = segmentBoundaries(sentencesOf(turns), speakers, { ...small, weights: only("movesOn") });
    expect(cued).toEqual([0, 14]);
  });

  it("finds a change of speaker where the words alone are too alike", () => {
    // One subject, but the first half is one person's report and the second half another's.
    const turns = [...remote, ...remote, ...remote, ...remote];
    const speakers = turns.map((_, i) => (i < 12 ? "grad" : "postdoc"));
    const starts = segmentBoundaries(sentencesOf(turns), speakers, {
      ...small,
      weights: only("speakerDepthFine"),
    });
    expect(starts).toHaveLength(2);
    expect(Math.abs((starts[1] ?? 0) - 12)).toBeLessThanOrEqual(1);
  });

  it("gives no chapter for no messages and one for a short chat", () => {
    expect(segmentBoundaries([], [], small)).toEqual([]);
    expect(segmentBoundaries(sentencesOf(remote.slice(0, 2)), ["a", "b"], small)).toEqual([0]);
    // The defaults: a short exchange on two subjects is still one chapter.
    const turns = [...remote.slice(0, 3), ...battery.slice(0, 3)];
    expect(segmentBoundaries(sentencesOf(turns), bySpeaker(turns))).toEqual([0]);
  });
});

describe("chapterCount", () => {
  it("grows with the number of speakers and is bounded by the length and the maximum", () => {
    const options = { ...small, baseChapters: 3, chaptersPerLogSpeaker: 1, minChapterTerms: 100 };
    expect(chapterCount(10_000, 1, options)).toBe(3);
    expect(chapterCount(10_000, 20, options)).toBe(6); // 3 + ln 20 ≈ 6.0
    expect(chapterCount(10_000, 10_000, options)).toBe(8);
    expect(chapterCount(250, 20, options)).toBe(2);
    expect(chapterCount(20, 20, options)).toBe(1);
  });
});

describe("chooseStarts", () => {
  it("takes the best-scored lines, kept apart and away from the ends", () => {
    const scores = new Array<number>(40).fill(0);
    scores[1] = 9; // too close to the start
    scores[20] = 5;
    scores[21] = 4; // too close to 20
    scores[30] = 3;
    expect(chooseStarts(scores, 3, 0.2)).toEqual([0, 20, 30]);
    expect(chooseStarts(scores, 1, 0.2)).toEqual([0]);
    expect(chooseStarts([], 3, 0.2)).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { sentencesOf } from "./analyze.ts";
import { segmentBoundaries, type SegmentationOptions } from "./segmentation.ts";

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

/** Small units so that a few dozen turns give enough blocks; the weights and threshold as each test says. */
const small: SegmentationOptions = {
  termsPerUnit: 8,
  blockUnits: 3,
  smoothing: 1,
  speakerWeight: 0,
  cueWeight: 0,
  cueReach: 0,
  threshold: 0.3,
  minSegmentShare: 0.1,
  maxSegments: 6,
};

const bySpeaker = (turns: readonly string[]) => turns.map((_, i) => (i % 2 === 0 ? "pm" : "id"));

describe("segmentBoundaries", () => {
  it("keeps a conversation that stays on one subject in one segment", () => {
    const turns = [...remote, ...remote, ...remote, ...remote];
    expect(segmentBoundaries(sentencesOf(turns), bySpeaker(turns), small)).toEqual([0]);
  });

  it("starts a segment where the subject changes", () => {
    const turns = [...remote, ...remote, ...battery, ...battery];
    const starts = segmentBoundaries(sentencesOf(turns), bySpeaker(turns), small);
    expect(starts).toHaveLength(2);
    expect(Math.abs((starts[1] ?? 0) - 12)).toBeLessThanOrEqual(1);
  });

  it("says nothing rather than something unsure: a higher threshold never adds a boundary", () => {
    const turns = [...remote, ...battery, ...remote, ...battery, ...remote];
    const sentences = sentencesOf(turns);
    let previous = Infinity;
    for (const threshold of [0, 0.2, 0.4, 0.8, 1.6, 4]) {
      const count = segmentBoundaries(sentences, bySpeaker(turns), { ...small, threshold }).length;
      expect(count).toBeLessThanOrEqual(previous);
      previous = count;
    }
    expect(previous).toBe(1);
  });

  it("starts the segment at the line that moves the meeting on", () => {
    const turns = [
      ...remote,
      ...remote,
      "That's it for the remote control buttons , so let's move on .",
      "Mm - hmm .",
      "Yeah .",
      ...battery,
      ...battery,
    ];
    const speakers = bySpeaker(turns);
    const plain = segmentBoundaries(sentencesOf(turns), speakers, small);
    const cued = segmentBoundaries(sentencesOf(turns), speakers, { ...small, cueWeight: 0.2, cueReach: 4 });
    expect(plain).toEqual([0, 16]);
    expect(cued).toEqual([0, 12]);
  });

  it("finds a change of speaker where the words alone are too alike", () => {
    // One subject, but the first half is one person's report and the second half another's.
    const turns = [...remote, ...remote, ...remote, ...remote];
    const speakers = turns.map((_, i) => (i < 12 ? "grad" : "postdoc"));
    const options = { ...small, speakerWeight: 1, threshold: 0.5 };
    expect(segmentBoundaries(sentencesOf(turns), speakers, { ...options, speakerWeight: 0 })).toEqual([0]);
    const starts = segmentBoundaries(sentencesOf(turns), speakers, options);
    expect(starts).toHaveLength(2);
    expect(Math.abs((starts[1] ?? 0) - 12)).toBeLessThanOrEqual(1);
  });

  it("gives no segment for no messages and one for a short chat", () => {
    expect(segmentBoundaries([], [], small)).toEqual([]);
    expect(segmentBoundaries(sentencesOf(remote.slice(0, 2)), ["a", "b"], small)).toEqual([0]);
  });
});

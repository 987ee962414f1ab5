/**
 * Tunes the segmentation parameters on QMSum train by coordinate descent (three passes over small
 * grids, from plain TextTiling with no speaker or cue signal and no threshold), minimising mean
 * Pk + WindowDiff. Never reads val. Prints each improvement and the best options, which
 * DEFAULT_SEGMENTATION_OPTIONS holds.
 *
 * Usage: node --import tsx bench/tune-segments.ts
 */
import { prepareSentences } from "../src/analysis/analyze.ts";
import { segmentBoundaries, type SegmentationOptions } from "../src/analysis/segmentation.ts";
import { pk, windowDiff, standardWindow, startsFromLabels } from "./metrics/segeval.ts";
import { loadSplit } from "./qmsum.ts";

const meetings = loadSplit("train").map((m) => ({
  sentences: prepareSentences(m.input),
  speakers: m.input.messages.map((message) => message.memberId),
  n: m.input.messages.length,
  reference: startsFromLabels(m.referenceTopics),
}));

function score(options: SegmentationOptions): { pk: number; windowDiff: number; segments: number } {
  let pkSum = 0;
  let wdSum = 0;
  let segments = 0;
  for (const m of meetings) {
    const k = standardWindow(m.reference, m.n);
    const hypothesis = segmentBoundaries(m.sentences, m.speakers, options);
    pkSum += pk(m.reference, hypothesis, m.n, k);
    wdSum += windowDiff(m.reference, hypothesis, m.n, k);
    segments += hypothesis.length;
  }
  const n = meetings.length;
  return { pk: (100 * pkSum) / n, windowDiff: (100 * wdSum) / n, segments: segments / n };
}

const start: SegmentationOptions = {
  termsPerUnit: 40,
  blockUnits: 4,
  smoothing: 1,
  speakerWeight: 0,
  cueWeight: 0,
  cueReach: 2,
  threshold: 0,
  minSegmentShare: 0.1,
  maxSegments: 5,
};
const grid: Record<keyof SegmentationOptions, number[]> = {
  threshold: [0, 0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6],
  speakerWeight: [0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5],
  cueWeight: [0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4],
  cueReach: [0, 1, 2, 4, 8],
  termsPerUnit: [10, 20, 30, 40],
  blockUnits: [3, 4, 6, 8, 12],
  smoothing: [0, 1, 2, 3],
  minSegmentShare: [0.03, 0.06, 0.1, 0.15],
  maxSegments: [3, 4, 5, 6, 8],
};
let best = start;
let bestScore = score(best);
console.log("start", best, bestScore);
for (let pass = 0; pass < 3; pass++) {
  for (const [key, values] of Object.entries(grid)) {
    for (const value of values) {
      const candidate = { ...best, [key]: value };
      const s = score(candidate);
      if (s.pk + s.windowDiff < bestScore.pk + bestScore.windowDiff - 1e-6) {
        best = candidate;
        bestScore = s;
        console.log(key, value, s);
      }
    }
  }
}
console.log("best", best, bestScore);

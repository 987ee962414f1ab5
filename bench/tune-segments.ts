/**
 * Tunes the TextTiling parameters on QMSum train by coordinate descent (two passes), minimising mean
 * Pk + WindowDiff. Never reads val.
 *
 * Usage: node --import tsx bench/tune-segments.ts
 */
import { prepareSentences } from "../src/analysis/analyze.ts";
import {
  segmentBoundaries,
  DEFAULT_SEGMENTATION_OPTIONS,
  type SegmentationOptions,
} from "../src/analysis/segmentation.ts";
import { pk, windowDiff, standardWindow, startsFromLabels, fixedWindows } from "./metrics/segeval.ts";
import { loadSplit } from "./qmsum.ts";
const ms = loadSplit("train").map((m) => ({
  s: prepareSentences(m.input),
  n: m.input.messages.length,
  ref: startsFromLabels(m.referenceTopics),
}));
function score(o: SegmentationOptions) {
  let a = 0;
  let b = 0;
  let w = 0;
  for (const m of ms) {
    const k = standardWindow(m.ref, m.n);
    const h = segmentBoundaries(m.s, m.n, o);
    a += pk(m.ref, h, m.n, k);
    b += windowDiff(m.ref, h, m.n, k);
    w += pk(m.ref, fixedWindows(h.length, m.n), m.n, k);
  }
  return [a / ms.length, b / ms.length, w / ms.length];
}
let best = { ...DEFAULT_SEGMENTATION_OPTIONS };
let bs = score(best);
console.log(best, bs);
const grid: Record<string, number[]> = {
  termsPerUnit: [10, 20, 30, 40],
  blockUnits: [4, 6, 8, 12],
  cutoff: [-0.5, 0, 0.5, 1, 1.5],
  minSegmentShare: [0.03, 0.06, 0.1, 0.15],
  maxSegments: [3, 4, 5, 6, 8],
};
for (let pass = 0; pass < 2; pass++)
  for (const [k, vs] of Object.entries(grid))
    for (const v of vs) {
      const c = { ...best, [k]: v };
      const s = score(c);
      if (s[0]! + s[1]! < bs[0]! + bs[1]! - 1e-6) {
        best = c;
        bs = s;
        console.log(k, v, s);
      }
    }
console.log("best", best, bs);

/**
 * Learns the chapter-start score on QMSum train and tunes the segmentation around it; never reads val.
 * 1. Every line of every train meeting is a row: its features (segmentation.ts BOUNDARY_FEATURES) and
 *    whether a human topic starts within two lines of it. A class-weighted logistic regression (L2,
 *    full-batch Adam from zero, deterministic) gives the first weights.
 * 2. The chapter count: a least-squares line from ln(speakers) to the number of topics people marked.
 * 3. Coordinate descent (three passes over small grids) on the weights and the separation, minimising
 *    mean Pk + WindowDiff, as `npm run eval` scores them.
 * Prints each improvement, the weights and the options; --write writes the weights to
 * src/analysis/segmentation-weights.ts (DEFAULT_SEGMENTATION_OPTIONS holds the other options).
 *
 * Usage: node --import tsx bench/tune-segments.ts [--write]
 */
import { prepareSentences, speakersOf } from "../src/analysis/analyze.ts";
import {
  BOUNDARY_FEATURES,
  DEFAULT_SEGMENTATION_OPTIONS,
  boundaryFeatures,
  chapterCount,
  chooseStarts,
  type SegmentationOptions,
} from "../src/analysis/segmentation.ts";
import { pk, windowDiff, standardWindow, startsFromLabels } from "./metrics/segeval.ts";
import { loadSplit } from "./qmsum.ts";
import { writeWeights } from "./weights-file.ts";

/** A line is a positive row when a human topic starts within this many lines of it. */
const TOLERANCE = 2;
const L2 = 1e-4;
const EPOCHS = 150;

const meetings = loadSplit("train").map((m) => {
  const speakers = speakersOf(m.input);
  const { features, terms } = boundaryFeatures(
    prepareSentences(m.input),
    speakers,
    DEFAULT_SEGMENTATION_OPTIONS.scales,
  );
  return {
    features,
    terms,
    speakerCount: new Set(speakers).size,
    n: m.input.messages.length,
    reference: startsFromLabels(m.referenceTopics),
    topicCount: m.referenceTopicCount,
  };
});

/** Logistic regression on features standardised over all rows; returns weights for the raw features. */
function fitLogistic(): number[] {
  const d = BOUNDARY_FEATURES.length;
  const rows: { x: number[]; y: number }[] = [];
  for (const m of meetings) {
    const starts = new Set(m.reference.filter((s) => s > 0));
    for (let line = 1; line < m.n; line++) {
      let y = 0;
      for (let t = -TOLERANCE; t <= TOLERANCE; t++) if (starts.has(line + t)) y = 1;
      rows.push({ x: m.features[line] ?? [], y });
    }
  }
  const mean = new Array<number>(d).fill(0);
  const sd = new Array<number>(d).fill(0);
  for (const { x } of rows) x.forEach((v, j) => (mean[j] = (mean[j] ?? 0) + v / rows.length));
  for (const { x } of rows)
    x.forEach((v, j) => (sd[j] = (sd[j] ?? 0) + (v - (mean[j] ?? 0)) ** 2 / rows.length));
  const scale = sd.map((v) => Math.sqrt(v) || 1);
  const z = rows.map(({ x, y }) => ({ x: x.map((v, j) => (v - (mean[j] ?? 0)) / (scale[j] ?? 1)), y }));
  const positives = z.filter((r) => r.y === 1).length;
  const positiveWeight = (z.length - positives) / positives;
  const w = new Array<number>(d + 1).fill(0); // the last is the intercept
  const m1 = new Array<number>(d + 1).fill(0);
  const m2 = new Array<number>(d + 1).fill(0);
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    const gradient = new Array<number>(d + 1).fill(0);
    for (const { x, y } of z) {
      const logit = x.reduce((sum, v, j) => sum + v * (w[j] ?? 0), w[d] ?? 0);
      const error = (y === 1 ? positiveWeight : 1) * (1 / (1 + Math.exp(-logit)) - y);
      x.forEach((v, j) => (gradient[j] = (gradient[j] ?? 0) + error * v));
      gradient[d] = (gradient[d] ?? 0) + error;
    }
    for (let j = 0; j <= d; j++) {
      const g = (gradient[j] ?? 0) / z.length + (j < d ? L2 * (w[j] ?? 0) : 0);
      m1[j] = 0.9 * (m1[j] ?? 0) + 0.1 * g;
      m2[j] = 0.999 * (m2[j] ?? 0) + 0.001 * g * g;
      const step =
        (0.05 * ((m1[j] ?? 0) / (1 - 0.9 ** epoch))) /
        (Math.sqrt((m2[j] ?? 0) / (1 - 0.999 ** epoch)) + 1e-8);
      w[j] = (w[j] ?? 0) - step;
    }
  }
  // Only the order of a meeting's lines matters, so the intercept and the means drop out.
  return BOUNDARY_FEATURES.map((_, j) => round((w[j] ?? 0) / (scale[j] ?? 1)));
}

const round = (v: number): number => Math.round(v * 10_000) / 10_000;

interface Score {
  pk: number;
  windowDiff: number;
  segments: number;
  countWithinOne: number;
}

function score(options: SegmentationOptions): Score {
  let pkSum = 0;
  let wdSum = 0;
  let segments = 0;
  let within = 0;
  for (const m of meetings) {
    const k = standardWindow(m.reference, m.n);
    const count = chapterCount(m.terms, m.speakerCount, options);
    const scores = m.features.map((row) => row.reduce((sum, v, j) => sum + v * (options.weights[j] ?? 0), 0));
    const hypothesis = count <= 1 ? [0] : chooseStarts(scores, count, options.separation);
    pkSum += pk(m.reference, hypothesis, m.n, k);
    wdSum += windowDiff(m.reference, hypothesis, m.n, k);
    segments += hypothesis.length;
    if (Math.abs(hypothesis.length - m.topicCount) <= 1) within++;
  }
  const n = meetings.length;
  return {
    pk: (100 * pkSum) / n,
    windowDiff: (100 * wdSum) / n,
    segments: segments / n,
    countWithinOne: within / n,
  };
}

const show = (s: Score): string =>
  `Pk ${s.pk.toFixed(2)} WD ${s.windowDiff.toFixed(2)} chapters ${s.segments.toFixed(2)} count ±1 ${(100 * s.countWithinOne).toFixed(0)} %`;

/** Least squares of the people's topic count on ln(speakers). */
function fitCount(): Pick<SegmentationOptions, "baseChapters" | "chaptersPerLogSpeaker"> {
  const xs = meetings.map((m) => Math.log(m.speakerCount));
  const ys = meetings.map((m) => m.topicCount);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - mx) * ((ys[i] ?? 0) - my);
    sxx += (x - mx) ** 2;
  });
  const slope = sxy / sxx;
  return { baseChapters: round(my - slope * mx), chaptersPerLogSpeaker: round(slope) };
}

let best: SegmentationOptions = { ...DEFAULT_SEGMENTATION_OPTIONS, weights: fitLogistic(), ...fitCount() };
let bestScore = score(best);
console.log("logistic regression:", best.weights.join(", "), "→", show(bestScore));
const factors = [0, 0.5, 0.8, 1.25, 2];
const grids: { name: string; candidates: (o: SegmentationOptions) => SegmentationOptions[] }[] = [
  ...BOUNDARY_FEATURES.map((feature, j) => ({
    name: feature,
    candidates: (o: SegmentationOptions) =>
      factors.map((f) => ({ ...o, weights: o.weights.map((w, i) => (i === j ? round(w * f) : w)) })),
  })),
  { name: "separation", candidates: (o) => [0.1, 0.15, 0.2, 0.3, 0.4].map((v) => ({ ...o, separation: v })) },
];
for (let pass = 0; pass < 3; pass++) {
  for (const { name, candidates } of grids) {
    for (const candidate of candidates(best)) {
      const s = score(candidate);
      if (s.pk + s.windowDiff < bestScore.pk + bestScore.windowDiff - 1e-6) {
        best = candidate;
        bestScore = s;
        console.log(name, "→", show(s));
      }
    }
  }
}
const { weights, ...rest } = best;
console.log("best", JSON.stringify({ ...rest, scales: undefined }), "→", show(bestScore));
BOUNDARY_FEATURES.forEach((feature, j) => console.log(`  ${feature.padEnd(18)} ${weights[j]}`));

if (process.argv.includes("--write")) {
  const out = writeWeights({
    file: "segmentation-weights.ts",
    name: "SEGMENTATION_WEIGHTS",
    description:
      "Learned weights of the chapter-start score, one per feature of segmentation.ts (BOUNDARY_FEATURES order).",
    script: "bench/tune-segments.ts",
    features: BOUNDARY_FEATURES,
    weights,
  });
  console.log(`wrote ${out}`);
}

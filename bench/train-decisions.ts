/**
 * Learns the decision scorer on QMSum train (never reads val): a logistic regression from each candidate
 * sentence's features (src/analysis/decision-features.ts) to whether its line falls inside the turn span
 * of one of the meeting's decision queries (bench/qmsum.ts, DECISION_QUERY) or of another query whose
 * answer reports a decision (outcomeSpans; twice the positives of the decision spans alone, and a better
 * cross-validated F1). Only the 53 train meetings that have a decision query are read: elsewhere nobody
 * marked where the decisions are. Fitted by Newton's
 * method with an L2 penalty on standardised features, from zero, for a fixed number of steps, so the same
 * data always gives the same weights; the weights are then written for the raw features.
 *
 * The selection settings (threshold, spacing, most decisions) are chosen by 5-fold cross-validation over
 * train meetings (meeting i in fold i mod 5), of the candidates that may be shown (statedDecision, as the
 * analysis picks them), maximising on the held-out folds the F1 of recall of the
 * decision spans and precision counted against decision and outcome spans (bench/metrics/decisions.ts,
 * docs/ANALYSIS.md: why precision is counted so).
 *
 * Usage: node --import tsx bench/train-decisions.ts [--write]
 *   prints the weights, the cross-validated figures and the chosen settings; --write also writes them to
 *   src/analysis/decision-weights.ts. Then check with `npm run eval -- train`.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { prepareSentences, speakersOf } from "../src/analysis/analyze.ts";
import { DECISION_FEATURE_NAMES, decisionCandidates } from "../src/analysis/decision-features.ts";
import {
  decisionProbability,
  pickDecisions,
  statedDecision,
  type DecisionOptions,
} from "../src/analysis/decisions.ts";
import { fitLogistic, type LabelledRow } from "./linear.ts";
import { addCounts } from "./metrics/counts.ts";
import {
  decisionPrecision,
  decisionRecall,
  outcomePrecision,
  NO_DECISION_COUNTS,
  scoreDecisions,
  type DecisionCounts,
} from "./metrics/decisions.ts";
import { loadSplit } from "./qmsum.ts";

/** L2 penalty on the standardised weights (not on the bias). */
const L2 = 1;
const FOLDS = 5;
const THRESHOLDS = Array.from({ length: 40 }, (_, i) => Math.round((0.1 + i * 0.02) * 100) / 100);
const SPACINGS = [10, 20, 40, 80];
const MAX_DECISIONS = [2, 3, 4, 6, 8];

interface TrainMeeting {
  rows: LabelledRow[];
  /** Sentence index and message index of each row. */
  at: { index: number; messageIndex: number }[];
  /** Sentence indexes of the rows that may be shown as a decision (statedDecision). */
  stated: Set<number>;
  spans: [number, number][];
  outcomeSpans: [number, number][];
  messageCount: number;
}

const meetings: TrainMeeting[] = loadSplit("train")
  .filter((meeting) => meeting.decisionQueries.length > 0)
  .map((meeting) => {
    const sentences = prepareSentences(meeting.input);
    const spans = meeting.decisionQueries.flatMap((q) => q.spans);
    const labelled = [...spans, ...meeting.outcomeSpans];
    const candidates = decisionCandidates(
      sentences,
      speakersOf(meeting.input),
      meeting.input.messages.length,
    );
    const at = candidates.map((c) => ({
      index: c.index,
      messageIndex: sentences[c.index]?.messageIndex ?? 0,
    }));
    const stated = new Set(at.map((a) => a.index).filter((index) => statedDecision(sentences, index)));
    const rows = candidates.map((c, i) => {
      const m = at[i]?.messageIndex ?? 0;
      return { features: c.features, label: labelled.some(([a, b]) => m >= a && m <= b) ? 1 : 0 };
    });
    return {
      rows,
      at,
      stated,
      spans,
      outcomeSpans: meeting.outcomeSpans,
      messageCount: meeting.input.messages.length,
    };
  });

/** Span counts of one meeting's decisions under a model and selection settings. */
function countsOf(meeting: TrainMeeting, options: DecisionOptions): DecisionCounts {
  const scored = meeting.rows.map((row, i) => ({
    index: meeting.at[i]?.index ?? 0,
    messageIndex: meeting.at[i]?.messageIndex ?? 0,
    probability: decisionProbability(row.features, options),
  }));
  const messageOf = new Map(meeting.at.map((a) => [a.index, a.messageIndex]));
  const picked = pickDecisions(scored, meeting.messageCount, options, (index) =>
    meeting.stated.has(index),
  ).map((index) => [messageOf.get(index) ?? -1]);
  return scoreDecisions(picked, meeting.spans, meeting.outcomeSpans);
}

const f1 = (c: DecisionCounts): number => {
  const p = outcomePrecision(c);
  const r = decisionRecall(c);
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
};

// Cross-validation: the held-out probabilities of every fold's model, then one grid search over them.
const folds = Array.from({ length: FOLDS }, (_, k) => {
  const held = meetings.filter((_, i) => i % FOLDS === k);
  const model = fitLogistic(
    meetings.filter((_, i) => i % FOLDS !== k).flatMap((m) => m.rows),
    L2,
  );
  return { held, model };
});
type Settings = Omit<DecisionOptions, "bias" | "weights">;
let best: { options: Settings; counts: DecisionCounts } | null = null;
const tried: { options: Settings; counts: DecisionCounts }[] = [];
for (const threshold of THRESHOLDS)
  for (const spacing of SPACINGS)
    for (const maxDecisions of MAX_DECISIONS) {
      const settings = { threshold, spacing, maxDecisions };
      let counts = NO_DECISION_COUNTS;
      for (const { held, model } of folds)
        for (const meeting of held) counts = addCounts(counts, countsOf(meeting, { ...model, ...settings }));
      tried.push({ options: settings, counts });
      if (best === null || f1(counts) > f1(best.counts)) best = { options: settings, counts };
    }
if (best === null) throw new Error("no train meeting has a decision query");

const model = fitLogistic(
  meetings.flatMap((m) => m.rows),
  L2,
);
const positives = meetings.reduce((n, m) => n + m.rows.filter((r) => r.label === 1).length, 0);
const rows = meetings.reduce((n, m) => n + m.rows.length, 0);
process.stdout.write(
  `${meetings.length} train meetings with decision queries, ${rows} candidates, ${positives} inside a span\n`,
);
process.stdout.write(`bias ${model.bias}\n`);
DECISION_FEATURE_NAMES.forEach((name, j) =>
  process.stdout.write(`  ${name.padEnd(20)} ${model.weights[j]}\n`),
);
const { counts, options } = best;
process.stdout.write(
  `chosen: threshold ${options.threshold}, spacing ${options.spacing}, at most ${options.maxDecisions}; ` +
    `${FOLDS}-fold cross-validated on train: precision ${decisionPrecision(counts).toFixed(3)} ` +
    `(${counts.correct}/${counts.predicted}), with outcome spans ${outcomePrecision(counts).toFixed(3)} ` +
    `(${counts.correctWithOutcomes}/${counts.predicted}), recall ${decisionRecall(counts).toFixed(3)} (${counts.hit}/${counts.spans})\n`,
);

// What any setting could reach: the cross-validated points that no other setting beats on both precision
// (with outcome spans) and recall, from the most precise to the widest.
const dominates = (a: DecisionCounts, b: DecisionCounts) =>
  outcomePrecision(a) >= outcomePrecision(b) &&
  decisionRecall(a) >= decisionRecall(b) &&
  (outcomePrecision(a) > outcomePrecision(b) || decisionRecall(a) > decisionRecall(b));
const frontier = tried
  .filter(({ counts }) => counts.predicted > 0 && !tried.some((other) => dominates(other.counts, counts)))
  .toSorted((a, b) => decisionRecall(a.counts) - decisionRecall(b.counts));
process.stdout.write(
  "cross-validated frontier (precision with outcome spans / strict, recall, decisions):\n",
);
for (const point of frontier.filter(
  (point, i) =>
    decisionRecall(point.counts) !== decisionRecall(frontier[i - 1]?.counts ?? NO_DECISION_COUNTS),
))
  process.stdout.write(
    `  P ${outcomePrecision(point.counts).toFixed(2)} / ${decisionPrecision(point.counts).toFixed(2)}, ` +
      `R ${decisionRecall(point.counts).toFixed(2)}, ${point.counts.predicted} ` +
      `(threshold ${point.options.threshold}, spacing ${point.options.spacing}, at most ${point.options.maxDecisions})\n`,
  );

if (process.argv.includes("--write")) {
  const out = resolve(import.meta.dirname, "../src/analysis/decision-weights.ts");
  writeFileSync(
    out,
    `/**
 * Learned decision scorer, one weight per feature of decision-features.ts (DECISION_FEATURE_NAMES order),
 * and the selection settings chosen by cross-validation on train.
 * Written by \`node --import tsx bench/train-decisions.ts --write\` from QMSum train; do not edit by hand.
 */
export const DECISION_MODEL = {
  bias: ${model.bias},
  weights: [
${DECISION_FEATURE_NAMES.map((name, j) => `    ${model.weights[j]}, // ${name}`).join("\n")}
  ] as readonly number[],
  threshold: ${options.threshold},
  spacing: ${options.spacing},
  maxDecisions: ${options.maxDecisions},
};
`,
  );
  process.stdout.write(`wrote ${out}\n`);
}

/**
 * Which way of finding action items holds on a kind of meeting it never learned from. QMSum's train meetings
 * are of three kinds (product design, research, committee: meetingKind in qmsum.ts); a user's meetings are of
 * none of them, so each method is scored leave-one-kind-out: each kind's sentences are scored by a model fitted
 * on the other two kinds only. The methods: the phrasing rules alone (task-timing.ts, ruleTask: nothing
 * learned), the model with its phrases (the shipped training settings), the model on its features alone, and
 * the rules together with a model (a line the rules find, or one the model gives at least a high threshold;
 * or only the rules' lines the model also passes). Each threshold is the one with the best F1 of detected
 * lines against the clear items over the three held-out kinds together; the last column checks it by scoring
 * each kind at the threshold the other two kinds chose. Never reads val.
 *
 * Usage: node --import tsx bench/actions-by-kind.ts [--write]
 *   --write also writes the table to bench/results/actions-by-kind.txt.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ACTION_FEATURE_NAMES } from "../src/analysis/action-features.ts";
import { actionProbability } from "../src/analysis/action-model.ts";
import { ACTION_TRAINING } from "../src/analysis/action-weights.ts";
import { labelledMeeting, trainModel, type LabelledMeeting } from "./action-training.ts";
import { BY_KIND } from "./eval-actions.ts";
import { addCounts } from "./metrics/counts.ts";
import { NO_COUNTS, precision, recall, scoreActions, type ActionCounts } from "./metrics/actions.ts";
import { loadSplit, MEETING_KINDS, ofKind } from "./qmsum.ts";

const THRESHOLDS = Array.from({ length: 45 }, (_, i) => Math.round((0.1 + i * 0.02) * 100) / 100);
const RULE_TASK = ACTION_FEATURE_NAMES.indexOf("ruleTask");

const meetings = loadSplit("train").flatMap((m) =>
  m.goldActions === null ? [] : [labelledMeeting({ ...m, goldActions: m.goldActions })],
);

/** A method: for a meeting and a threshold, the lines it detects. */
type Detector = (meeting: LabelledMeeting, threshold: number) => number[];

/** The lines where the phrasing rules find a task or a follow-up. */
const ruleLines = (meeting: LabelledMeeting): Set<number> =>
  new Set(meeting.sentences.filter((s) => s.features[RULE_TASK] === 1).map((s) => s.messageIndex));

/** Each line's highest sentence probability, by a model fitted on the other kinds only. */
function kindHeldOutProbabilities(phrases: number): Map<string, Map<number, number>> {
  const result = new Map<string, Map<number, number>>();
  for (const held of BY_KIND(meetings)) {
    const model = trainModel(
      meetings.filter((m) => !held.includes(m)),
      { ...ACTION_TRAINING, phrases },
      0.5,
    );
    for (const meeting of held) {
      const lines = new Map<number, number>();
      for (const s of meeting.sentences) {
        const p = actionProbability(s.features, s.phrases, model);
        lines.set(s.messageIndex, Math.max(lines.get(s.messageIndex) ?? 0, p));
      }
      result.set(meeting.name, lines);
    }
  }
  return result;
}

const above = (lines: ReadonlyMap<number, number> | undefined, threshold: number): number[] =>
  [...(lines ?? [])].filter(([, p]) => p >= threshold).map(([line]) => line);

function counts(items: readonly LabelledMeeting[], detect: Detector, threshold: number): ActionCounts {
  return items
    .map((m) =>
      scoreActions(
        detect(m, threshold).map((turn) => ({ turn, type: "action_item" as const })),
        m.gold,
        "clear",
      ),
    )
    .reduce(addCounts, NO_COUNTS);
}

const f1 = (c: ActionCounts): number => {
  const p = precision(c);
  const r = recall(c);
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
};

/** The threshold with the best F1 over the meetings (the first of equals). */
function bestThreshold(
  items: readonly LabelledMeeting[],
  detect: Detector,
  thresholds: readonly number[],
): number {
  let best = { threshold: thresholds[0] ?? 0.5, f1: -1 };
  for (const threshold of thresholds) {
    const score = f1(counts(items, detect, threshold));
    if (score > best.f1) best = { threshold, f1: score };
  }
  return best.threshold;
}

const rules = new Map(meetings.map((m) => [m.name, ruleLines(m)]));
const withPhrases = kindHeldOutProbabilities(ACTION_TRAINING.phrases);
const featuresOnly = kindHeldOutProbabilities(0);

const model =
  (probabilities: Map<string, Map<number, number>>): Detector =>
  (m, t) =>
    above(probabilities.get(m.name), t);
const rulesOr =
  (probabilities: Map<string, Map<number, number>>): Detector =>
  (m, t) => [...new Set([...(rules.get(m.name) ?? []), ...above(probabilities.get(m.name), t)])];
const rulesAnd =
  (probabilities: Map<string, Map<number, number>>): Detector =>
  (m, t) =>
    above(probabilities.get(m.name), t).filter((line) => rules.get(m.name)?.has(line) === true);

const rulesAlone: Detector = (m) => [...(rules.get(m.name) ?? [])];

const methods: { name: string; detect: Detector; thresholds: readonly number[] }[] = [
  { name: "rules alone", detect: rulesAlone, thresholds: [0] },
  { name: `model, ${ACTION_TRAINING.phrases} phrases`, detect: model(withPhrases), thresholds: THRESHOLDS },
  { name: "model, features alone", detect: model(featuresOnly), thresholds: THRESHOLDS },
  {
    name: `rules or model (${ACTION_TRAINING.phrases})`,
    detect: rulesOr(withPhrases),
    thresholds: THRESHOLDS,
  },
  { name: "rules or model (features)", detect: rulesOr(featuresOnly), thresholds: THRESHOLDS },
  {
    name: `rules and model (${ACTION_TRAINING.phrases})`,
    detect: rulesAnd(withPhrases),
    thresholds: THRESHOLDS,
  },
  { name: "rules and model (features)", detect: rulesAnd(featuresOnly), thresholds: THRESHOLDS },
];

const fixed = (value: number): string => value.toFixed(2);

/** Resamples of the meetings for the interval of a method's F1 less the rules' (a paired bootstrap). */
const RESAMPLES = 1000;

/** A deterministic generator (mulberry32), so the interval is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The 5th and 95th percentiles of F1(method) − F1(rules) over resamples of the meetings. */
function differenceInterval(detect: Detector, threshold: number): [number, number] {
  const perMeeting = meetings.map((m) => ({
    method: counts([m], detect, threshold),
    rules: counts([m], rulesAlone, 0),
  }));
  const random = seeded(35);
  const differences = Array.from({ length: RESAMPLES }, () => {
    let method = NO_COUNTS;
    let rule = NO_COUNTS;
    for (let i = 0; i < perMeeting.length; i++) {
      const drawn = perMeeting[Math.floor(random() * perMeeting.length)];
      if (drawn === undefined) continue;
      method = addCounts(method, drawn.method);
      rule = addCounts(rule, drawn.rules);
    }
    return f1(method) - f1(rule);
  }).sort((a, b) => a - b);
  return [differences[Math.floor(0.05 * RESAMPLES)] ?? 0, differences[Math.floor(0.95 * RESAMPLES)] ?? 0];
}
const cell = (c: ActionCounts): string =>
  `${fixed(precision(c))} / ${fixed(recall(c))} (${f1(c).toFixed(3)}), ${c.detections}`;
const lines = [
  `Action items on ${meetings.length} labelled train meetings, leave-one-kind-out: each kind's sentences scored by a`,
  "model fitted on the other two kinds only; detected lines against the clear items: P / R (F1), detections.",
  `Meetings: ${MEETING_KINDS.map((kind) => `${kind} ${ofKind(meetings, kind).length}`).join(", ")}.`,
  "threshold: the best F1 over the three held-out kinds together; last column: each kind at the threshold",
  "the other two kinds choose (the rules have none). F1 − rules: the difference from the rules alone at the",
  `chosen threshold, with its 90 % interval over ${RESAMPLES} resamples of the meetings (paired, seeded).`,
  "",
  `| method | threshold | ${MEETING_KINDS.join(" | ")} | all | all, other kinds' threshold | F1 − rules |`,
  `| --- | --- | ${MEETING_KINDS.map(() => "---").join(" | ")} | --- | --- | --- |`,
];
for (const { name, detect, thresholds } of methods) {
  const threshold = bestThreshold(meetings, detect, thresholds);
  const byKind = MEETING_KINDS.map((kind) => counts(ofKind(meetings, kind), detect, threshold));
  const crossed = MEETING_KINDS.map((kind) => {
    const others = meetings.filter((m) => ofKind([m], kind).length === 0);
    const chosen = bestThreshold(others, detect, thresholds);
    return counts(ofKind(meetings, kind), detect, chosen);
  }).reduce(addCounts, NO_COUNTS);
  const all = byKind.reduce(addCounts, NO_COUNTS);
  const [low, high] = differenceInterval(detect, threshold);
  const difference = `${(f1(all) - f1(counts(meetings, rulesAlone, 0))).toFixed(3)} (${low.toFixed(3)} to ${high.toFixed(3)})`;
  lines.push(
    `| ${name} | ${thresholds.length > 1 ? fixed(threshold) : "–"} | ${byKind.map(cell).join(" | ")} | ` +
      `${cell(all)} | ${cell(crossed)} | ${detect === rulesAlone ? "–" : difference} |`,
  );
}
for (const line of lines) process.stdout.write(`${line}\n`);
if (process.argv.includes("--write"))
  writeFileSync(resolve(import.meta.dirname, "results/actions-by-kind.txt"), `${lines.join("\n")}\n`);

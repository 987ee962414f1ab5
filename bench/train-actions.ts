/**
 * Learns the action-item model (src/analysis/action-model.ts) from the hand-labelled QMSum train meetings
 * (never reads val). By 5-fold cross-validation by meeting it picks the L2 penalty, whether borderline items
 * are positives, how many phrases the model weighs beside its features (each fold chooses its own from its
 * training meetings), and the threshold: the setting with the best F1 of detected lines against the clear items
 * (datasets/qmsum/ACTIONS.md: a detection matches an item on its turn or one of its alsoAt turns). Then it
 * fits the model on all labelled train meetings. Prints the cross-validated precision and recall of every
 * threshold of the chosen setting, clear-only and clear + borderline.
 *
 * Usage: node --import tsx bench/train-actions.ts [--write]
 *   --write also writes the model to src/analysis/action-weights.ts and the figures to
 *   bench/results/actions-train.txt. Then check with `npm run eval -- train`.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ACTION_FEATURE_NAMES } from "../src/analysis/action-features.ts";
import {
  countsAt,
  FOLDS,
  heldOutLineProbabilities,
  labelledMeeting,
  trainModel,
  type TrainingSettings,
} from "./action-training.ts";
import { crossValidatedActions, reportActions } from "./eval-actions.ts";
import { precision, recall } from "./metrics/actions.ts";
import { loadSplit } from "./qmsum.ts";

const THRESHOLDS = Array.from({ length: 41 }, (_, i) => Math.round((0.1 + i * 0.02) * 100) / 100);
const PENALTIES = [1, 10, 30];
/** How many phrases (words and word pairs) the model may weigh beside its features (choosePhrases). */
const PHRASE_COUNTS = [0, 50, 100, 200, 400];

const train = loadSplit("train").flatMap((m) =>
  m.goldActions === null ? [] : [{ ...m, goldActions: m.goldActions }],
);
const meetings = train.map(labelledMeeting);
const lines: string[] = [];
const say = (line: string) => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};
const fixed = (value: number) => value.toFixed(2);
const f1 = (p: number, r: number) => (p + r > 0 ? (2 * p * r) / (p + r) : 0);

say(
  `Action-item model: ${meetings.length} labelled train meetings, ${FOLDS}-fold cross-validation by meeting.`,
);
say("Per setting, the threshold with the best F1 of detected lines against the clear items:");
let best = {
  f1: -1,
  settings: { l2: 1, borderline: false, phrases: 0 } as TrainingSettings,
  threshold: 0.5,
  held: new Map<string, Map<number, number>>(),
};
const grid: TrainingSettings[] = [false, true].flatMap((borderline) =>
  PENALTIES.flatMap((l2) => PHRASE_COUNTS.map((phrases) => ({ l2, borderline, phrases }))),
);
for (const settings of grid) {
  const held = heldOutLineProbabilities(meetings, settings);
  let local = { f1: -1, threshold: 0.5, p: 0, r: 0 };
  for (const threshold of THRESHOLDS) {
    const counts = countsAt(meetings, held, threshold, "clear");
    const score = f1(precision(counts), recall(counts));
    if (score > local.f1) local = { f1: score, threshold, p: precision(counts), r: recall(counts) };
  }
  say(
    `  borderline positives ${String(settings.borderline).padEnd(5)} L2 ${String(settings.l2).padEnd(3)} ` +
      `phrases ${String(settings.phrases).padEnd(3)}: threshold ${fixed(local.threshold)}, ` +
      `clear P ${fixed(local.p)} R ${fixed(local.r)}, F1 ${fixed(local.f1)}`,
  );
  if (local.f1 > best.f1) best = { f1: local.f1, settings, threshold: local.threshold, held };
}
say(`chosen: ${JSON.stringify({ ...best.settings, threshold: best.threshold })}`);
say("");
say("Cross-validated, the chosen setting at every threshold (P clear counts every detection as wrong");
say("unless it matches a clear item):");
say("| threshold | detections | P clear | R clear | P all | R all |");
say("| --------- | ---------- | ------- | ------- | ----- | ----- |");
for (const threshold of THRESHOLDS) {
  const clear = countsAt(meetings, best.held, threshold, "clear");
  const all = countsAt(meetings, best.held, threshold, "all");
  say(
    `| ${fixed(threshold).padEnd(9)} | ${String(clear.detections).padEnd(10)} | ${fixed(precision(clear)).padEnd(7)} | ` +
      `${fixed(recall(clear)).padEnd(7)} | ${fixed(precision(all))}  | ${fixed(recall(all))}  |`,
  );
}
const model = trainModel(meetings, best.settings, best.threshold);
say("");
say(`weights (all ${meetings.length} meetings): bias ${model.bias}`);
const inputNames = [...ACTION_FEATURE_NAMES, ...model.phrases.map((phrase) => `"${phrase}"`)];
inputNames.forEach((name, j) => say(`  ${name.padEnd(16)} ${model.weights[j]}`));

if (process.argv.includes("--write")) {
  writeFileSync(
    resolve(import.meta.dirname, "../src/analysis/action-weights.ts"),
    `/**
 * Learned weights of the action-item model, one per feature of action-features.ts and one per phrase, its
 * phrases, its threshold, and how it was trained. Written by
 * \`node --import tsx bench/train-actions.ts --write\` from QMSum train; do not edit by hand.
 */
import type { ActionModel } from "./action-model.ts";

export const ACTION_WEIGHTS: ActionModel = {
  bias: ${model.bias},
  weights: [
${inputNames.map((name, j) => `    ${model.weights[j]}, // ${name}`).join("\n")}
  ],
  phrases: [
${model.phrases.map((phrase) => `    ${JSON.stringify(phrase)},`).join("\n")}
  ],
  threshold: ${best.threshold},
};

/** The L2 penalty, the positives and the number of phrases the weights were fitted with (bench/action-training.ts). */
export const ACTION_TRAINING = ${JSON.stringify(best.settings)
      .replace(/"(\w+)":/g, "$1: ")
      .replace(/,/g, ", ")
      .replace(/^\{/, "{ ")
      .replace(/\}$/, " }")};
`,
  );
  say("");
  reportActions(
    "train, cross-validated",
    crossValidatedActions(train, best.settings, best.threshold),
    [],
  ).forEach(say);
  writeFileSync(resolve(import.meta.dirname, "results/actions-train.txt"), `${lines.join("\n")}\n`);
}

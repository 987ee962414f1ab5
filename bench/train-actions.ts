/**
 * Learns the action-item model (src/analysis/action-model.ts) from the hand-labelled QMSum train meetings
 * (never reads val): picks the penalty, whether borderline items count, and the threshold by 5-fold
 * cross-validation by meeting (the F1 of detected turns against clear + borderline items), then fits the
 * model on all labelled train meetings. Prints the cross-validated figures of each setting.
 *
 * Usage: node --import tsx bench/train-actions.ts [--write]
 *   --write also writes the weights to src/analysis/action-weights.ts and the figures to
 *   bench/results/actions-train.txt. Then check with `npm run eval`.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ACTION_FEATURE_NAMES } from "../src/analysis/action-features.ts";
import {
  heldOutProbabilities,
  sentenceRows,
  trainModel,
  TRAINING,
  type SentenceRow,
} from "./action-training.ts";
import { crossValidatedActions, reportActions } from "./eval-actions.ts";
import { addCounts, NO_COUNTS, precision, recall, scoreActions, type GoldAction } from "./metrics/actions.ts";
import { loadSplit } from "./qmsum.ts";

const THRESHOLDS = Array.from({ length: 17 }, (_, i) => 0.1 + i * 0.05);
const PENALTIES = [0.3, 1, 3];

const meetings = loadSplit("train").flatMap((m) =>
  m.goldActions === null ? [] : [{ ...m, goldActions: m.goldActions }],
);
const gold = new Map<string, GoldAction[]>(meetings.map((m) => [m.name, m.goldActions]));
const lines: string[] = [
  `Action-item model: ${meetings.length} labelled train meetings, ${TRAINING.folds}-fold cross-validation by meeting.`,
  "Per setting, the threshold with the best F1 (clear + borderline) of detected turns:",
  "",
];
const say = (line: string) => {
  lines.push(line);
  process.stdout.write(`${line}\n`);
};
lines.splice(0, lines.length).forEach(say);

let best: { f1: number; l2: number; borderline: boolean; threshold: number } = {
  f1: -1,
  l2: TRAINING.l2,
  borderline: TRAINING.borderline,
  threshold: 0.5,
};
const rowsFor = new Map<boolean, Map<string, SentenceRow[]>>();
for (const borderline of [false, true]) {
  const rows = new Map(meetings.map((m) => [m.name, sentenceRows(m, m.goldActions, borderline)]));
  rowsFor.set(borderline, rows);
  for (const l2 of PENALTIES) {
    const held = heldOutProbabilities(rows, TRAINING.folds, l2);
    for (const threshold of THRESHOLDS) {
      let counts = NO_COUNTS;
      for (const [name, sentences] of held) {
        const turns = [
          ...new Set(sentences.filter((s) => s.probability >= threshold).map((s) => s.messageIndex)),
        ];
        const detections = turns.map((turn) => ({ turn, type: "action_item" as const }));
        counts = addCounts(counts, scoreActions(detections, gold.get(name) ?? [], "all"));
      }
      const p = precision(counts);
      const r = recall(counts);
      const f1 = p + r > 0 ? (2 * p * r) / (p + r) : 0;
      if (f1 > best.f1) best = { f1, l2, borderline, threshold };
    }
  }
  say(`borderline items as tasks: ${borderline}; best so far: ${JSON.stringify(best)}`);
}
const chosen = {
  l2: best.l2,
  borderline: best.borderline,
  threshold: Math.round(best.threshold * 100) / 100,
};
say(`chosen: ${JSON.stringify(chosen)} (bench/action-training.ts TRAINING must hold l2 and borderline)`);
const rows = [...(rowsFor.get(chosen.borderline)?.values() ?? [])].flat();
const model = trainModel(rows, chosen.l2, chosen.threshold);
say(`${rows.length} sentences, ${rows.filter((r) => r.label === 1).length} stating a task`);
ACTION_FEATURE_NAMES.forEach((name, j) => say(`  ${name.padEnd(16)} ${model.weights[j]}`));

if (process.argv.includes("--write")) {
  writeFileSync(
    resolve(import.meta.dirname, "../src/analysis/action-weights.ts"),
    `/**
 * Learned weights of the action-item model, one per feature of action-features.ts, and its threshold.
 * Written by \`node --import tsx bench/train-actions.ts --write\` from QMSum train; do not edit by hand.
 */
import type { ActionModel } from "./action-model.ts";

export const ACTION_WEIGHTS: ActionModel = {
  weights: [
${ACTION_FEATURE_NAMES.map((name, j) => `    ${model.weights[j]}, // ${name}`).join("\n")}
  ],
  threshold: ${chosen.threshold},
};
`,
  );
  say("");
  reportActions("train, cross-validated", crossValidatedActions(meetings, chosen.threshold), []).forEach(say);
  writeFileSync(resolve(import.meta.dirname, "results/actions-train.txt"), `${lines.join("\n")}\n`);
}

/**
 * Action items and questions against the hand-labelled QMSum meetings (datasets/qmsum/ACTIONS.md): per
 * meeting and overall precision and recall, clear-only and clear + borderline, type agreement, and the
 * questions each labelled meeting gets; last, questions per meeting over every meeting of the split. Train
 * is the default (the rules learn nothing from it); pass "val" only to report.
 *
 * Usage: node --import tsx bench/tune-actions.ts [train|val] [--verbose]
 * --verbose lists every detection (✓ clear, ~ borderline, ✗ neither) and every missed gold item.
 */
import { analyzeConversation } from "../src/analysis/analyze.ts";
import { scoreMeeting } from "./eval-actions.ts";
import { addCounts } from "./metrics/counts.ts";
import {
  NO_COUNTS,
  precision,
  precisionWithoutNeutral,
  recall,
  type ActionCounts,
} from "./metrics/actions.ts";
import { detectedActions, loadSplit } from "./qmsum.ts";

const split = process.argv[2] === "val" ? "val" : "train";
const verbose = process.argv.includes("--verbose");

const pct = (x: number) => (x * 100).toFixed(1).padStart(5);
const row = (name: string, clear: ActionCounts, all: ActionCounts, questions: number | string) =>
  [
    name.padEnd(14),
    `${String(clear.detections).padStart(4)}`,
    `${pct(precision(clear))} ${pct(precisionWithoutNeutral(clear))} ${pct(recall(clear))} (${clear.matchedGold}/${clear.gold})`.padEnd(
      27,
    ),
    `${pct(precision(all))} ${pct(recall(all))} (${all.matchedGold}/${all.gold})`.padEnd(21),
    String(questions).padStart(4),
  ].join("  ");

const meetings = loadSplit(split);
let clearTotal = NO_COUNTS;
let allTotal = NO_COUNTS;
let questionTotal = 0;
let labelled = 0;
const lines: string[] = [];
const questionCounts: number[] = [];
for (const meeting of meetings) {
  const result = analyzeConversation(meeting.input);
  const questions = result.insights.filter((insight) => insight.type === "question").length;
  questionCounts.push(questions);
  if (meeting.goldActions === null) continue;
  labelled++;
  const gold = meeting.goldActions;
  const { clear, all } = scoreMeeting({ ...meeting, goldActions: gold }, result);
  clearTotal = addCounts(clearTotal, clear);
  allTotal = addCounts(allTotal, all);
  questionTotal += questions;
  lines.push(row(meeting.name, clear, all, questions));
  if (!verbose) continue;
  const onTurn = (turn: number) => gold.filter((g) => g.turn === turn || g.alsoAt.includes(turn));
  for (const insight of result.insights) {
    if (insight.type === "question") continue;
    const turn = meeting.input.messages.findIndex((m) => m.id === insight.messageIds[0]);
    const matches = onTurn(turn);
    const mark = matches.some((g) => g.confidence === "clear") ? "✓" : matches.length > 0 ? "~" : "✗";
    const who = insight.assigneeName ?? "-";
    lines.push(`    ${mark} ${turn} [${insight.type} ${insight.score} ${who}] ${insight.text}`);
  }
  const found = new Set(detectedActions(meeting, result).map((d) => d.turn));
  for (const item of gold)
    if (![item.turn, ...item.alsoAt].some((turn) => found.has(turn)))
      lines.push(`    MISSED ${item.turn} (${item.confidence} ${item.type}) ${item.quote}`);
}

console.log(`${split}: ${labelled} labelled meetings`);
console.log(
  `${"meeting".padEnd(14)}  det.  clear: P  P-neutral  R           all: P  R                questions`,
);
for (const line of lines) console.log(line);
console.log(row("overall", clearTotal, allTotal, (questionTotal / Math.max(1, labelled)).toFixed(1)));
console.log(
  `type agreement (clear + borderline): ${allTotal.sameType}/${allTotal.pairs} = ${pct(allTotal.sameType / Math.max(1, allTotal.pairs))} %`,
);
const meanQuestions = questionCounts.reduce((a, b) => a + b, 0) / Math.max(1, questionCounts.length);
console.log(
  `questions per meeting, all ${questionCounts.length} ${split} meetings: mean ${meanQuestions.toFixed(1)}, max ${Math.max(...questionCounts)}`,
);

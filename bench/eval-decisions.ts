/**
 * The decisions part of `npm run eval`: the analysis's decisions against QMSum's decision queries, at the
 * level of their turn spans (bench/metrics/decisions.ts) and by ROUGE against their answers, beside what a
 * reader had before there were decisions: the summary's sentences; and the decisions shown as readers judged
 * them (datasets/qmsum/decisions-judged.json).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeConversation } from "../src/analysis/analyze.ts";
import type { AnalysisResult } from "../src/analysis/types.ts";
import { addCounts } from "./metrics/counts.ts";
import {
  decisionPrecision,
  decisionRecall,
  NO_DECISION_COUNTS,
  outcomePrecision,
  scoreDecisions,
  type DecisionCounts,
} from "./metrics/decisions.ts";
import { rouge, type RougeScores } from "./metrics/rouge.ts";
import { QMSUM_DIR, type Meeting } from "./qmsum.ts";

type System = "decisions" | "summary";

export interface DecisionRow {
  name: string;
  counts: Record<System, DecisionCounts>;
  rouge: Record<System, RougeScores>;
}

/** What a system offers as decisions: its items' texts and the turns they cite. */
function itemsOf(meeting: Meeting, items: readonly { text: string; messageIds: string[] }[]) {
  const turnOf = new Map(meeting.input.messages.map((message, i) => [message.id, i]));
  return items.map((item) => ({
    text: item.text,
    turns: item.messageIds.flatMap((id) => {
      const turn = turnOf.get(id);
      return turn === undefined ? [] : [turn];
    }),
  }));
}

/** One row for a meeting with a decision query, none otherwise. */
export function evaluateDecisions(meeting: Meeting, result?: AnalysisResult): DecisionRow[] {
  if (meeting.decisionQueries.length === 0) return [];
  const analysis = result ?? analyzeConversation(meeting.input);
  const spans = meeting.decisionQueries.flatMap((q) => q.spans);
  const answers = meeting.decisionQueries.map((q) => q.answer).join(" ");
  const systems: Record<System, { text: string; turns: number[] }[]> = {
    decisions: itemsOf(meeting, analysis.decisions),
    // The opening overview line cites every chapter's first line: not a statement of a decision.
    summary: itemsOf(meeting, analysis.summary).filter((item) => item.turns.length === 1),
  };
  const score = (system: System) =>
    scoreDecisions(
      systems[system].map((item) => item.turns),
      spans,
      meeting.outcomeSpans,
    );
  const rougeOf = (system: System) => rouge(systems[system].map((item) => item.text).join(" "), answers);
  return [
    {
      name: meeting.name,
      counts: { decisions: score("decisions"), summary: score("summary") },
      rouge: { decisions: rougeOf("decisions"), summary: rougeOf("summary") },
    },
  ];
}

const fixed = (value: number): string => value.toFixed(2);
const pct = (value: number): string => (value * 100).toFixed(2);

function line(label: string, rows: readonly DecisionRow[], system: System): string {
  const c = rows.map((r) => r.counts[system]).reduce(addCounts, NO_DECISION_COUNTS);
  const mean = (pick: (s: RougeScores) => number) =>
    pct(rows.reduce((sum, r) => sum + pick(r.rouge[system]), 0) / Math.max(1, rows.length));
  return (
    `| ${label.padEnd(30)} | ${String(c.predicted).padStart(5)} | ${`${fixed(decisionPrecision(c))} (${c.correct})`.padEnd(11)} | ` +
    `${`${fixed(outcomePrecision(c))} (${c.correctWithOutcomes})`.padEnd(12)} | ${`${fixed(decisionRecall(c))} (${c.hit}/${c.spans})`.padEnd(12)} | ` +
    `${mean((s) => s.rouge1).padStart(6)} | ${mean((s) => s.rouge2).padStart(6)} | ${mean((s) => s.rougeL).padStart(6)} |`
  );
}

/** The decisions section: the split, the summary as the baseline, and train (learned on) for comparison. */
export function reportDecisions(
  split: string,
  rows: readonly DecisionRow[],
  trainRows: readonly DecisionRow[],
): string[] {
  const queries = rows.reduce((n, r) => n + r.counts.decisions.spans, 0);
  const lines = [
    `Decisions vs QMSum's decision queries (${rows.length} ${split} meetings with one; ${queries} reference spans).`,
    "A predicted decision is correct when every line it cites falls inside a reference decision span; recall is",
    "the share of reference spans with a correct decision inside. The spans cover only the decisions someone asked",
    "about, so P strict undercounts: P fair also counts a decision inside the span of another query whose answer",
    "reports a decision (docs/ANALYSIS.md, Decisions). ROUGE F1 x100 of the items' texts against the decision",
    "answers, mean over meetings. The summary rows are the baseline: its sentences taken as decisions. Train: learned on.",
    "",
    "| system                         | items | P strict    | P fair       | R spans      | R-1    | R-2    | R-L    |",
    "| ------------------------------ | ----- | ----------- | ------------ | ------------ | ------ | ------ | ------ |",
    line(`Recap decisions, ${split}`, rows, "decisions"),
    line(`summary sentences, ${split}`, rows, "summary"),
  ];
  if (trainRows.length > 0) {
    lines.push(line("Recap decisions, train", trainRows, "decisions"));
    lines.push(line("summary sentences, train", trainRows, "summary"));
  }
  return lines;
}

/**
 * A sentence that an analysis showed as a decision, as readers judged it: whether a reader of a summary's
 * decisions takes it for one (docs/ANALYSIS.md, Decisions). "development" sentences were read while the
 * statement patterns were written; "held-out" ones were judged only after, blind to which analysis showed them.
 */
interface JudgedSentence {
  split: string;
  meeting: string;
  turn: number;
  sentence: string;
  decision: "yes" | "no";
  round: "development" | "held-out";
}

const JUDGED: readonly JudgedSentence[] = JSON.parse(
  readFileSync(join(QMSUM_DIR, "decisions-judged.json"), "utf8"),
) as JudgedSentence[];

/** A meeting's shown decisions against the judgements: judged ones, yes or no, and ones nobody judged. */
export interface JudgedRow {
  round: JudgedSentence["round"];
  shown: number;
  yes: number;
  no: number;
}

/** The judged row of a meeting whose decisions were judged, none otherwise. */
export function judgeDecisions(meeting: Meeting, result: AnalysisResult): JudgedRow[] {
  const judged = JUDGED.filter((j) => j.meeting === meeting.name);
  const round = judged[0]?.round;
  if (round === undefined) return [];
  const row: JudgedRow = { round, shown: 0, yes: 0, no: 0 };
  for (const item of itemsOf(meeting, result.decisions)) {
    row.shown++;
    const verdict = judged.find((j) => item.turns.includes(j.turn) && j.sentence === item.text)?.decision;
    if (verdict === "yes") row.yes++;
    if (verdict === "no") row.no++;
  }
  return [row];
}

/** The judged precision of the decisions shown, per round of judgement. */
export function reportJudged(split: string, rows: readonly JudgedRow[]): string[] {
  const lines = [
    `Decisions shown, as readers judged them (datasets/qmsum/decisions-judged.json; ${split}): a judged decision is`,
    'a sentence a reader of the summary\'s decisions takes for one. "development": read while the statement',
    'patterns were written; "held-out": judged after, blind. Precision is yes / judged; "not judged" counts',
    "decisions shown that no reader saw (written after the judgements).",
    "",
    "| round       | meetings | shown | judged yes | judged no | not judged | precision |",
    "| ----------- | -------- | ----- | ---------- | --------- | ---------- | --------- |",
  ];
  for (const round of ["development", "held-out"] as const) {
    const of = rows.filter((r) => r.round === round);
    if (of.length === 0) continue;
    const sum = (pick: (r: JudgedRow) => number) => of.reduce((n, r) => n + pick(r), 0);
    const [shown, yes, no] = [sum((r) => r.shown), sum((r) => r.yes), sum((r) => r.no)];
    lines.push(
      `| ${round.padEnd(11)} | ${String(of.length).padStart(8)} | ${String(shown).padStart(5)} | ${String(yes).padStart(10)} | ` +
        `${String(no).padStart(9)} | ${String(shown - yes - no).padStart(10)} | ${fixed(yes / Math.max(1, yes + no)).padStart(9)} |`,
    );
  }
  return lines;
}

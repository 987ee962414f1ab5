/** The action-item part of `npm run eval`: detections scored against the hand-labelled gold items. */
import { analyzeConversation } from "../src/analysis/analyze.ts";
import type { AnalysisResult } from "../src/analysis/types.ts";
import { addCounts } from "./metrics/counts.ts";
import {
  NO_COUNTS,
  precision,
  precisionWithoutNeutral,
  recall,
  scoreActions,
  type ActionCounts,
  type GoldAction,
} from "./metrics/actions.ts";
import { detectedActions, type Meeting } from "./qmsum.ts";

export interface ActionRow {
  name: string;
  clear: ActionCounts;
  all: ActionCounts;
}

/** A labelled meeting's detections in an analysis, scored clear-only and clear + borderline. */
export function scoreMeeting(
  meeting: Meeting & { goldActions: GoldAction[] },
  result: AnalysisResult,
): ActionRow {
  const detections = detectedActions(meeting, result);
  return {
    name: meeting.name,
    clear: scoreActions(detections, meeting.goldActions, "clear"),
    all: scoreActions(detections, meeting.goldActions, "all"),
  };
}

/** One row for a labelled meeting, none for a meeting without gold labels. */
export function evaluateActions(meeting: Meeting): ActionRow[] {
  const { goldActions } = meeting;
  if (goldActions === null) return [];
  return [scoreMeeting({ ...meeting, goldActions }, analyzeConversation(meeting.input))];
}

const fixed = (value: number): string => value.toFixed(2);

/** The header of the action-item tables (`overall` rows). */
export const ACTION_TABLE_HEADER = [
  "| meetings                   | detections | P clear     | R clear       | P all | R all         | type agr. |",
  "| -------------------------- | ---------- | ----------- | ------------- | ----- | ------------- | --------- |",
];

/** A table row: the rows' counts summed, clear-only and clear + borderline. */
export function overall(label: string, rows: readonly ActionRow[]): string {
  const clear = rows.map((r) => r.clear).reduce(addCounts, NO_COUNTS);
  const all = rows.map((r) => r.all).reduce(addCounts, NO_COUNTS);
  const agreement = all.pairs === 0 ? "–" : fixed(all.sameType / all.pairs);
  return (
    `| ${label.padEnd(26)} | ${String(clear.detections).padStart(10)} | ${fixed(precision(clear))} (${fixed(precisionWithoutNeutral(clear))}) | ` +
    `${fixed(recall(clear))} (${clear.matchedGold}/${clear.gold})`.padEnd(13) +
    ` | ${fixed(precision(all)).padEnd(5)} | ${`${fixed(recall(all))} (${all.matchedGold}/${all.gold})`.padEnd(13)} | ${agreement.padStart(9)} |`
  );
}

/**
 * The action-item section: per meeting of the split, the split overall, and beside it the labelled train
 * meetings (`trainRows`, from evaluateActions), which the rules learn nothing from.
 */
export function reportActions(
  split: string,
  rows: readonly ActionRow[],
  trainRows: readonly ActionRow[],
): string[] {
  const lines = [
    `Action items and follow-ups vs the hand-labelled gold items (datasets/qmsum/ACTIONS.md; ${rows.length} ${split} meetings).`,
    "A detection (an action item or follow-up) matches a gold item when it rests on the item's turn or one of its",
    "alsoAt turns. Clear-only precision in brackets leaves out detections that match only a borderline item.",
    "Type agreement: matched pairs whose action-item/follow-up type equals the gold type.",
    "",
    ...ACTION_TABLE_HEADER,
    ...rows.map((row) => overall(row.name, [row])),
    overall(`${split} overall`, rows),
  ];
  if (trainRows.length > 0) lines.push(overall(`train (${trainRows.length} labelled)`, trainRows));
  return lines;
}

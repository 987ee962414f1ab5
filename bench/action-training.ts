/**
 * Training data and training of the action-item model (src/analysis/action-model.ts): every sentence the
 * model scores in a labelled QMSum meeting, with its features, labelled by the hand-labelled gold items
 * (datasets/qmsum/ACTIONS.md), and a logistic regression over them (bench/linear.ts, deterministic: the
 * same rows give the same weights).
 */
import {
  actionContext,
  actionFeatures,
  mayStateTask,
  ACTION_FEATURE_NAMES,
} from "../src/analysis/action-features.ts";
import { actionProbability, type ActionModel } from "../src/analysis/action-model.ts";
import { prepareSentences } from "../src/analysis/analyze.ts";
import { wordsOf } from "../src/analysis/nlp.ts";
import { fitLogistic, type LabelledRow } from "./linear.ts";
import { NO_COUNTS, scoreActions, type ActionCounts, type GoldAction } from "./metrics/actions.ts";
import { addCounts } from "./metrics/counts.ts";
import type { Meeting } from "./qmsum.ts";

/** A scored sentence of a labelled meeting: its line, its features and its words (for the labels). */
export interface ScoredSentence {
  messageIndex: number;
  features: number[];
  words: string[];
}

export interface LabelledMeeting {
  name: string;
  gold: GoldAction[];
  sentences: ScoredSentence[];
}

/** How the shipped model is trained: its L2 penalty, whether borderline items are positives, and the folds. */
export interface TrainingSettings {
  l2: number;
  borderline: boolean;
}

export const FOLDS = 5;

const wordsIn = (text: string): string[] =>
  text
    .replace(/\{\w+\}/g, " ")
    .toLowerCase()
    .match(/[\p{L}\p{N}']+/gu) ?? [];

/** The sentences the model scores in a labelled meeting, with their features. */
export function labelledMeeting(meeting: Meeting & { goldActions: GoldAction[] }): LabelledMeeting {
  const context = actionContext(meeting.input);
  const sentences = prepareSentences(meeting.input).flatMap((sentence) => {
    const words = wordsOf(sentence);
    if (!mayStateTask(words)) return [];
    return [
      {
        messageIndex: sentence.messageIndex,
        features: actionFeatures(sentence, words, context),
        words: wordsIn(sentence.text),
      },
    ];
  });
  return { name: meeting.name, gold: meeting.goldActions, sentences };
}

/** A gold item's quote and a sentence overlap when they share this many words in a row (or all of a shorter quote). */
const OVERLAP_WORDS = 3;

function overlaps(sentence: readonly string[], quote: readonly string[]): boolean {
  const size = Math.min(OVERLAP_WORDS, quote.length);
  const grams = new Set(
    sentence.slice(0, sentence.length - size + 1).map((_, i) => sentence.slice(i, i + size).join(" ")),
  );
  return quote.some((_, i) => i + size <= quote.length && grams.has(quote.slice(i, i + size).join(" ")));
}

/** Words of at least this many letters are a task's content words ("design", "minutes", not "the"). */
const CONTENT_LETTERS = 4;
/** A restating sentence shares this many content words with the item's quote or task. */
const RESTATING_WORDS = 2;

function restates(sentence: readonly string[], item: GoldAction): boolean {
  const content = new Set(
    [...wordsIn(item.quote), ...wordsIn(item.task)].filter((w) => w.length >= CONTENT_LETTERS),
  );
  return new Set(sentence.filter((w) => content.has(w))).size >= RESTATING_WORDS;
}

/**
 * The training rows of a labelled meeting. The sentences of a gold item's turn that overlap its quote are
 * positive (clear items, and borderline ones when `borderline` is true), and so are the sentences of its
 * other turns (`alsoAt`) that restate it (share content words with its quote or task), since the guideline
 * counts a detection there as finding the item; the other sentences of those turns, and the turns of an
 * item not counted, are left out, as they half-state a task.
 */
export function trainingRows(meeting: LabelledMeeting, borderline: boolean): LabelledRow[] {
  const counted = meeting.gold.filter((item) => borderline || item.confidence === "clear");
  const quotes = new Map<number, string[][]>();
  for (const item of counted) quotes.set(item.turn, [...(quotes.get(item.turn) ?? []), wordsIn(item.quote)]);
  const skipped = new Set(
    meeting.gold.flatMap((item) => (counted.includes(item) ? item.alsoAt : [item.turn, ...item.alsoAt])),
  );
  return meeting.sentences.flatMap((sentence) => {
    const onTurn = quotes.get(sentence.messageIndex);
    const positive =
      (onTurn !== undefined && onTurn.some((quote) => overlaps(sentence.words, quote))) ||
      counted.some((item) => item.alsoAt.includes(sentence.messageIndex) && restates(sentence.words, item));
    if (!positive && skipped.has(sentence.messageIndex)) return [];
    return [{ features: sentence.features, label: positive ? 1 : 0 }];
  });
}

/** The model fitted on the meetings' rows, at `threshold`. */
export function trainModel(
  meetings: readonly LabelledMeeting[],
  settings: TrainingSettings,
  threshold: number,
): ActionModel {
  const fitted = fitLogistic(
    meetings.flatMap((m) => trainingRows(m, settings.borderline)),
    settings.l2,
  );
  if (fitted.weights.length !== ACTION_FEATURE_NAMES.length) throw new Error("no training rows");
  return { ...fitted, threshold };
}

/** The k folds of meetings (by name order, every k-th meeting), so a meeting is never split. */
export function folds<T extends { name: string }>(meetings: readonly T[], k: number = FOLDS): T[][] {
  const sorted = [...meetings].sort((a, b) => a.name.localeCompare(b.name));
  return Array.from({ length: k }, (_, fold) => sorted.filter((_, i) => i % k === fold));
}

/**
 * Each meeting's highest sentence probability per line when it is held out: k models, each fitted on the
 * other folds, score every sentence of the held-out meetings.
 */
export function heldOutLineProbabilities(
  meetings: readonly LabelledMeeting[],
  settings: TrainingSettings,
): Map<string, Map<number, number>> {
  const result = new Map<string, Map<number, number>>();
  for (const fold of folds(meetings)) {
    const model = trainModel(
      meetings.filter((m) => !fold.includes(m)),
      settings,
      0.5,
    );
    for (const meeting of fold) {
      const lines = new Map<number, number>();
      for (const { messageIndex, features } of meeting.sentences)
        lines.set(messageIndex, Math.max(lines.get(messageIndex) ?? 0, actionProbability(features, model)));
      result.set(meeting.name, lines);
    }
  }
  return result;
}

/** The counts of the lines whose probability reaches `threshold`, against each meeting's gold items. */
export function countsAt(
  meetings: readonly LabelledMeeting[],
  probabilities: ReadonlyMap<string, ReadonlyMap<number, number>>,
  threshold: number,
  gold: "clear" | "all",
): ActionCounts {
  return meetings
    .map((meeting) => {
      const detections = [...(probabilities.get(meeting.name) ?? [])]
        .filter(([, probability]) => probability >= threshold)
        .map(([turn]) => ({ turn, type: "action_item" as const }));
      return scoreActions(detections, meeting.gold, gold);
    })
    .reduce(addCounts, NO_COUNTS);
}

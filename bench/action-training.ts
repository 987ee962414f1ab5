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
  sentencePhrases,
  ACTION_FEATURE_NAMES,
} from "../src/analysis/action-features.ts";
import { actionProbability, type ActionModel } from "../src/analysis/action-model.ts";
import { prepareSentences } from "../src/analysis/analyze.ts";
import { wordsOf } from "../src/analysis/nlp.ts";
import { fitLogistic } from "./linear.ts";
import { NO_COUNTS, scoreActions, type ActionCounts, type GoldAction } from "./metrics/actions.ts";
import { addCounts } from "./metrics/counts.ts";
import type { Meeting } from "./qmsum.ts";

/**
 * A scored sentence of a labelled meeting: its line, its features, the phrases it says (sentencePhrases) and
 * its words (for the labels).
 */
export interface ScoredSentence {
  messageIndex: number;
  features: number[];
  phrases: Set<string>;
  words: string[];
}

export interface LabelledMeeting {
  name: string;
  gold: GoldAction[];
  sentences: ScoredSentence[];
}

/**
 * How the shipped model is trained: its L2 penalty, whether borderline items are positives, and how many
 * phrases it weighs (choosePhrases).
 */
export interface TrainingSettings {
  l2: number;
  borderline: boolean;
  phrases: number;
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
        phrases: sentencePhrases(words),
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
 * The training sentences of a labelled meeting, each with its label. The sentences of a gold item's turn that overlap its quote are
 * positive (clear items, and borderline ones when `borderline` is true), and so are the sentences of its
 * other turns (`alsoAt`) that restate it (share content words with its quote or task), since the guideline
 * counts a detection there as finding the item; the other sentences of those turns, and the turns of an
 * item not counted, are left out, as they half-state a task.
 */
export function labelledSentences(
  meeting: LabelledMeeting,
  borderline: boolean,
): { sentence: ScoredSentence; label: number }[] {
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
    return [{ sentence, label: positive ? 1 : 0 }];
  });
}

/** A training row's inputs: the sentence's features, then whether it says each of `phrases` (0 or 1). */
function actionInputs(sentence: ScoredSentence, phrases: readonly string[]): number[] {
  return [...sentence.features, ...phrases.map((phrase) => (sentence.phrases.has(phrase) ? 1 : 0))];
}

/**
 * A phrase is weighed only when this many training sentences say it, in at least this many meetings: so its
 * weight rests on more than a few lines, and not on one meeting's subject ("stage 3" of one bill).
 */
const MIN_PHRASE_SENTENCES = 15;
const MIN_PHRASE_MEETINGS = 10;

/** How many of the meetings say each phrase (in a sentence the model scores). */
export function meetingsSaying(meetings: readonly LabelledMeeting[]): Map<string, number> {
  const spread = new Map<string, number>();
  for (const meeting of meetings) {
    const said = new Set(meeting.sentences.flatMap((sentence) => [...sentence.phrases]));
    for (const phrase of said) spread.set(phrase, (spread.get(phrase) ?? 0) + 1);
  }
  return spread;
}

/**
 * The `count` phrases whose presence tells the training sentences' labels apart best (the chi-square
 * statistic of a 2×2 table; ties by the phrase), in that order, among those said in MIN_PHRASE_SENTENCES
 * sentences and MIN_PHRASE_MEETINGS meetings (`spread`, meetingsSaying).
 */
export function choosePhrases(
  rows: readonly { sentence: ScoredSentence; label: number }[],
  spread: ReadonlyMap<string, number>,
  count: number,
): string[] {
  if (count === 0) return [];
  const positives = rows.filter((row) => row.label === 1).length;
  const said = new Map<string, { sentences: number; positives: number }>();
  for (const { sentence, label } of rows) {
    for (const phrase of sentence.phrases) {
      const tally = said.get(phrase) ?? { sentences: 0, positives: 0 };
      tally.sentences += 1;
      tally.positives += label;
      said.set(phrase, tally);
    }
  }
  const chiSquare = ({ sentences, positives: hits }: { sentences: number; positives: number }): number => {
    const cells = [
      [hits, (sentences * positives) / rows.length],
      [sentences - hits, (sentences * (rows.length - positives)) / rows.length],
      [positives - hits, ((rows.length - sentences) * positives) / rows.length],
      [
        rows.length - sentences - positives + hits,
        ((rows.length - sentences) * (rows.length - positives)) / rows.length,
      ],
    ];
    return cells.reduce(
      (sum, [seen = 0, expected = 0]) => sum + (expected > 0 ? (seen - expected) ** 2 / expected : 0),
      0,
    );
  };
  return [...said]
    .filter(
      ([phrase, tally]) =>
        tally.sentences >= MIN_PHRASE_SENTENCES && (spread.get(phrase) ?? 0) >= MIN_PHRASE_MEETINGS,
    )
    .map(([phrase, tally]) => ({ phrase, score: chiSquare(tally) }))
    .sort((a, b) => b.score - a.score || a.phrase.localeCompare(b.phrase))
    .slice(0, count)
    .map(({ phrase }) => phrase);
}

/** The model fitted on the meetings' labelled sentences, at `threshold`. */
export function trainModel(
  meetings: readonly LabelledMeeting[],
  settings: TrainingSettings,
  threshold: number,
): ActionModel {
  const rows = meetings.flatMap((m) => labelledSentences(m, settings.borderline));
  const phrases = choosePhrases(rows, meetingsSaying(meetings), settings.phrases);
  const fitted = fitLogistic(
    rows.map(({ sentence, label }) => ({
      features: actionInputs(sentence, phrases),
      label,
    })),
    settings.l2,
  );
  if (fitted.weights.length !== ACTION_FEATURE_NAMES.length + phrases.length)
    throw new Error("no training rows");
  return { ...fitted, phrases, threshold };
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
      for (const { messageIndex, features, phrases } of meeting.sentences) {
        const probability = actionProbability(features, phrases, model);
        lines.set(messageIndex, Math.max(lines.get(messageIndex) ?? 0, probability));
      }
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

/**
 * Training data and training of the action-item model (src/analysis/action-model.ts): one row per
 * sentence of a labelled QMSum meeting with its features, labelled by the hand-labelled gold items
 * (datasets/qmsum/ACTIONS.md), and an L2-regularised logistic regression fitted by Newton's method
 * (iteratively reweighted least squares), which is deterministic: the same rows give the same weights.
 */
import { actionContext, actionFeatures, ACTION_FEATURE_NAMES } from "../src/analysis/action-features.ts";
import { actionProbability, type ActionModel } from "../src/analysis/action-model.ts";
import { prepareSentences } from "../src/analysis/analyze.ts";
import { wordsOf } from "../src/analysis/nlp.ts";
import { solve } from "./linear.ts";
import type { GoldAction } from "./metrics/actions.ts";
import type { Meeting } from "./qmsum.ts";

export interface SentenceRow {
  meeting: string;
  messageIndex: number;
  features: number[];
  /** 1 when the sentence states a gold item (at its turn, overlapping its quote), else 0. */
  label: number;
}

/** A gold item's quote and a sentence overlap when they share this many words in a row (or all of a shorter quote). */
const OVERLAP_WORDS = 3;

const wordsIn = (text: string): string[] =>
  text
    .replace(/\{\w+\}/g, " ")
    .toLowerCase()
    .match(/[\p{L}\p{N}']+/gu) ?? [];

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
 * The rows of a labelled meeting. The sentences of a gold item's turn that overlap its quote are positive
 * (clear items, and borderline ones when `borderline` is true), and so are the sentences of its other turns
 * (`alsoAt`) that restate it (share content words with its quote or task), since the guideline counts a
 * detection there as finding the item; the other sentences of those turns, and the turns of an item left
 * out, are left out, as they half-state the task.
 */
export function sentenceRows(
  meeting: Meeting,
  gold: readonly GoldAction[],
  borderline: boolean,
): SentenceRow[] {
  const sentences = prepareSentences(meeting.input);
  const context = actionContext(meeting.input);
  const counted = gold.filter((item) => borderline || item.confidence === "clear");
  const quotes = new Map<number, string[][]>();
  for (const item of counted) quotes.set(item.turn, [...(quotes.get(item.turn) ?? []), wordsIn(item.quote)]);
  const skipped = new Set(
    gold.flatMap((item) => (counted.includes(item) ? item.alsoAt : [item.turn, ...item.alsoAt])),
  );
  const rows: SentenceRow[] = [];
  for (const sentence of sentences) {
    const words = wordsIn(sentence.text);
    const onTurn = quotes.get(sentence.messageIndex);
    const positive =
      (onTurn !== undefined && onTurn.some((quote) => overlaps(words, quote))) ||
      counted.some((item) => item.alsoAt.includes(sentence.messageIndex) && restates(words, item));
    if (!positive && skipped.has(sentence.messageIndex)) continue;
    rows.push({
      meeting: meeting.name,
      messageIndex: sentence.messageIndex,
      features: actionFeatures(sentence, wordsOf(sentence), context),
      label: positive ? 1 : 0,
    });
  }
  return rows;
}

/** Newton steps; the fit converges in far fewer on these data. */
const NEWTON_STEPS = 25;

/** Weights of a logistic regression with an L2 penalty `l2` on every weight but the bias. */
export function fitLogistic(rows: readonly SentenceRow[], l2: number): number[] {
  const size = ACTION_FEATURE_NAMES.length;
  let weights = new Array<number>(size).fill(0);
  for (let step = 0; step < NEWTON_STEPS; step++) {
    const hessian = Array.from({ length: size }, (_, j) => {
      const row = new Array<number>(size).fill(0);
      row[j] = j === 0 ? 1e-6 : l2;
      return row;
    });
    const gradient = weights.map((w, j) => (j === 0 ? 0 : l2 * w));
    for (const { features, label } of rows) {
      const p = actionProbability(features, { weights, threshold: 0.5 });
      const curvature = p * (1 - p);
      for (let j = 0; j < size; j++) {
        const x = features[j] ?? 0;
        if (x === 0) continue;
        gradient[j] = (gradient[j] ?? 0) + (p - label) * x;
        const line = hessian[j] ?? [];
        for (let k = 0; k < size; k++) line[k] = (line[k] ?? 0) + curvature * x * (features[k] ?? 0);
      }
    }
    const change = solve(hessian, gradient);
    weights = weights.map((w, j) => w - (change[j] ?? 0));
    if (Math.max(...change.map(Math.abs)) < 1e-8) break;
  }
  return weights;
}

/** The model fitted on `rows`, its weights rounded to four decimals. */
export function trainModel(rows: readonly SentenceRow[], l2: number, threshold: number): ActionModel {
  return { weights: fitLogistic(rows, l2).map((w) => Math.round(w * 10_000) / 10_000), threshold };
}

/** The k folds of meetings (by name order, every k-th meeting), so a meeting is never split. */
export function folds<T extends { name: string }>(meetings: readonly T[], k: number): T[][] {
  const sorted = [...meetings].sort((a, b) => a.name.localeCompare(b.name));
  return Array.from({ length: k }, (_, fold) => sorted.filter((_, i) => i % k === fold));
}

/** How the shipped model is trained: its penalty, whether borderline items count as tasks, and the folds. */
export const TRAINING = { l2: 1, borderline: true, folds: 5 } as const;

/** Sentence probabilities of each meeting when it is held out: k models, each fitted on the other folds. */
export function heldOutProbabilities(
  rowsByMeeting: ReadonlyMap<string, SentenceRow[]>,
  k: number,
  l2: number,
): Map<string, { messageIndex: number; probability: number }[]> {
  const names = [...rowsByMeeting.keys()].map((name) => ({ name }));
  const result = new Map<string, { messageIndex: number; probability: number }[]>();
  for (const fold of folds(names, k)) {
    const held = new Set(fold.map((m) => m.name));
    const rows = [...rowsByMeeting].flatMap(([name, list]) => (held.has(name) ? [] : list));
    const model = { weights: fitLogistic(rows, l2), threshold: 0.5 };
    for (const name of held)
      result.set(
        name,
        (rowsByMeeting.get(name) ?? []).map((row) => ({
          messageIndex: row.messageIndex,
          probability: actionProbability(row.features, model),
        })),
      );
  }
  return result;
}

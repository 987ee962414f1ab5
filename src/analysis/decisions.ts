import { decisionCandidates, statesDecision } from "./decision-features.ts";
import { DECISION_MODEL } from "./decision-weights.ts";
import { DECISION_UNFINISHED_ENDS, FORMAL_SITTING } from "./lexicon.ts";
import type { Sentence } from "./nlp.ts";
import { readableSentence, statesWhole } from "./tidy.ts";
import { matchesWords } from "./unicode-words.ts";
import type { AnalysisInput, DecisionItem } from "./types.ts";

/** The decision scorer and how many of its sentences are kept (learned on QMSum train, docs/ANALYSIS.md). */
export interface DecisionOptions {
  bias: number;
  /** One weight per decision feature (DECISION_FEATURE_NAMES order). */
  weights: readonly number[];
  /** A sentence is a decision when its probability reaches this. */
  threshold: number;
  /**
   * Two decisions are at least this many messages apart (one discussion, one decision); in a conversation of
   * fewer than spacing × maxDecisions messages, its share of them (messages / maxDecisions).
   */
  spacing: number;
  /** At most this many decisions per conversation, the likeliest. */
  maxDecisions: number;
}

export const DEFAULT_DECISION_OPTIONS: DecisionOptions = DECISION_MODEL;

/** A candidate's probability of stating a decision: the logistic of its weighted features. */
export function decisionProbability(features: readonly number[], options: DecisionOptions): number {
  let z = options.bias;
  features.forEach((value, i) => (z += value * (options.weights[i] ?? 0)));
  return 1 / (1 + Math.exp(-z));
}

/** A scored candidate: its sentence index, its message index and its probability. */
export interface ScoredSentence {
  index: number;
  messageIndex: number;
  probability: number;
}

/**
 * Which scored sentences become decisions: the likeliest first, each kept when it reaches the threshold,
 * is far enough from every one already kept (DecisionOptions.spacing, in a conversation of
 * `messageCount` messages) and `readable` accepts it, up to `maxDecisions`. Returns their sentence indices
 * in conversation order.
 */
export function pickDecisions(
  scored: readonly ScoredSentence[],
  messageCount: number,
  options: DecisionOptions,
  readable: (index: number) => boolean = () => true,
): number[] {
  const spacing = Math.min(options.spacing, Math.floor(messageCount / options.maxDecisions));
  const ranked = scored
    .filter((candidate) => candidate.probability >= options.threshold)
    .sort((a, b) => b.probability - a.probability || a.index - b.index);
  const kept: ScoredSentence[] = [];
  for (const candidate of ranked) {
    if (kept.length >= options.maxDecisions) break;
    const near = kept.some((k) => Math.abs(k.messageIndex - candidate.messageIndex) < spacing);
    if (!near && readable(candidate.index)) kept.push(candidate);
  }
  return kept.map((k) => k.index).sort((a, b) => a - b);
}

/** Words a decision states itself in, at least: "We'll keep the battery" is one, "So it's fine" is not. */
const MIN_DECISION_WORDS = 5;

/**
 * Whether sentence `index` may be shown as a decision: it states a choice made (statesDecision) as a whole
 * statement, not a fragment or a cut-off sentence (statesWhole), and, as it reads once cleaned, does not end
 * on its choice verb (DECISION_UNFINISHED_ENDS: "we have to keep, yeah" reads "We have to keep.").
 */
export function statedDecision(sentences: readonly Sentence[], index: number): boolean {
  const sentence = sentences[index] as Sentence;
  const text = readableSentence(sentence.text);
  const last = text.toLowerCase().match(/\p{L}+(?=\P{L}*$)/u)?.[0] ?? "";
  return (
    statesDecision(sentence) &&
    statesWhole(sentence, text, MIN_DECISION_WORDS) &&
    !DECISION_UNFINISHED_ENDS.has(last)
  );
}

/**
 * A sitting is formal when at least this share of its lines, and this many, speak of the chair, ministers,
 * the committee or the house (FORMAL_SITTING): QMSum's train committee sittings do in 10 % of their lines or
 * more (15 lines at the least), its other meetings in at most 0.5 % (2 lines).
 */
const FORMAL_SITTING_SHARE = 0.05;
const FORMAL_SITTING_LINES = 5;

/**
 * Whether a conversation is a formal sitting (a parliamentary or assembly committee, a hearing). There the
 * choices a sentence states are the government's, a witness's body's or the chair's rulings on procedure, not
 * decisions the sitting took: of the 14 sentences Recap showed as decisions in QMSum's 30 train and val
 * committee sittings, none was one (docs/ANALYSIS.md, Decisions).
 */
export function isFormalSitting(input: AnalysisInput): boolean {
  const formal = input.messages.filter((message) => matchesWords(FORMAL_SITTING, message.text)).length;
  return formal >= FORMAL_SITTING_LINES && formal >= FORMAL_SITTING_SHARE * input.messages.length;
}

/**
 * A conversation's decisions: each a readable sentence that states a choice made (statesDecision), linked to
 * its message. A conversation where no likely sentence states one has none, and so has a formal sitting
 * (isFormalSitting), where such sentences are not the sitting's decisions.
 */
export function findDecisions(input: AnalysisInput, sentences: readonly Sentence[]): DecisionItem[] {
  if (isFormalSitting(input)) return [];
  const speakers = input.messages.map((m) => m.memberId ?? m.speakerName);
  const options = DEFAULT_DECISION_OPTIONS;
  const scored = decisionCandidates(sentences, speakers, input.messages.length).map((candidate) => ({
    index: candidate.index,
    messageIndex: (sentences[candidate.index] as Sentence).messageIndex,
    probability: decisionProbability(candidate.features, options),
  }));
  return pickDecisions(scored, input.messages.length, options, (index) =>
    statedDecision(sentences, index),
  ).map((index) => ({
    text: readableSentence((sentences[index] as Sentence).text),
    messageIds: [input.messages[(sentences[index] as Sentence).messageIndex]?.id ?? ""],
  }));
}

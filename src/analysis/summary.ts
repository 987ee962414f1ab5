import { WORD, type Sentence } from "./nlp.ts";
import { summaryCandidates } from "./summary-features.ts";
import { SUMMARY_WEIGHTS } from "./summary-weights.ts";
import { readableSentence } from "./tidy.ts";
import type { AnalysisInput, SummaryItem, TopicItem } from "./types.ts";
import { cosine } from "./vectors.ts";

/** Tunable settings of the extractive summarizer (tuned on QMSum train, see docs/ANALYSIS.md). */
export interface SummaryOptions {
  /** Words to aim for in the whole summary. */
  wordBudget: number;
  /** Sentences shorter than this (in words) are never picked. */
  minWords: number;
  /** Sentences longer than this are never picked (long rambling turns). */
  maxWords: number;
  /** MMR trade-off: penalty for similarity to sentences already picked. */
  redundancy: number;
  /** One weight per summary feature (FEATURE_NAMES order); learned on train by bench/train-summary.ts. */
  weights: readonly number[];
}

export const DEFAULT_SUMMARY_OPTIONS: SummaryOptions = {
  wordBudget: 70,
  minWords: 6,
  maxWords: 60,
  redundancy: 0.6,
  weights: SUMMARY_WEIGHTS,
};

/** Once something is picked, a sentence that would take the summary past this share of its budget is skipped. */
const BUDGET_OVERSHOOT = 1.25;

export interface PickedSentence {
  sentence: Sentence;
  text: string;
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => WORD.test(w)).length;
}

/** A candidate's score: its standardised features weighted by the learned weights. */
function scoreOf(features: readonly number[], weights: readonly number[]): number {
  let score = 0;
  features.forEach((value, i) => (score += value * (weights[i] ?? 0)));
  return score;
}

/**
 * Picks the sentences of an extractive summary: the learned scorer ranks candidates, MMR keeps
 * redundancy down, until the word budget is reached; returned in conversation order, each as
 * readable text. `speakers` holds a speaker key per message index.
 */
export function selectSummarySentences(
  sentences: readonly Sentence[],
  options: SummaryOptions = DEFAULT_SUMMARY_OPTIONS,
  speakers: readonly (string | null)[] = [],
): PickedSentence[] {
  const candidates = summaryCandidates(sentences, speakers, options).map((candidate) => ({
    ...candidate,
    score: scoreOf(candidate.features, options.weights),
  }));

  // MMR: each round takes the best score minus similarity to what is already picked; the maximum
  // similarity of every candidate is updated with the newest pick only.
  const picked: { index: number; text: string }[] = [];
  const maxSimilarity = new Array<number>(candidates.length).fill(0);
  const taken = new Array<boolean>(candidates.length).fill(false);
  let used = 0;
  for (let round = 0; round < candidates.length && used < options.wordBudget; round++) {
    let best = -1;
    let bestValue = -Infinity;
    candidates.forEach((candidate, i) => {
      if (taken[i]) return;
      const value = candidate.score - options.redundancy * (maxSimilarity[i] ?? 0);
      if (value > bestValue) {
        bestValue = value;
        best = i;
      }
    });
    const choice = candidates[best];
    if (choice === undefined) break;
    taken[best] = true;
    // Only picked sentences are made readable; one with nothing readable left is passed over.
    const text = readableSentence((sentences[choice.index] as Sentence).text);
    const words = countWords(text);
    // Do not overshoot the budget by much with one long sentence once something is picked.
    if (words === 0 || (picked.length > 0 && used + words > options.wordBudget * BUDGET_OVERSHOOT)) continue;
    picked.push({ index: choice.index, text });
    used += words;
    candidates.forEach((candidate, i) => {
      if (taken[i]) return;
      const similarity = cosine(candidate.vector, choice.vector);
      if (similarity > (maxSimilarity[i] ?? 0)) maxSimilarity[i] = similarity;
    });
  }
  return picked
    .sort((a, b) => a.index - b.index)
    .map((c) => ({ sentence: sentences[c.index] as Sentence, text: c.text }));
}

/** The title topic-labels.ts gives a segment without a noun phrase: not worth naming in an overview. */
const UNTITLED_CHAPTER = "general discussion";

/** A chapter title as a noun phrase in a sentence: "the budget"; names and acronyms stay bare ("TCL"). */
function withArticle(title: string): string {
  return /^\p{Lu}/u.test(title) ? title : `the ${title}`;
}

/** Items joined as prose: "A", "A and B", "A, B and C". */
function listOf(items: readonly string[]): string {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1] ?? ""}`;
}

/**
 * The summary's opening line from the topics, in meeting order ("The meeting was about the budget,
 * the buttons and the remote control."): the chapters and, for a meeting of few chapters, its key-phrase
 * topics, each placed and linked by its first message; null when fewer than two topics have a title.
 * `messageIds` are the conversation's, in order.
 */
export function overviewItem(
  topics: readonly TopicItem[],
  messageIds: readonly string[],
): SummaryItem | null {
  const position = new Map(messageIds.map((id, i) => [id, i]));
  const start = (topic: TopicItem): number => position.get(topic.messageIds[0] ?? "") ?? Infinity;
  const seen = new Set<string>();
  const titled = topics
    .filter((t) => t.messageIds.length > 0)
    .sort((a, b) => start(a) - start(b))
    .filter((topic) => {
      const title = topic.text.trim().toLowerCase();
      if (title === "" || title === UNTITLED_CHAPTER || seen.has(title)) return false;
      seen.add(title);
      return true;
    });
  if (titled.length < 2) return null;
  return {
    text: `The meeting was about ${listOf(titled.map((t) => withArticle(t.text.trim())))}.`,
    messageIds: titled.map((t) => t.messageIds[0] ?? ""),
  };
}

/**
 * The summary of a conversation: the overview line from its topics, then the picked
 * sentences as readable text, each attributed to its speaker ("Project Manager: We need …") and
 * linked to its message.
 */
export function summaryItems(
  input: AnalysisInput,
  sentences: readonly Sentence[],
  topics: readonly TopicItem[],
  options: SummaryOptions = DEFAULT_SUMMARY_OPTIONS,
): SummaryItem[] {
  const speakers = input.messages.map((m) => m.memberId ?? m.speakerName);
  const overview = overviewItem(
    topics,
    input.messages.map((m) => m.id),
  );
  const picked = selectSummarySentences(sentences, options, speakers).map((p) => {
    const message = input.messages[p.sentence.messageIndex];
    const name = message?.speakerName?.trim() ?? "";
    return { text: name === "" ? p.text : `${name}: ${p.text}`, messageIds: [message?.id ?? ""] };
  });
  return overview === null ? picked : [overview, ...picked];
}

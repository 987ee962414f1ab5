import { DANGLING_ENDS } from "./lexicon.ts";
import { WORD, type Sentence } from "./nlp.ts";
import { summaryCandidates } from "./summary-features.ts";
import { SUMMARY_WEIGHTS } from "./summary-weights.ts";
import { readableSentence, statesWhole } from "./tidy.ts";
import type { AnalysisInput, InsightItem, SummaryItem, TopicItem } from "./types.ts";
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
  /** Only whole statements are picked: no question, no fragment, nothing cut off (tidy.ts statesWhole). */
  statementsOnly: boolean;
  /** At most this many action items with an owner open the summary ("Dana will send the budget."). */
  maxOutcomes: number;
}

export const DEFAULT_SUMMARY_OPTIONS: SummaryOptions = {
  wordBudget: 70,
  minWords: 6,
  maxWords: 60,
  redundancy: 0.6,
  weights: SUMMARY_WEIGHTS,
  statementsOnly: true,
  maxOutcomes: 2,
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

/** Whether a summary may quote a sentence: a whole statement (tidy.ts statesWhole), not a question. */
function statesThing(sentence: Sentence, text: string, minWords: number): boolean {
  return !text.endsWith("?") && statesWhole(sentence, text, minWords) && countWords(text) >= minWords;
}

/**
 * Picks the sentences of an extractive summary: the learned scorer ranks candidates, MMR keeps
 * redundancy down, until the word budget is reached; returned in conversation order, each as
 * readable text. With `statementsOnly`, questions and fragments are passed over unless nothing else
 * can be picked (a short chat). `speakers` holds a speaker key per message index; sentences of the
 * messages in `skipMessages` (already said by the outcomes) are not picked.
 */
export function selectSummarySentences(
  sentences: readonly Sentence[],
  options: SummaryOptions = DEFAULT_SUMMARY_OPTIONS,
  speakers: readonly (string | null)[] = [],
  skipMessages: ReadonlySet<number> = new Set(),
): PickedSentence[] {
  const candidates = summaryCandidates(sentences, speakers, options)
    .filter((candidate) => !skipMessages.has((sentences[candidate.index] as Sentence).messageIndex))
    .map((candidate) => ({ ...candidate, score: scoreOf(candidate.features, options.weights) }));

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
    const sentence = sentences[choice.index] as Sentence;
    const text = readableSentence(sentence.text);
    if (options.statementsOnly && !statesThing(sentence, text, options.minWords)) continue;
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
  if (picked.length === 0 && options.statementsOnly && options.wordBudget > 0) {
    return selectSummarySentences(sentences, { ...options, statementsOnly: false }, speakers, skipMessages);
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

/** A first-person commitment's opening and its third-person form: "I'll send …" → "Dana will send …". */
const COMMITMENTS: readonly [RegExp, string][] = [
  [/^I(?:'ll| will| shall)\s+/, "will"],
  [/^I(?:'m| am) going to\s+/, "is going to"],
  [/^I have to\s+/, "has to"],
  [/^I need to\s+/, "needs to"],
];

/**
 * Words in a commitment's rest that make it no outcome to lead with (seen in QMSum train): "I" again is a
 * restart ("I'll I have to do is …"), "you" a favour or reported speech ("will pick up your dry-cleaning").
 */
const NOT_OWN = /\b(?:I|I'm|I'll|I've|I'd|me|my|myself|you|your|you'd|you'll)\b/i;

/**
 * Last words of a rest that say nothing on their own ("will take a closer look at it") or that were cut
 * off ("will check on"): DANGLING_ENDS and these.
 */
const EMPTY_ENDS = new Set(["it", "this", "them", "those", "there", "on", "in"]);

/** An action item as an outcome in the third person with its owner, or null when it cannot be said so. */
function outcomeText(insight: InsightItem, minWords: number): string | null {
  const owner = insight.assigneeName?.trim() ?? "";
  const text = readableSentence(insight.text);
  if (owner === "" || text === "" || text.endsWith("?")) return null;
  if (text.startsWith(`${owner} will `)) return text;
  for (const [opening, verb] of COMMITMENTS) {
    const match = opening.exec(text);
    if (match === null) continue;
    const rest = text.slice(match[0].length);
    const last = (rest.split(" ").at(-1) ?? "").replace(/\W+$/, "").toLowerCase();
    if (NOT_OWN.test(rest) || EMPTY_ENDS.has(last) || DANGLING_ENDS.has(last)) return null;
    const outcome = `${owner} ${verb} ${rest}`;
    return countWords(outcome) >= minWords ? outcome : null;
  }
  return null;
}

/**
 * The summary's outcome part: up to `options.maxOutcomes` action items with an owner, stated in the
 * third person, most confident first within half the word budget, then in conversation order; each
 * linked to its line. `messageIds` are the conversation's, in order.
 */
export function outcomeItems(
  insights: readonly InsightItem[],
  messageIds: readonly string[],
  options: SummaryOptions = DEFAULT_SUMMARY_OPTIONS,
): SummaryItem[] {
  const position = new Map(messageIds.map((id, i) => [id, i]));
  const at = (item: SummaryItem): number => position.get(item.messageIds[0] ?? "") ?? Infinity;
  const ranked = insights
    .filter((insight) => insight.type === "action_item")
    .map((insight) => ({ insight, text: outcomeText(insight, options.minWords) }))
    .filter((o): o is { insight: InsightItem; text: string } => o.text !== null)
    .sort((a, b) => b.insight.score - a.insight.score);
  const chosen: SummaryItem[] = [];
  let used = 0;
  for (const { insight, text } of ranked) {
    if (chosen.length >= options.maxOutcomes) break;
    const words = countWords(text);
    if (used + words > options.wordBudget / 2) continue;
    chosen.push({ text, messageIds: insight.messageIds });
    used += words;
  }
  return chosen.sort((a, b) => at(a) - at(b));
}

/** A summary's parts: the overview line, the outcomes, and the quoted sentences with their speakers. */
export interface SummaryParts {
  overview: SummaryItem | null;
  outcomes: SummaryItem[];
  quotes: (SummaryItem & { speaker: string })[];
}

/**
 * The parts of a conversation's summary: the overview line from its topics, the outcomes from its
 * action items, then picked sentences (within what is left of the word budget) as readable text, each
 * with its speaker's name ("" when unknown) and linked to its message.
 */
export function summaryParts(
  input: AnalysisInput,
  sentences: readonly Sentence[],
  topics: readonly TopicItem[],
  insights: readonly InsightItem[],
  options: SummaryOptions = DEFAULT_SUMMARY_OPTIONS,
): SummaryParts {
  const ids = input.messages.map((m) => m.id);
  const speakers = input.messages.map((m) => m.memberId ?? m.speakerName);
  const outcomes = outcomeItems(insights, ids, options);
  const said = new Set(ids.flatMap((id, i) => (outcomes.some((o) => o.messageIds.includes(id)) ? [i] : [])));
  const left = options.wordBudget - outcomes.reduce((sum, o) => sum + countWords(o.text), 0);
  const quotes = selectSummarySentences(sentences, { ...options, wordBudget: left }, speakers, said).map(
    (p) => {
      const message = input.messages[p.sentence.messageIndex];
      return { text: p.text, messageIds: [message?.id ?? ""], speaker: message?.speakerName?.trim() ?? "" };
    },
  );
  return { overview: overviewItem(topics, ids), outcomes, quotes };
}

/**
 * The summary of a conversation: the overview line, the outcomes ("Dana will send the budget."),
 * then the picked sentences, each attributed to its speaker ("Project Manager: We need …"); every
 * item linked to its message(s).
 */
export function summaryItems(
  input: AnalysisInput,
  sentences: readonly Sentence[],
  topics: readonly TopicItem[],
  insights: readonly InsightItem[] = [],
  options: SummaryOptions = DEFAULT_SUMMARY_OPTIONS,
): SummaryItem[] {
  const { overview, outcomes, quotes } = summaryParts(input, sentences, topics, insights, options);
  return [
    ...(overview === null ? [] : [overview]),
    ...outcomes,
    ...quotes.map((q) => ({
      text: q.speaker === "" ? q.text : `${q.speaker}: ${q.text}`,
      messageIds: q.messageIds,
    })),
  ];
}

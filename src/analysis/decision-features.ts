/**
 * What the decision scorer knows about each candidate sentence: the words that state a choice, the
 * replies that accept it, and where it stands in the meeting. Raw values (no standardisation within the
 * meeting), so that one learned threshold means the same in every meeting. bench/train-decisions.ts
 * learns the weights (decision-weights.ts) from these features.
 */
import {
  AGREEMENT_REPLY,
  DECISION_AGENDA,
  DECISION_CHOICE,
  DECISION_GROUP_FUTURE,
  DECISION_HEDGE,
  DECISION_NEGATIVE_CHOICE,
  DECISION_RECAP,
  DECISION_STATEMENT,
  DECISION_WORD,
  FIRST_PERSON_WORDS,
} from "./lexicon.ts";
import { contentTerms, wordCount, type Sentence } from "./nlp.ts";

/** The features, in the order of a feature vector and of the learned weights. */
export const DECISION_FEATURE_NAMES = [
  "decisionWord",
  "choice",
  "groupFuture",
  "negativeChoice",
  "recap",
  "firstPerson",
  "we",
  "you",
  "numbers",
  "length",
  "density",
  "commonness",
  "firstInTurn",
  "agreementAfter",
  "nearbyDecisionWords",
  "speakerShare",
  "position",
  "late",
] as const;

/** A sentence that may state a decision: not a question, worded as a choice (statesChoice), of these many words. */
const MIN_WORDS = 5;
const MAX_WORDS = 60;

/** Replies to a sentence read for agreement: the next few messages by someone else. */
const REPLIES_READ = 3;
/** A reply that accepts is short: a few words ("Yeah, sure.", "Okay, agreed."). */
const AGREEMENT_MAX_WORDS = 6;
/** Messages either side in which other decision words are counted. */
const NEARBY_MESSAGES = 10;

const WE_WORDS = new Set(["we", "us", "our"]);
const YOU_WORDS = new Set(["you", "your"]);

/** A candidate sentence and its raw features (DECISION_FEATURE_NAMES order). */
export interface DecisionCandidate {
  index: number;
  features: number[];
}

/** The sentence as its lowercased normal forms between spaces, for the lexicon's phrase patterns. */
function normalText(sentence: Sentence): string {
  return ` ${sentence.tokens.map((t) => t.normal).join(" ")} `;
}

const count = (pattern: RegExp, text: string): number => text.match(pattern)?.length ?? 0;

/** How often a sentence uses each kind of word that marks a choice made (lexicon.ts). */
interface ChoiceWords {
  decisionWord: number;
  choice: number;
  groupFuture: number;
  negativeChoice: number;
  recap: number;
}

function choiceWords(text: string, decisionWord: number): ChoiceWords {
  return {
    decisionWord,
    choice: count(DECISION_CHOICE, text),
    groupFuture: count(DECISION_GROUP_FUTURE, text),
    negativeChoice: count(DECISION_NEGATIVE_CHOICE, text),
    recap: count(DECISION_RECAP, text),
  };
}

/**
 * Whether a sentence is worded as a choice made, so that a decision reads as one: it names a decision,
 * picks or drops something, says what the group will do or sums up, and does not hedge ("maybe", "I
 * wonder if"). The learned weights then rank these.
 */
function statesChoice(words: ChoiceWords, text: string): boolean {
  return Object.values(words).some((n) => n > 0) && count(DECISION_HEDGE, text) === 0;
}

/**
 * Whether a sentence states a choice made, so that a reader takes it for a decision (DECISION_STATEMENT:
 * "we've decided it's going to be a rubber case", "let's go with five then"): not one still to take or
 * asked about (DECISION_AGENDA: "we have to come to a decision on …"), and without a hedge. Of the
 * candidates the model ranks, only these are shown as decisions (decisions.ts).
 */
export function statesDecision(sentence: Sentence): boolean {
  const text = normalText(sentence);
  return DECISION_STATEMENT.test(text) && !DECISION_AGENDA.test(text) && count(DECISION_HEDGE, text) === 0;
}

/**
 * The sentences that may state a decision, with their features. `speakers` holds a speaker key per
 * message index (null when unknown); `messageCount` is the number of messages.
 */
export function decisionCandidates(
  sentences: readonly Sentence[],
  speakers: readonly (string | null)[],
  messageCount: number,
): DecisionCandidate[] {
  const texts = sentences.map(normalText);
  const words = sentences.map(wordCount);
  const decisionWords = texts.map((text) => count(DECISION_WORD, text));

  // Per message: its words, whether it is a short accepting reply, and its decision words.
  const messageWords = new Array<number>(messageCount).fill(0);
  const messageAgrees = new Array<boolean>(messageCount).fill(false);
  const messageDecisionWords = new Array<number>(messageCount).fill(0);
  const speakerWords = new Map<string, number>();
  let totalWords = 0;
  sentences.forEach((sentence, i) => {
    const m = sentence.messageIndex;
    const n = words[i] ?? 0;
    messageWords[m] = (messageWords[m] ?? 0) + n;
    if (AGREEMENT_REPLY.test(texts[i] ?? "")) messageAgrees[m] = true;
    messageDecisionWords[m] = (messageDecisionWords[m] ?? 0) + (decisionWords[i] ?? 0);
    totalWords += n;
    const speaker = speakers[m];
    if (speaker != null) speakerWords.set(speaker, (speakerWords.get(speaker) ?? 0) + n);
  });
  const prefix = [0];
  for (let m = 0; m < messageCount; m++) prefix.push((prefix[m] ?? 0) + (messageDecisionWords[m] ?? 0));

  const terms = sentences.map(contentTerms);
  const frequency = new Map<string, number>();
  for (const list of terms) for (const term of list) frequency.set(term, (frequency.get(term) ?? 0) + 1);

  const lastMessage = Math.max(1, messageCount - 1);
  const candidates: DecisionCandidate[] = [];
  sentences.forEach((sentence, index) => {
    const n = words[index] ?? 0;
    if (n < MIN_WORDS || n > MAX_WORDS || sentence.text.trim().endsWith("?")) return;
    const text = texts[index] ?? "";
    const marked = choiceWords(text, decisionWords[index] ?? 0);
    if (!statesChoice(marked, text)) return;
    const list = terms[index] ?? [];
    const m = sentence.messageIndex;
    const speaker = speakers[m];
    let agreements = 0;
    let replies = 0;
    for (let r = m + 1; r < messageCount && replies < REPLIES_READ; r++) {
      if (speaker != null && speakers[r] === speaker) continue;
      replies++;
      if (messageAgrees[r] && (messageWords[r] ?? 0) <= AGREEMENT_MAX_WORDS) agreements++;
    }
    const nearby =
      (prefix[Math.min(messageCount, m + NEARBY_MESSAGES + 1)] ?? 0) -
      (prefix[Math.max(0, m - NEARBY_MESSAGES)] ?? 0) -
      (messageDecisionWords[m] ?? 0);
    const normals = sentence.tokens.map((t) => t.normal);
    const root = Math.sqrt(n);
    const relative = m / lastMessage;
    const features: Record<(typeof DECISION_FEATURE_NAMES)[number], number> = {
      decisionWord: Math.min(1, marked.decisionWord),
      choice: Math.min(1, marked.choice),
      groupFuture: Math.min(1, marked.groupFuture),
      negativeChoice: Math.min(1, marked.negativeChoice),
      recap: Math.min(1, marked.recap),
      firstPerson: normals.filter((w) => FIRST_PERSON_WORDS.has(w)).length / root,
      we: normals.filter((w) => WE_WORDS.has(w)).length / root,
      you: normals.filter((w) => YOU_WORDS.has(w)).length / root,
      numbers: sentence.tokens.some((t) => t.pos === "NUM") ? 1 : 0,
      length: Math.log(n),
      density: list.length / n,
      commonness:
        list.length === 0
          ? 0
          : list.reduce((sum, t) => sum + Math.log(frequency.get(t) ?? 1), 0) / list.length,
      firstInTurn: sentence.position === 0 ? 1 : 0,
      agreementAfter: agreements / REPLIES_READ,
      nearbyDecisionWords: Math.log(1 + nearby),
      speakerShare: speaker == null ? 0 : (speakerWords.get(speaker) ?? 0) / Math.max(1, totalWords),
      position: relative,
      late: Math.exp(-(1 - relative) / 0.1),
    };
    candidates.push({ index, features: DECISION_FEATURE_NAMES.map((name) => features[name]) });
  });
  return candidates;
}

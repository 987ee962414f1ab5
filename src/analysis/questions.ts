/** Whether a sentence asks a question a reader can answer, rather than a tag, a check or a half-statement. */
import {
  AUX_STARTS,
  BACKCHANNEL,
  FRAGMENT_STARTS,
  MEETING_STOP_WORDS,
  OPENERS,
  RHETORICAL_CHECK,
  SUBJECT_PRONOUNS,
  TAG_QUESTION,
  WH_WORDS,
} from "./lexicon.ts";
import { addressedName } from "./names.ts";
import { wordsOf, type Sentence, type Token, type Words } from "./nlp.ts";
import type { AnalysisInput, InsightItem } from "./types.ts";

/** Shorter sentences ask too little to list ("Is it?", "Why not?"). */
const MIN_QUESTION_WORDS = 4;

/** A "?" after fewer words than this, without an interrogative form, is a statement said rising. */
const MIN_MARKED_STATEMENT_WORDS = 6;

/** Without a "?", an inverted start makes a question only from this many words ("do you know where …"). */
const MIN_UNMARKED_QUESTION_WORDS = 5;

/** Words between a wh-word and its verb: "how many", "what else", "which ones", "what time". */
const WH_MODIFIER_POS = new Set(["ADJ", "ADV", "NOUN", "NUM"]);

/** True when a clause opens like a question: "do you …", "is it …", "what do …", "who wants …". */
function opensQuestion(tokens: readonly Token[], at: number): boolean {
  const first = tokens[at]?.normal ?? "";
  const second = tokens[at + 1]?.normal ?? "";
  // "do you …", "are those delays …", "is the hand-held …", "isn't it …"
  const subjectAt = second === "not" ? at + 2 : at + 1;
  const subject = tokens[subjectAt];
  const subjectWord = subject?.normal ?? "";
  // A clause that stops at its subject is a tag ("…, isn't it?"), not a question of its own.
  if (
    AUX_STARTS.has(first) &&
    tokens[subjectAt + 1] !== undefined &&
    (SUBJECT_PRONOUNS.has(subjectWord) ||
      (subject?.pos === "DET" && subjectWord !== "a" && subjectWord !== "an"))
  )
    return true;
  if (!WH_WORDS.has(first)) return false;
  // "what do you …", "who wants …", "how many are there", "what else does it need"; not "what we're aiming
  // to do is …" (a pronoun before the verb makes it a statement).
  for (let i = at + 1; i <= at + 3; i++) {
    const token = tokens[i];
    if (token === undefined) return false;
    if (AUX_STARTS.has(token.normal) || token.normal === "'s" || token.pos === "VERB") return true;
    if (!WH_MODIFIER_POS.has(token.pos)) return false;
  }
  return false;
}

/**
 * A statement or fragment said with a rising tone rather than a question a reader can act on: no verb
 * ("Brightness and contrast?"), a dangling "or?", a subordinate opening ("That we're starting so well?"),
 * a wh-word used as a relative ("Where you can activate it?") or under six words ("You do it higher?").
 */
function isHalfStatement(words: Words): boolean {
  const n = words.normals.slice(openerLength(words.normals));
  if (n.length < MIN_MARKED_STATEMENT_WORDS) return true;
  if (!words.tokens.some((t) => t.pos === "VERB" || t.pos === "AUX")) return true;
  if (n[n.length - 1] === "or") return true;
  // "What if …" and "how about …" ask; other wh-words without an inverted verb are relatives.
  if (WH_WORDS.has(n[0] ?? "")) return n[1] !== "if" && n[1] !== "about";
  return FRAGMENT_STARTS.has(n[0] ?? "");
}

/** Number of spoken openers before a clause ("so", "okay", "and", "or"), leaving at least one word. */
function openerLength(normals: readonly string[]): number {
  let i = 0;
  while (i < normals.length - 1 && OPENERS.has(normals[i] ?? "")) i++;
  return i;
}

/**
 * Whether the sentence is a question, and whether it has an interrogative form (`strong`): an
 * auxiliary before its subject or a wh-word before its verb, at its start or after a comma.
 */
export function isQuestion(sentence: Sentence, words: Words): { question: boolean; strong: boolean } {
  const text = sentence.text.trim();
  if (words.normals.length < MIN_QUESTION_WORDS) return { question: false, strong: false };
  // Clause starts: the sentence start (after spoken openers: "So does that make sense?") and every word
  // after a comma ("What about the pens, did you …").
  let strong = opensQuestion(words.tokens, openerLength(words.normals));
  for (let i = 1; i < sentence.tokens.length && !strong; i++) {
    if (sentence.tokens[i - 1]?.value === ",") {
      const at = words.tokens.indexOf(sentence.tokens[i] as Token);
      if (at >= 0) strong = opensQuestion(words.tokens, at + openerLength(words.normals.slice(at)));
    }
  }
  const marked = text.endsWith("?");
  if (marked && TAG_QUESTION.test(text) && !strong) return { question: false, strong: false };
  if (RHETORICAL_CHECK.test(text)) return { question: false, strong: false };
  if (marked && !strong && isHalfStatement(words)) return { question: false, strong: false };
  // Without a "?", only an inverted start ("do you know where …") reads as a question.
  const first = words.normals[0] ?? "";
  const inverted = AUX_STARTS.has(first) && SUBJECT_PRONOUNS.has(words.normals[1] ?? "");
  return { question: marked || (inverted && words.normals.length >= MIN_UNMARKED_QUESTION_WORDS), strong };
}

/** A page lists at most this many questions: the most important ones. */
const MAX_QUESTIONS = 10;

/**
 * A question shorter than this (openers aside) with fewer than two content words asks too little to list:
 * "Which one was mine?", "So does that make sense?"; "Are those delays adjustable?" stays.
 */
const MIN_SHOWN_WORDS = 5;
const MIN_SHOWN_CONTENT_WORDS = 2;

/**
 * How much more a question matters when it gets an answer or is put to someone, added to its score (the
 * confidence that it is a question, which the API shows) to rank the questions.
 */
const ANSWERED_WEIGHT = 0.3;
const ADDRESSED_WEIGHT = 0.1;

/** A reply of fewer words than this, back-channels aside ("Yeah, yeah."), answers nothing. */
const MIN_ANSWER_WORDS = 3;

/** A question as found in its sentence, before ranking. */
export interface AskedQuestion {
  insight: InsightItem;
  sentence: Sentence;
}

const TO_LISTENER = new Set(["you", "your", "anyone", "anybody", "everyone", "everybody"]);

function contentWords(words: Words): number {
  return words.tokens.filter((t) => !t.stop && !MEETING_STOP_WORDS.has(t.normal) && /^\p{L}/u.test(t.normal))
    .length;
}

/**
 * The questions worth showing, most important first, at most MAX_QUESTIONS: questions that ask about
 * something (five words, or two content words), ranked higher when they get an answer (the question ends its
 * message and the next message is someone else's, with some words beyond "yeah") and when they are put to
 * someone (a name, "you", "anyone"). Ties keep conversation order.
 */
export function importantQuestions(
  asked: readonly AskedQuestion[],
  input: AnalysisInput,
  sentences: readonly Sentence[],
): InsightItem[] {
  const replyWords = new Map<number, number>();
  for (const sentence of sentences) {
    const said = wordsOf(sentence).normals.filter((w) => !BACKCHANNEL.has(w)).length;
    replyWords.set(sentence.messageIndex, (replyWords.get(sentence.messageIndex) ?? 0) + said);
  }
  const speaker = (index: number) => {
    const message = input.messages[index];
    return message?.memberId ?? message?.speakerName ?? null;
  };
  const ranked = asked.flatMap(({ insight, sentence }) => {
    const words = wordsOf(sentence);
    const length = words.normals.length - openerLength(words.normals);
    if (length < MIN_SHOWN_WORDS && contentWords(words) < MIN_SHOWN_CONTENT_WORDS) return [];
    const at = sentence.messageIndex;
    const endsMessage = sentences[sentence.index + 1]?.messageIndex !== at;
    const asker = speaker(at);
    const answerer = speaker(at + 1);
    const answered =
      endsMessage &&
      asker !== null &&
      answerer !== null &&
      answerer !== asker &&
      (replyWords.get(at + 1) ?? 0) >= MIN_ANSWER_WORDS;
    const addressed = addressedName(sentence) !== null || words.normals.some((w) => TO_LISTENER.has(w));
    const importance = insight.score + (answered ? ANSWERED_WEIGHT : 0) + (addressed ? ADDRESSED_WEIGHT : 0);
    return [{ insight, importance, order: sentence.index }];
  });
  return ranked
    .sort((a, b) => b.importance - a.importance || a.order - b.order)
    .slice(0, MAX_QUESTIONS)
    .map((question) => question.insight);
}

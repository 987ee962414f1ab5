import winkNLP, { type WinkMethods } from "wink-nlp";
import model from "wink-eng-lite-web-model";
import { MEETING_STOP_WORDS, OPENERS } from "./lexicon.ts";
import { stemOf } from "./stem.ts";
import { LETTER_OR_DIGIT } from "./unicode-words.ts";

/** One token of a cleaned sentence, with what the analysis needs from wink-nlp. */
export interface Token {
  /** As written ("Dana", "Friday"). */
  value: string;
  /** Lowercased normal form ("dana", "will" for "'ll"). */
  normal: string;
  /** Universal POS tag (NOUN, VERB, AUX, PROPN, …). */
  pos: string;
  /** Porter2 stem of the normal form. */
  stem: string;
  /** In wink's English stop-word list. */
  stop: boolean;
  /** Whitespace before the token, to rebuild the text exactly. */
  space: string;
}

/** A sentence of one message; sentences never span two messages. */
export interface Sentence {
  /** Position among all sentences of the conversation. */
  index: number;
  /** Index of the message it belongs to (in the input order). */
  messageIndex: number;
  /** Position among the sentences of its message. */
  position: number;
  text: string;
  tokens: Token[];
}

/**
 * Bounds on what the analysis reads, so that its time stays linear in the input whatever the text: the
 * stemmer's time grows with the cube of a word's length and the insight rules' with the square of a
 * sentence's. Real speech stays far below both (QMSum: no word over 43 characters, no sentence over
 * 202 tokens), so they change nothing there.
 */
export const MAX_WORD_CHARS = 64;
export const MAX_SENTENCE_TOKENS = 250;

/**
 * Text pasted without punctuation reads as one sentence of hundreds of words, which became one insight of
 * 1,500 characters and gave the summary nothing it could quote. A sentence with a run of more than
 * RUN_ON_WORDS words without a punctuation mark is cut into clauses of at most RUN_ON_PIECE_WORDS words
 * (splitRunOn). 20 of QMSum's 147,129 sentences have such a run.
 */
const RUN_ON_WORDS = 60;
const RUN_ON_PIECE_WORDS = 40;
/** A piece is not cut off at a clause start before it has this many words. */
const RUN_ON_MIN_PIECE_WORDS = 6;
/** Who starts a clause: "… last quarter we need a plan …", "… so I will check …". */
const CLAUSE_SUBJECTS = new Set(["i", "we", "you", "they", "he", "she"]);

/** A run of non-space characters longer than MAX_WORD_CHARS, which the analysis reads cut to that length. */
const LONG_WORD = new RegExp(`\\S{${MAX_WORD_CHARS + 1},}`, "g");

/** "I'm" (any case, straight or curly apostrophe), which wink keeps as a single token. */
const FIRST_PERSON_AM = /^i['’]m$/i;

/** The part of wink's core model that its cache adds unknown words to (see freshNlp). */
interface CoreFeature {
  hash?: Record<string, number>;
  list?: string[];
}
interface CoreModel {
  features: Record<string, CoreFeature>;
}

let pristineCore: CoreModel | null = null;
let metaCer: unknown = null;

/**
 * A wink-nlp instance that has read no document yet. wink keeps every unknown word it meets in its
 * instance's lexicon, and its tokenizer then keeps such a word whole where it would have split it
 * ("name's" → "name" + "'s" in one meeting, one token after another meeting said "name's" in a way it
 * kept whole), so an instance shared across conversations made the analysis depend on earlier ones.
 * Each call layers fresh feature tables over the core model decoded once per thread (~100 ms and
 * ~50 MB, too much to repeat per conversation): lookups fall through to the model's own entries, new
 * words land in the layer and go with it. A new instance costs a few milliseconds. The model's metaCER
 * loader re-encodes its module-level JSON on every call (growing it each time), so it is read once too.
 */
export function freshNlp(pipe: string[] = ["sbd", "pos"]): WinkMethods {
  pristineCore ??= (model.core as () => CoreModel)();
  metaCer ??= (model.metaCER as () => unknown)();
  const features: Record<string, CoreFeature> = {};
  for (const [name, feature] of Object.entries(pristineCore.features)) {
    features[name] =
      feature.hash === undefined || feature.list === undefined
        ? feature
        : {
            ...feature,
            hash: Object.create(feature.hash) as Record<string, number>,
            list: feature.list.slice(),
          };
  }
  const core: CoreModel = { ...pristineCore, features };
  return winkNLP({ ...model, core: () => core, metaCER: () => metaCer }, pipe);
}

/**
 * Splits already-cleaned message texts into sentences and tokens. All messages are read as one wink
 * document (one call is ~3× faster than one per message) and cut again at message boundaries.
 */
export function splitSentences(cleanTexts: readonly string[]): Sentence[] {
  const present: number[] = [];
  const parts: string[] = [];
  cleanTexts.forEach((text, i) => {
    const flat = text
      .replace(/\s+/g, " ")
      .trim()
      .replace(LONG_WORD, (word) => word.slice(0, MAX_WORD_CHARS));
    if (flat !== "") {
      present.push(i);
      parts.push(flat);
    }
  });
  if (parts.length === 0) return [];

  const winkNlp = freshNlp();
  const doc = winkNlp.readDoc(parts.join("\n\n"));
  const tokens = doc.tokens();
  /* eslint-disable @typescript-eslint/unbound-method -- wink's its.* helpers are stateless functions typed as methods */
  const its = winkNlp.its;
  const values = tokens.out(its.value);
  const normals = tokens.out(its.normal);
  const tags = tokens.out(its.pos);
  const stops = tokens.out(its.stopWordFlag) as unknown as boolean[];
  const spaces = tokens.out(its.precedingSpaces);
  const spans = doc.sentences().out(its.span) as unknown as [number, number][];
  /* eslint-enable @typescript-eslint/unbound-method */

  // Message of each token: the blank line between messages is read as a whitespace token (or, depending
  // on the model version, as preceding spaces); either starts the next message. Whitespace tokens get -1.
  const tokenMessage = new Array<number>(values.length);
  let part = 0;
  for (let t = 0; t < values.length; t++) {
    if ((values[t] ?? "").trim() === "") {
      tokenMessage[t] = -1;
      if (t > 0 && tokenMessage[t - 1] !== -1) part++;
      continue;
    }
    if (t > 0 && tokenMessage[t - 1] !== -1 && (spaces[t] ?? "").includes("\n")) part++;
    tokenMessage[t] = present[part] ?? present[present.length - 1] ?? 0;
  }

  const sentences: Sentence[] = [];
  let lastMessage = -1;
  let position = 0;
  const emitPart = (start: number, to: number): void => {
    let from = start;
    while (from <= to && tokenMessage[from] === -1) from++;
    if (to < from) return;
    const messageIndex = tokenMessage[from] ?? 0;
    if (messageIndex !== lastMessage) {
      lastMessage = messageIndex;
      position = 0;
    }
    const sentenceTokens: Token[] = [];
    for (let t = from; t <= to; t++) {
      if (tokenMessage[t] === -1) continue;
      const space = t === from ? "" : (spaces[t] ?? "");
      const value = values[t] ?? "";
      if (FIRST_PERSON_AM.test(value)) {
        // wink splits "it's" and "I'll" but reads "I'm" as one proper noun; the rules expect "i" + "am".
        sentenceTokens.push(
          { value: value.slice(0, 1), normal: "i", pos: "PRON", stem: "i", stop: true, space },
          { value: value.slice(1), normal: "am", pos: "AUX", stem: "am", stop: true, space: "" },
        );
        continue;
      }
      sentenceTokens.push({
        value,
        normal: normals[t] ?? value.toLowerCase(),
        pos: tags[t] ?? "X",
        stem: stemOf(normals[t] ?? value.toLowerCase()),
        stop: stops[t] ?? false,
        space,
      });
    }
    for (const piece of splitRunOn(sentenceTokens)) {
      sentences.push({
        index: sentences.length,
        messageIndex,
        position: position++,
        text: textOf(piece),
        tokens: piece,
      });
    }
  };
  // A run without a sentence end (one 100,000-word message) is cut into sentences of at most
  // MAX_SENTENCE_TOKENS tokens.
  const emit = (start: number, to: number): void => {
    for (let from = start; from <= to; from += MAX_SENTENCE_TOKENS) {
      emitPart(from, Math.min(to, from + MAX_SENTENCE_TOKENS - 1));
    }
  };

  for (const [start, end] of spans) {
    let from = start;
    for (let t = start + 1; t <= end; t++) {
      if (tokenMessage[t] === -1) {
        emit(from, t - 1);
        from = t + 1;
      } else if (t > from && tokenMessage[t - 1] !== -1 && tokenMessage[t] !== tokenMessage[t - 1]) {
        emit(from, t - 1);
        from = t;
      }
    }
    emit(from, end);
  }
  return sentences;
}

/** A sentence's text rebuilt from its tokens: one space wherever the text had any, none before the first. */
function textOf(tokens: readonly Token[]): string {
  let text = "";
  tokens.forEach((token, i) => (text += (i === 0 || token.space === "" ? "" : " ") + token.value));
  return text;
}

/** A verb after a subject, maybe after an adverb: "we will", "we also talked". */
function verbFollows(tokens: readonly Token[], i: number): boolean {
  const next = tokens[i + 1];
  const verb = next?.pos === "ADV" ? tokens[i + 2] : next;
  return verb?.pos === "AUX" || verb?.pos === "VERB";
}

/**
 * Whether a clause starts at token i: a subject before its verb ("we also talked", "Mark will"), an opener
 * before a subject ("then we"), or a question's auxiliary before its subject after a noun ("… the team
 * can you check").
 */
function startsClause(tokens: readonly Token[], i: number): boolean {
  const token = tokens[i];
  const next = tokens[i + 1];
  if (token === undefined || next === undefined) return false;
  if (OPENERS.has(token.normal)) return CLAUSE_SUBJECTS.has(next.normal) || next.pos === "PROPN";
  if (CLAUSE_SUBJECTS.has(token.normal)) return verbFollows(tokens, i);
  if (token.pos === "PROPN") return next.pos === "AUX";
  const before = tokens[i - 1]?.pos;
  return token.pos === "AUX" && CLAUSE_SUBJECTS.has(next.normal) && (before === "NOUN" || before === "PROPN");
}

/**
 * The sentence's tokens, or, when they hold a run of more than RUN_ON_WORDS words without a punctuation
 * mark, pieces cut where each clause starts once a piece has RUN_ON_MIN_PIECE_WORDS words, and at
 * RUN_ON_PIECE_WORDS words at the latest. The first token of a piece keeps no space before it.
 */
function splitRunOn(tokens: Token[]): Token[][] {
  let run = 0;
  let longest = 0;
  for (const token of tokens) {
    run = WORD.test(token.value) ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  if (longest <= RUN_ON_WORDS) return [tokens];
  const pieces: Token[][] = [];
  let start = 0;
  let words = 0;
  tokens.forEach((token, i) => {
    if (!WORD.test(token.value)) return;
    if ((words >= RUN_ON_MIN_PIECE_WORDS && startsClause(tokens, i)) || words === RUN_ON_PIECE_WORDS) {
      pieces.push(tokens.slice(start, i));
      start = i;
      words = 0;
    }
    words++;
  });
  pieces.push(tokens.slice(start));
  return pieces.map(([first, ...rest]) => [{ ...(first as Token), space: "" }, ...rest]);
}

const CONTENT_POS = new Set(["NOUN", "PROPN", "VERB", "ADJ", "NUM"]);

/** True for tokens that carry topic content: nouns, verbs, adjectives that are not stop words. */
export function isContentToken(token: Token): boolean {
  return (
    CONTENT_POS.has(token.pos) &&
    !token.stop &&
    token.normal.length > 1 &&
    /^\p{L}[\p{L}\p{M}\p{N}'-]*$/u.test(token.normal) &&
    !MEETING_STOP_WORDS.has(token.normal)
  );
}

const termsCache = new WeakMap<Sentence, string[]>();

/** Stems of the content tokens of a sentence (computed once per sentence object; do not mutate). */
export function contentTerms(sentence: Sentence): string[] {
  let terms = termsCache.get(sentence);
  if (terms === undefined) {
    terms = [];
    for (const token of sentence.tokens) if (isContentToken(token)) terms.push(token.stem);
    termsCache.set(sentence, terms);
  }
  return terms;
}

/** A token or written word with a letter or digit in it, not punctuation. */
export const WORD = LETTER_OR_DIGIT;

/** Number of word tokens (not punctuation). */
export function wordCount(sentence: Sentence): number {
  let n = 0;
  for (const token of sentence.tokens) if (WORD.test(token.value)) n++;
  return n;
}

/** A sentence's word tokens, without punctuation, and their normal forms. */
export interface Words {
  /** Lowercase normal forms: wink's "will" for "'ll" and "not" for "n't"; "'s" etc. as written. */
  normals: string[];
  tokens: Token[];
}

export function wordsOf(sentence: Sentence): Words {
  const tokens = sentence.tokens.filter((t) => WORD.test(t.value));
  return { tokens, normals: tokens.map((t) => t.normal) };
}

/** Noun phrases that can name a topic, found once per sentence and shared by the summary and the topics. */
import {
  EMPTY_TITLE_ADJECTIVES,
  FILLER_IDIOMS,
  GENERAL_NOUNS,
  NOT_LABEL_WORDS,
  SPEAKER_AND_ADDRESS_WORDS,
  VAGUE_ADJECTIVES,
} from "./lexicon.ts";
import { isContentToken, type Sentence, type Token } from "./nlp.ts";

/** At most this many words in a label: longer runs keep their last words (the head noun's end). */
const MAX_PHRASE_WORDS = 3;

/** A noun phrase of one sentence. */
export interface Phrase {
  /** Stems of its words: inflections are one phrase ("remote control", "remote controls"). */
  key: string;
  /** Its words' normal forms, as a label shows them. */
  text: string;
  /** Number of words (1 to MAX_PHRASE_WORDS). */
  words: number;
  /**
   * Whether it may title a topic (see isTitle). The summary weighs every phrase ("the project manager"
   * is a cue there); a chapter is never named after a role, a title, a name or half a word.
   */
  title: boolean;
}

const phraseCache = new WeakMap<Sentence, Phrase[]>();

interface PhraseWord {
  stem: string;
  normal: string;
  value: string;
  pos: string;
  /** Written right after a hyphen that joins it to the word before ("term" in "long-term"). */
  afterHyphen: boolean;
  /** The noun of a filler idiom ("course" in "of course"). */
  idiom: boolean;
}

/** An acronym as written ("TCL", "LCD"). */
const ACRONYM = /^\p{Lu}{2,}$/u;

/** A word that may start, continue or end a label: a content noun or adjective written as a word. */
function isLabelWord(token: Token): boolean {
  return (
    (token.pos === "NOUN" || token.pos === "PROPN" || token.pos === "ADJ") &&
    isContentToken(token) &&
    token.normal.length > 2 &&
    /^\p{L}[\p{L}\p{M}-]*[\p{L}\p{M}\p{N}]$/u.test(token.normal) &&
    !NOT_LABEL_WORDS.has(token.normal)
  );
}

/**
 * Whether a run of label words can stand as a topic: not made only of general nouns, and a single
 * word only when it is a common noun (names and adjectives alone say little) or an acronym ("TCL").
 */
function isLabel(words: readonly PhraseWord[]): boolean {
  if (words.every((w) => GENERAL_NOUNS.has(w.normal))) return false;
  if (words.length > 1) return true;
  const word = words[0];
  if (word === undefined) return false;
  if (ACRONYM.test(word.value)) return true;
  return word.pos === "NOUN" && !/(?:ful|ous|less)$/.test(word.normal);
}

/**
 * Whether a phrase may title a topic: no word for a speaker, a role or a form of address ("project
 * manager", "honourable minister"), a common noun or an acronym in it (a run of proper nouns names a
 * person, an office or a body: "Graeme Reid", "Auditor General"), not the noun of a filler idiom ("of
 * course"), not starting inside a hyphenated word ("term care homes" from "long-term care homes"), and
 * not only an empty adjective before general nouns ("interesting problem", "main issue").
 */
function isTitle(words: readonly PhraseWord[]): boolean {
  return (
    !words.every((w) => GENERAL_NOUNS.has(w.normal) || EMPTY_TITLE_ADJECTIVES.has(w.normal)) &&
    !words.some((w) => SPEAKER_AND_ADDRESS_WORDS.has(w.normal) || w.idiom) &&
    words.some((w) => w.pos === "NOUN" || ACRONYM.test(w.value)) &&
    words[0]?.afterHyphen !== true
  );
}

/**
 * Noun phrases that can label a topic: runs of adjectives and nouns ending in a noun, at most three
 * words, without filler, address or discourse words (see isLabel for single words, isTitle for topics).
 */
export function nounPhrases(sentence: Sentence): Phrase[] {
  // The summary and the topic labels both read them: computed once per sentence object (do not mutate).
  const cached = phraseCache.get(sentence);
  if (cached !== undefined) return cached;
  const phrases: Phrase[] = [];
  let run: PhraseWord[] = [];
  const flush = (): void => {
    while (run.length > 0 && run[run.length - 1]?.pos === "ADJ") run.pop();
    let words = run.slice(-MAX_PHRASE_WORDS);
    while (words.length > 1 && VAGUE_ADJECTIVES.has(words[0]?.normal ?? "")) words = words.slice(1);
    if (words.length > 0 && isLabel(words)) {
      phrases.push({
        key: words.map((w) => w.stem).join(" "),
        text: words.map((w) => w.normal).join(" "),
        words: words.length,
        title: isTitle(words),
      });
    }
    run = [];
  };
  let previous: Token | undefined;
  for (const token of sentence.tokens) {
    if (isLabelWord(token)) {
      run.push({
        stem: token.stem,
        normal: token.normal,
        value: token.value,
        pos: token.pos,
        afterHyphen: previous?.value === "-" && token.space === "",
        idiom: FILLER_IDIOMS.has(`${previous?.normal ?? ""}-${token.normal}`),
      });
    } else {
      flush();
    }
    previous = token;
  }
  flush();
  phraseCache.set(sentence, phrases);
  return phrases;
}

/**
 * The conversation's most frequent noun phrases with the messages that mention them, for conversations
 * too short to segment: each becomes a topic of its own. Frequency × words, ties by text.
 */
export function keyPhrases(
  sentences: readonly Sentence[],
  limit: number,
  /** Phrase keys (stems) already used as labels. */
  exclude: ReadonlySet<string>,
): { text: string; weight: number; messages: number[] }[] {
  const found = new Map<string, { key: string; text: string; weight: number; messages: Set<number> }>();
  for (const sentence of sentences) {
    for (const phrase of nounPhrases(sentence)) {
      if (!phrase.title) continue;
      const entry = found.get(phrase.key) ?? {
        key: phrase.key,
        text: phrase.text,
        weight: 0,
        messages: new Set<number>(),
      };
      entry.weight += phrase.words;
      entry.messages.add(sentence.messageIndex);
      found.set(phrase.key, entry);
    }
  }
  return [...found.values()]
    .filter((e) => !exclude.has(e.key))
    .sort((a, b) => b.weight - a.weight || (a.text < b.text ? -1 : 1))
    .slice(0, limit)
    .map((e) => ({ text: e.text, weight: e.weight, messages: [...e.messages].sort((a, b) => a - b) }));
}

import { stemOf } from "./stem.ts";

/** A tracker as matching needs it: its id, name and phrases. */
export interface TrackerDefinition {
  id: string;
  name: string;
  vocabulary: string[];
}

/** A text to search: a line, or an insight (with its type). */
export interface TrackedText {
  id: string;
  text: string;
  type?: string;
}

interface Ref {
  id: string;
  text: string;
  offset: number;
}

export interface TrackerMatch {
  type: "vocabulary";
  value: string;
  messageRefs: Ref[];
  insightRefs: (Ref & { type: string })[];
}

export interface DetectedTracker {
  id: string;
  name: string;
  matches: TrackerMatch[];
}

/** A word: letters and digits, with inner apostrophes ("don't") kept. */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

interface Word {
  stem: string;
  offset: number;
}

/** The words of a text as stems, each with where it starts in the text. */
function stemmed(text: string): Word[] {
  return [...text.matchAll(WORD)].map((match) => ({
    stem: stemOf(match[0].toLowerCase().replace(/’/g, "'")),
    offset: match.index,
  }));
}

/** Where the phrase's stems occur, one after another, in the text's: the character offset, or -1. */
function offsetOf(phrase: string[], words: Word[]): number {
  if (phrase.length === 0) return -1;
  outer: for (let i = 0; i + phrase.length <= words.length; i++) {
    for (let j = 0; j < phrase.length; j++) if (words[i + j]?.stem !== phrase[j]) continue outer;
    return words[i]?.offset ?? -1;
  }
  return -1;
}

/**
 * Each tracker with a match in the lines or insights, as Symbl's `/trackers` gave them: per phrase, the
 * lines and insights in which its words occur in a row, in any case and any inflection ("sending the
 * reports" for "send the report": words are compared by their Porter2 stems). Trackers without a match
 * are left out; `offset` is where the match starts in the text.
 */
export function detectTrackers(
  trackers: TrackerDefinition[],
  lines: TrackedText[],
  insights: TrackedText[],
): DetectedTracker[] {
  const stemmedLines = lines.map((line) => ({ line, words: stemmed(line.text) }));
  const stemmedInsights = insights.map((insight) => ({ insight, words: stemmed(insight.text) }));
  return trackers.flatMap((tracker) => {
    const matches = tracker.vocabulary.flatMap((value): TrackerMatch[] => {
      const phrase = stemmed(value).map((word) => word.stem);
      const messageRefs = stemmedLines.flatMap(({ line, words }) => {
        const offset = offsetOf(phrase, words);
        return offset < 0 ? [] : [{ id: line.id, text: line.text, offset }];
      });
      const insightRefs = stemmedInsights.flatMap(({ insight, words }) => {
        const offset = offsetOf(phrase, words);
        return offset < 0 ? [] : [{ id: insight.id, text: insight.text, offset, type: insight.type ?? "" }];
      });
      return messageRefs.length + insightRefs.length > 0
        ? [{ type: "vocabulary", value, messageRefs, insightRefs }]
        : [];
    });
    return matches.length > 0 ? [{ id: tracker.id, name: tracker.name, matches }] : [];
  });
}

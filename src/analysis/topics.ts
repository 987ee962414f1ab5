/** The topics of a conversation: its segments, each named by a noun phrase, and key phrases for short ones. */
import type { Sentence } from "./nlp.ts";
import { keyPhrases } from "./phrases.ts";
import { segmentBoundaries, type SegmentationOptions } from "./segmentation.ts";
import { labelSegments, roundScore } from "./topic-labels.ts";
import type { TopicItem } from "./types.ts";

/** Conversations with fewer segments than this also get key-phrase topics. */
const MIN_TOPICS = 3;

/** The score of the most frequent key phrase: key-phrase topics rank below the conversation's main segment. */
const KEY_PHRASE_TOP_SCORE = 0.8;

/** A key phrase's weight is its frequency × its words: a single word said once is not a topic. */
const MIN_KEY_PHRASE_WEIGHT = 2;

/** Topics by score, each with the ids of the messages it covers (a segment) or mentions (a key phrase). */
export function findTopics(
  sentences: readonly Sentence[],
  messageIds: readonly string[],
  /** Who said each message. */
  speakers: readonly (string | null)[],
  options: SegmentationOptions,
): TopicItem[] {
  const starts = segmentBoundaries(sentences, speakers, options);
  const segments = labelSegments(sentences, starts, messageIds.length);
  const topics: TopicItem[] = segments.map((segment) => ({
    kind: "chapter",
    text: segment.label,
    score: segment.score,
    messageIds: messageIds.slice(segment.startMessage, segment.endMessage + 1),
  }));
  // Too short to segment: also list the next key phrases, each with the messages that mention it.
  if (topics.length > 0 && topics.length < MIN_TOPICS) {
    const extra = keyPhrases(sentences, MIN_TOPICS - topics.length, new Set(segments.map((s) => s.labelKey)));
    const top = Math.max(1, ...extra.map((e) => e.weight));
    for (const phrase of extra) {
      if (phrase.weight < MIN_KEY_PHRASE_WEIGHT) continue;
      topics.push({
        kind: "phrase",
        text: phrase.text,
        score: roundScore((KEY_PHRASE_TOP_SCORE * phrase.weight) / top),
        messageIds: phrase.messages.map((i) => messageIds[i] ?? ""),
      });
    }
  }
  return topics.sort((a, b) => b.score - a.score);
}

import type { AnalysisInput, AnalysisResult, InsightItem, SummaryItem } from "./types.ts";
import { cleanTranscriptText } from "./clean.ts";
import { resolveDueDate } from "./dates.ts";
import { CLOSING_SHARE } from "./actions.ts";
import { classifySentence } from "./insights.ts";
import { splitSentences, type Sentence } from "./nlp.ts";
import { DEFAULT_SUMMARY_OPTIONS, selectSummarySentences, type SummaryOptions } from "./summary.ts";
import { DEFAULT_SEGMENTATION_OPTIONS, segmentBoundaries, type SegmentationOptions } from "./segmentation.ts";
import { findTopics } from "./topics.ts";

export interface AnalysisOptions {
  summary: SummaryOptions;
  segmentation: SegmentationOptions;
}

const DEFAULT_ANALYSIS_OPTIONS: AnalysisOptions = {
  summary: DEFAULT_SUMMARY_OPTIONS,
  segmentation: DEFAULT_SEGMENTATION_OPTIONS,
};

/** Cleans every text (one a message) and splits them into sentences: the shared first step. */
export function sentencesOf(texts: readonly string[]): Sentence[] {
  return splitSentences(texts.map(cleanTranscriptText));
}

/** The sentences of a conversation's messages (sentencesOf their texts). */
export function prepareSentences(input: AnalysisInput): Sentence[] {
  return sentencesOf(input.messages.map((m) => m.text));
}

/** Message index where each topic segment starts (the first is 0); [] for an empty conversation. */
export function topicSegmentStarts(
  input: AnalysisInput,
  options: SegmentationOptions = DEFAULT_SEGMENTATION_OPTIONS,
  sentences: readonly Sentence[] = prepareSentences(input),
): number[] {
  return segmentBoundaries(sentences, input.messages.length, options);
}

function referenceTime(input: AnalysisInput, messageIndex: number): Date {
  const message = input.messages[messageIndex];
  return new Date(message?.startTime ?? input.conversationStartTime);
}

function insightsOf(input: AnalysisInput, sentences: readonly Sentence[]): InsightItem[] {
  const insights: InsightItem[] = [];
  const seen = new Set<string>();
  const closingFrom = CLOSING_SHARE * input.messages.length;
  for (const sentence of sentences) {
    const found = classifySentence(sentence, { closing: sentence.messageIndex >= closingFrom });
    const message = input.messages[sentence.messageIndex];
    if (found === null || message === undefined) continue;
    const key = `${found.type}:${found.text.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const assigneeName =
      found.assignee === null
        ? null
        : found.assignee.kind === "speaker"
          ? message.speakerName
          : found.assignee.name;
    insights.push({
      type: found.type,
      text: found.text,
      score: found.score,
      messageIds: [message.id],
      memberId: message.memberId,
      assigneeName,
      assigneeMemberId: found.assignee?.kind === "speaker" ? message.memberId : null,
      dueBy:
        found.type === "question"
          ? null
          : resolveDueDate(sentence.text, referenceTime(input, sentence.messageIndex)),
    });
  }
  return insights;
}

/**
 * Turns a conversation's messages into a summary, topics and insights. Pure, synchronous and
 * deterministic: the same input always gives the same output; every id in it is an input message id.
 */
export function analyzeConversation(
  input: AnalysisInput,
  options: AnalysisOptions = DEFAULT_ANALYSIS_OPTIONS,
): AnalysisResult {
  const sentences = prepareSentences(input);
  const ids = input.messages.map((m) => m.id);

  const summary: SummaryItem[] = selectSummarySentences(sentences, options.summary).map((picked) => ({
    text: picked.text,
    messageIds: [ids[picked.sentence.messageIndex] ?? ""],
  }));

  return {
    summary,
    topics: findTopics(sentences, ids, options.segmentation),
    insights: insightsOf(input, sentences),
  };
}

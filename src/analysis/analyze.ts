import type { AnalysisInput, AnalysisResult } from "./types.ts";
import { cleanTranscriptText } from "./clean.ts";
import { findDecisions } from "./decisions.ts";
import { findInsights } from "./insights.ts";
import { detectLanguage } from "./detect-language.ts";
import { DEFAULT_LANGUAGE_CODE, isAnalysedLanguage } from "./language.ts";
import { splitSentences, type Sentence } from "./nlp.ts";
import { DEFAULT_SUMMARY_OPTIONS, summaryItems, type SummaryOptions } from "./summary.ts";
import { DEFAULT_SEGMENTATION_OPTIONS, segmentBoundaries, type SegmentationOptions } from "./segmentation.ts";
import { findTopics } from "./topics.ts";

export interface AnalysisOptions {
  summary: SummaryOptions;
  segmentation: SegmentationOptions;
}

export const DEFAULT_ANALYSIS_OPTIONS: AnalysisOptions = {
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

/** Who said each message (the member, else the name shown), for the segmentation's speaker-change signal. */
export function speakersOf(input: AnalysisInput): (string | null)[] {
  return input.messages.map((m) => m.memberId ?? m.speakerName);
}

/** Message index where each topic segment starts (the first is 0); [] for an empty conversation. */
export function topicSegmentStarts(
  input: AnalysisInput,
  options: SegmentationOptions = DEFAULT_SEGMENTATION_OPTIONS,
  sentences: readonly Sentence[] = prepareSentences(input),
): number[] {
  return segmentBoundaries(sentences, speakersOf(input), options);
}

/**
 * Turns a conversation's messages into a summary, decisions, topics and insights, in the language given or detected.
 * A language the analysis does not read gets none of them (no English template over foreign words). Pure,
 * synchronous and deterministic: the same input always gives the same output; every id in it is an input
 * message id.
 */
export function analyzeConversation(
  input: AnalysisInput,
  options: AnalysisOptions = DEFAULT_ANALYSIS_OPTIONS,
): AnalysisResult {
  const languageCode =
    input.languageCode ?? detectLanguage(input.messages.map((m) => m.text)) ?? DEFAULT_LANGUAGE_CODE;
  if (!isAnalysedLanguage(languageCode))
    return { languageCode, summary: [], decisions: [], topics: [], insights: [] };
  const sentences = prepareSentences(input);
  const ids = input.messages.map((m) => m.id);
  const topics = findTopics(sentences, ids, speakersOf(input), options.segmentation);

  const insights = findInsights(input, sentences);
  return {
    languageCode,
    summary: summaryItems(input, sentences, topics, insights, options.summary),
    decisions: findDecisions(input, sentences),
    topics,
    insights,
  };
}

import { analyzeConversation } from "./analyze.ts";
import { findEntities, type FoundEntity } from "./entities.ts";
import { findIntents, type FoundIntent, type IntentLine } from "./intents.ts";
import { speakerAnalytics, type AnalyticsInput, type SpeakerAnalytics } from "./speaker-analytics.ts";
import { detectTrackers, type DetectedTrackers } from "./trackers.ts";
import type { AnalysisInput, AnalysisResult, EntitiesInput, TrackersInput } from "./types.ts";

/** Piscina task: one conversation in, its analysis out (runs in a worker thread). */
export default function analyzeTask(input: AnalysisInput): AnalysisResult {
  return analyzeConversation(input);
}

/** Piscina task `entities`: the entities of a conversation's lines. */
export function entities(input: EntitiesInput): FoundEntity[] {
  return findEntities(input.lines, input.knownNames);
}

/** Piscina task `trackers`: the trackers' matches in the lines and insights. */
export function trackers(input: TrackersInput): DetectedTrackers {
  return detectTrackers(input.trackers, input.lines, input.insights);
}

/** Piscina task `intents`: the lines that state a call intent. */
export function intents(lines: IntentLine[]): FoundIntent[] {
  return findIntents(lines);
}

/** Piscina task `analytics`: talk, listen, overlap and silence. */
export function analytics(input: AnalyticsInput): SpeakerAnalytics {
  return speakerAnalytics(input);
}

import type { InsightType } from "../modules/conversations/conversations.schemas.ts";
import type { EntityLine, FoundEntity } from "./entities.ts";
import type { FoundIntent, IntentLine } from "./intents.ts";
import type { AnalyticsInput, SpeakerAnalytics } from "./speaker-analytics.ts";
import type { DetectedTrackers, TrackedText, TrackerDefinition } from "./trackers.ts";

/** The contract between the job pipeline and the analysis: plain data in, plain data out. */
export interface AnalysisMessage {
  id: string;
  text: string;
  memberId: string | null;
  speakerName: string | null;
  /** ISO-8601, when the message has timing. */
  startTime: string | null;
}

export interface AnalysisInput {
  /** ISO-8601 start of the conversation; relative dates ("by Friday") resolve from a message's time or this. */
  conversationStartTime: string;
  messages: AnalysisMessage[];
  /**
   * The language the conversation is known to be in, as a BCP 47 tag ("es-ES"), when its sender said so;
   * it wins over detection. Absent: the analysis detects it from the lines (language.ts).
   */
  languageCode?: string;
}

export interface SummaryItem {
  text: string;
  messageIds: string[];
}

/** A decision the conversation took, as a sentence that states it, and the lines it rests on. */
export interface DecisionItem {
  text: string;
  messageIds: string[];
}

/** "chapter": a contiguous segment of the meeting, in order; "phrase": a key phrase and the lines that mention it. */
export type TopicKind = "chapter" | "phrase";

export interface TopicItem {
  kind: TopicKind;
  text: string;
  score: number;
  messageIds: string[];
}

export interface InsightItem {
  type: InsightType;
  text: string;
  score: number;
  messageIds: string[];
  /** The member who said it. */
  memberId: string | null;
  /** The person the text names as doing it, as written ("Dana"); the speaker's name for "I will …". */
  assigneeName: string | null;
  /** The speaker's member id when the speaker commits to it ("I will …"); null otherwise. */
  assigneeMemberId: string | null;
  /** ISO-8601 due date when the text states one. */
  dueBy: string | null;
}

export interface AnalysisResult {
  /** The conversation's language (BCP 47, "en-US"): as given, else detected, else the default. */
  languageCode: string;
  /** Empty, as are topics and insights, when the analysis does not read that language (isAnalysedLanguage). */
  summary: SummaryItem[];
  /** What was decided, in conversation order (decisions.ts). */
  decisions: DecisionItem[];
  topics: TopicItem[];
  insights: InsightItem[];
}

/** The lines to search for entities and the members' names (docs/SYMBL-COMPAT.md, entities). */
export interface EntitiesInput {
  lines: EntityLine[];
  knownNames: string[];
}

/** The app's trackers and the texts to match them in (docs/SYMBL-COMPAT.md, Trackers). */
export interface TrackersInput {
  trackers: TrackerDefinition[];
  lines: TrackedText[];
  insights: TrackedText[];
}

/**
 * The analysis and the work done on read whose time grows with a conversation, each off the event loop, so
 * that no request for one conversation holds every other request (docs/ARCHITECTURE.md, Performance).
 */
export interface Analyzer {
  analyze(input: AnalysisInput): Promise<AnalysisResult>;
  /** findEntities (it reads every line with wink-nlp). */
  findEntities(input: EntitiesInput): Promise<FoundEntity[]>;
  /** detectTrackers, within its limits. */
  detectTrackers(input: TrackersInput): Promise<DetectedTrackers>;
  findIntents(lines: IntentLine[]): Promise<FoundIntent[]>;
  speakerAnalytics(input: AnalyticsInput): Promise<SpeakerAnalytics>;
  close(): Promise<void>;
}

/** What produced a part of a stored analysis: the language model (docs/LLM.md) or the local analysis. */
export type Engine = "llm" | "local";

/** The engine of each part the language model can write; everything else is always local. */
export interface AnalysisEngines {
  summary: Engine;
  /** The decisions, all the model's or all the local analysis's. */
  decisions: Engine;
  /** The titles of the topics of kind "chapter". */
  chapters: Engine;
  /** The verdicts on action items (kept or dropped, assignee, due date, wording). */
  actionItems: Engine;
}

/** The local analysis, with the parts the language model wrote in its place, and why any part stayed local. */
export interface RefinedAnalysis {
  result: AnalysisResult;
  engines: AnalysisEngines;
  /** One entry for each part that fell back to the local result although the model was asked. */
  fallbacks: { part: keyof AnalysisEngines; reason: string }[];
}

/** Asks a language model to rewrite parts of a local analysis; never rejects (a failure keeps the part local). */
export interface Refiner {
  refine(input: AnalysisInput, local: AnalysisResult): Promise<RefinedAnalysis>;
}

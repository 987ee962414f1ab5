import type { Static } from "typebox";
import type { Brand, ExperienceLink, LinkState } from "../../modules/experiences/experiences.schemas.ts";
import type { JobResponse } from "../../modules/ingestion/ingestion.schemas.ts";

/** A job's state as the API publishes it (GET /v1/job/{jobId}). */
export type JobState = Static<typeof JobResponse>["status"];

/** One conversation in the console's list. */
export interface ConversationListItem {
  id: string;
  name: string;
  startTime: string;
  memberNames: string[];
  /** Some of its lines name no speaker: the page shows them as "Unknown speaker", and so does the console. */
  unnamedSpeaker: boolean;
  /** The latest job's state; null for a conversation without one. */
  jobState: JobState | null;
  /** Why the latest job failed; null unless it did. */
  jobMessage: string | null;
  /** What wrote the stored summary; null until first analysed. */
  analysedBy: "llm" | "local" | null;
}

export interface ConversationListPage {
  conversations: ConversationListItem[];
  /** From 1. */
  page: number;
  hasNext: boolean;
}

/** The app's settings as the settings page shows them (never its secrets). */
export interface AppSettingsView {
  appId: string;
  name: string;
  customDomain: string | null;
  frameAncestors: string[];
  brand: Brand;
  voiceProfiles: boolean;
}

/** The brand fields of a form as typed (the settings' brand form, and the create-link form's brand). */
export interface BrandForm {
  logo: string;
  favicon: string;
  background: string;
  topicsFilter: string;
  insightsFilter: string;
  fontFamily: string;
}

export type BrandField = keyof BrandForm;

/** A line of the conversation as the link preview shows it. */
export interface PreviewLine {
  speaker: string | null;
  text: string;
  /** Seconds from the conversation's start, when known. */
  offset: number | null;
}

/** What the link preview shows of the conversation itself: its first lines, topics and action item. */
export interface LinkPreview {
  lines: PreviewLine[];
  topics: string[];
  actionItem: string | null;
}

/** One conversation's page in the console: what it is, where its analysis stands, and its links. */
export interface ConversationOverview {
  id: string;
  name: string;
  startTime: string;
  memberNames: string[];
  /** Some of its visible lines name no speaker. */
  unnamedSpeaker: boolean;
  lineCount: number;
  jobState: JobState | null;
  /** Why the latest job failed; null unless it did. */
  jobMessage: string | null;
  analysedBy: "llm" | "local" | null;
  summary: string[];
  topics: string[];
  /** Action items, follow-ups and questions, with how many of each. */
  insightCounts: { label: string; count: number }[];
  links: ConsoleLink[];
  /** Its members, in the order GET …/members lists them, each with the voice that named it or is suggested. */
  members: ConsoleMember[];
  /** Voice profiles are on for the app and the conversation has a stored recording: a member's voice can be saved. */
  voicesSavable: boolean;
  /** The lines around the one a search hit opened the page at (`?line=`); null without one. */
  excerpt: ConsoleLine[] | null;
}

/** A line of a conversation as the console shows it; `current` is the line a search hit opened. */
export interface ConsoleLine {
  id: string;
  speakerName: string | null;
  /** Seconds from the conversation's start, when known. */
  offset: number | null;
  text: string;
  current: boolean;
}

/** A search in the console: the query, the hits grouped by conversation, or the API's refusal. */
export interface ConsoleSearch {
  q: string;
  /** The conversations with hits, in the order of each one's best hit; each hit's snippet is the API's HTML. */
  groups: {
    conversation: { id: string; name: string; startTime: string };
    hits: { messageId: string; speakerName: string | null; timeOffset: number | null; snippet: string }[];
  }[];
  nextCursor: string | null;
  /** The API's message refusing the search (a 400 or 404), shown beside the box. */
  error: string | null;
}

/** A member of a conversation; `voice` when a voice profile named it, `suggestedVoice` when one only sounds like it. */
export interface ConsoleMember {
  id: string;
  name: string;
  voice?: { id: string; score: number };
  suggestedVoice?: { id: string; name: string; score: number };
}

/**
 * What a voice action did for a member: "Save this voice" saved a new voice or refined the same person's, a
 * suggestion was confirmed, a voice's name undone (or a suggestion rejected), or the API's refusal.
 */
export interface VoiceSaveResult {
  memberId: string;
  outcome: "saved" | "refined" | "confirmed" | "undone" | "refused";
  /** The voice saved, refined or confirmed; null otherwise. */
  voiceId: string | null;
  /** The refusal's message (the API's); empty otherwise. */
  message: string;
}

/** A voice profile as the console shows it: where it was heard, each conversation with its name. */
export interface ConsoleVoice {
  id: string;
  name: string;
  email: string | null;
  speechSeconds: number;
  /** Made with another embedding model than the one installed: not matched until saved again. */
  needsRefresh: boolean;
  createdAt: string;
  updatedAt: string;
  /** The conversations its references were computed from; a deleted one has no name (null). */
  conversations: { id: string; name: string | null }[];
}

export interface VoiceListView {
  voices: ConsoleVoice[];
  /** The app's switch: while off no voice is saved, and the page says so. */
  voiceProfiles: boolean;
}

/** The rename form as posted: an empty e-mail removes it. */
export interface VoiceForm {
  name: string;
  email: string;
}

export type VoiceField = keyof VoiceForm;

/**
 * The import form's fields besides the file, as posted: a recording's options (the API's
 * `enableSpeakerDiarization`, `diarizationSpeakerCount` and `channelMetadata`), every value as typed.
 */
export interface ImportForm {
  name: string;
  diarization: boolean;
  speakerCount: string;
  /** The speaker on channel 1 and on channel 2; empty: not named. */
  channels: [string, string];
}

export type ImportField = keyof Omit<ImportForm, "channels"> | "file" | "channel1" | "channel2";

/** The settings form as posted: frame ancestors one origin a line, an empty custom domain removes it. */
export interface SettingsForm {
  name: string;
  customDomain: string;
  frameAncestors: string;
  /** The checkbox: "on" when ticked, absent when not. */
  voiceProfiles?: string | undefined;
}

export type SettingsField = keyof SettingsForm;

/** The create-link form as posted: every value a string; a checkbox is "on" when ticked. */
export interface LinkForm extends BrandForm {
  name: string;
  label: string;
  videoUrl: string;
  audioUrl: string;
  summaryURLExpiresIn: string;
  readOnly: boolean;
  enableCustomDomain: boolean;
  hideShareButton: boolean;
  /** A picture URL by member id (speakerAvatarURLs), as typed; empty ones are left out. */
  avatars: Record<string, string>;
}

/** One link of the console's list, with the name of its conversation. */
export type ConsoleLink = ExperienceLink & { conversationName: string };

export interface LinkListPage {
  links: ConsoleLink[];
  state: LinkState | null;
  /** From 1. */
  page: number;
  hasNext: boolean;
}

import type { Static } from "typebox";
import type { JobResponse } from "../../modules/ingestion/ingestion.schemas.ts";

/** A job's state as the API publishes it (GET /v1/job/{jobId}). */
export type JobState = Static<typeof JobResponse>["status"];

/** One conversation in the console's list. */
export interface ConversationListItem {
  id: string;
  name: string;
  startTime: string;
  memberNames: string[];
  /** The latest job's state; null for a conversation without one. */
  jobState: JobState | null;
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
}

/** The settings form as posted: frame ancestors one origin a line, an empty custom domain removes it. */
export interface SettingsForm {
  name: string;
  customDomain: string;
  frameAncestors: string;
}

export type SettingsField = keyof SettingsForm;

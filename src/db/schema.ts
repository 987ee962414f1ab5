import type { ColumnType, Insertable, Selectable, Updateable } from "kysely";

/**
 * Row shapes as stored. Timestamps are ISO-8601 strings made in application code, booleans are 0/1
 * integers and JSON is text, so the same rows read back identically from SQLite and PostgreSQL.
 */
export interface AppsTable {
  id: string;
  secret_hash: string;
  /** Counts secret rotations; a token carries the generation it was issued under and dies with it. */
  secret_generation: number;
  /** The Standard Webhooks signing secret (`whsec_…`); kept readable because every delivery is signed with it. */
  webhook_secret: string;
  name: string;
  custom_domain: string | null;
  frame_ancestors: string;
  /** JSON: the logo, favicon, colours and font a summary page takes when its link does not set them. */
  brand: string;
  created_at: string;
  updated_at: string;
  /** 1 when the app keeps voice profiles (docs/VOICES.md); 0, the default, when it does not. */
  voice_profiles: ColumnType<number, number | undefined, number>;
}

/** A console session: the SHA-256 of its cookie's token, the app, the secret generation it began under, its end. */
export interface ConsoleSessionsTable {
  id: string;
  app_id: string;
  secret_generation: number;
  created_at: string;
  expires_at: string;
}

export interface ConversationsTable {
  id: string;
  app_id: string;
  name: string;
  start_time: string;
  end_time: string | null;
  metadata: string;
  confidence_threshold: number | null;
  created_at: string;
  updated_at: string;
  /** What wrote each part of the stored analysis, "llm" or "local"; null until first analysed. */
  summary_engine: string | null;
  /** Migration 019: the model writes decisions too. */
  decisions_engine: string | null;
  chapters_engine: string | null;
  action_items_engine: string | null;
  /** Counts the writes to the conversation (lockForWrite); a cached page names the version it shows. */
  content_version: number;
  /** The conversation's language (BCP 47, "en-US") as its last analysis found or was given it; null before. */
  language_code: string | null;
  /** The language a submission named (media's `languageCode`); the analysis takes it instead of detecting one. */
  language_given: string | null;
}

export interface MembersTable {
  id: string;
  conversation_id: string;
  name: string;
  email: string | null;
  user_id: string | null;
  position: number;
  /** The key the member was first known by; unique in its conversation, so no speaker is created twice. */
  identity_key: string;
  /** The voice profile that named this diarized speaker and its raw cosine score (docs/VOICES.md, Matching). */
  voice_id: string | null;
  voice_score: number | null;
  /** A profile matched below the accept threshold: suggested, with its name when matched, not applied. */
  suggested_voice_id: string | null;
  suggested_voice_name: string | null;
  suggested_voice_score: number | null;
  /** The "Speaker N" a voice-named member had before the profile named it; undoing the name gives it back. */
  diarized_name: string | null;
}

/** The keys (e-mail, user id or name) that identify a member; a member gains keys when merged or renamed. */
export interface MemberIdentitiesTable {
  conversation_id: string;
  identity_key: string;
  member_id: string;
}

export interface MessagesTable {
  id: string;
  conversation_id: string;
  job_id: string;
  position: number;
  text: string;
  from_name: string | null;
  from_user_id: string | null;
  from_email: string | null;
  member_id: string | null;
  start_time: string | null;
  end_time: string | null;
  hidden: number;
  /**
   * The words of a recognised line with their times (JSON `[[word, startMs, endMs], …]`, milliseconds from
   * the line's start); null for lines that came as text.
   */
  words: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface JobsTable {
  id: string;
  app_id: string;
  conversation_id: string;
  sequence: number;
  status: string;
  webhook_url: string | null;
  error: string | null;
  attempts: number;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
  /** "text" (analyse stored messages) or "media" (transcribe a file first; run by the media runners). */
  kind: string;
  /** How far a media job has got, from 0 to 1; null for text jobs. */
  progress: number | null;
  /** A live stream's job: the client's connection id, by which other connections join its conversation. */
  live_connection_id: string | null;
  /** "fetch" while a media job's URL is still to be fetched (the fetch runners claim it); null otherwise. */
  stage: string | null;
  /** How many times the job was put back because its speech engine did not answer (RECAP_ASR_RETRIES). */
  retries: ColumnType<number, number | undefined, number>;
}

export interface SummariesTable {
  id: string;
  conversation_id: string;
  position: number;
  text: string;
  message_ids: string;
}

/** A decision of a conversation (016_decisions): a sentence that states it and its lines' ids (a JSON array). */
export interface DecisionsTable {
  id: string;
  conversation_id: string;
  position: number;
  text: string;
  message_ids: string;
}

export interface TopicsTable {
  id: string;
  conversation_id: string;
  position: number;
  /** "chapter" (a segment, in order) or "phrase" (a key phrase); rows older than 006_topic_kinds are phrases. */
  kind: string;
  text: string;
  score: number;
  message_ids: string;
}

export interface InsightsTable {
  id: string;
  conversation_id: string;
  position: number;
  type: string;
  text: string;
  score: number;
  message_ids: string;
  member_id: string | null;
  /** The member the insight is for, when it is one: its current name and id are shown. */
  assignee_member_id: string | null;
  /** The assignee's name as the text wrote it ("Dana"), or the speaker's name for "I will …". */
  assignee_name: string | null;
  due_by: string | null;
  dismissed: number;
  /** 1 when a viewer changed `text`; a re-analysis finding the same insight keeps it (and `dismissed`). */
  text_edited: number;
}

export interface ExperiencesTable {
  id: string;
  app_id: string;
  conversation_id: string;
  name: string;
  token_hash: string;
  settings: string;
  read_only: number;
  custom_domain: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  /** The owner's name for the link; null when none was given. */
  label: string | null;
  /** The token's last four characters, to recognise its URL by; null for links older than 009_link_labels. */
  token_hint: string | null;
  /** Page views (HTML, GET) counted since 010_link_views; distinct viewers count one a day per viewer. */
  view_count: number;
  distinct_viewers: number;
  last_viewed_at: string | null;
}

/** The viewers of a link counted on `day` (UTC), as keyed hashes; rows of earlier days are deleted. */
export interface LinkViewersTable {
  experience_id: string;
  day: string;
  viewer: string;
}

/**
 * The webhook outbox: one row per job status change to report, written in the transaction that makes the
 * change. `position` orders one job's events; `state` is pending until delivered (the row is then deleted)
 * or failed once every attempt is spent. `locked_until` is a sender's claim, so one process sends at a time.
 */
export interface WebhookEventsTable {
  id: string;
  app_id: string;
  job_id: string;
  position: number;
  url: string;
  payload: string;
  state: string;
  attempts: number;
  next_attempt_at: string;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
}

/**
 * One submitted audio or video file and what its job has made of it. `stored_file` is an upload kept under
 * the media directory (null for a URL, which is fetched again when needed); `offset_ms` is where the file
 * starts in the conversation's media time (0 for the first, the end of the one before for an append);
 * `options` the submission's recognition options (JSON); `segments` and `turns` each step's result (JSON),
 * null until that step is done.
 */
export interface MediaTable {
  id: string;
  app_id: string;
  conversation_id: string;
  job_id: string;
  kind: string;
  source_url: string | null;
  stored_file: string | null;
  content_type: string | null;
  bytes: number | null;
  duration_ms: number | null;
  offset_ms: number;
  options: string;
  segments: string | null;
  turns: string | null;
  diarization_error: string | null;
  created_at: string;
}

/** An app's named list of words and phrases; `vocabulary` is a JSON array of strings. */
export interface TrackersTable {
  id: string;
  app_id: string;
  name: string;
  vocabulary: string;
  created_at: string;
  updated_at: string;
}

/** A named voice of one app (docs/VOICES.md): `email_key` is the e-mail in lower case, unique in the app. */
export interface VoiceProfilesTable {
  id: string;
  app_id: string;
  name: string;
  email: string | null;
  email_key: string | null;
  /** The embedding model its references were computed with, and their length. */
  model: string;
  dimension: number;
  /** The unit mean of its references (float32 blob), which matching shortlists by; null until computed. */
  centroid: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  created_at: string;
  updated_at: string;
}

/** One enrolment's speaker embedding: float32 values, little-endian, as a blob; no audio. */
export interface VoiceReferencesTable {
  id: string;
  profile_id: string;
  conversation_id: string;
  member_id: string;
  vector: Uint8Array;
  speech_seconds: number;
  created_at: string;
}

/** A profile a member was said not to be, with the embedding of the member's speech when one was computed. */
export interface VoiceRejectionsTable {
  id: string;
  profile_id: string;
  conversation_id: string;
  member_id: string;
  vector: Uint8Array | null;
  created_at: string;
}

/**
 * A speaker's voice heard in a conversation whose audio is not kept (a live stream), as one embedding: what saving
 * that speaker's voice reads. `identity_key` is the speaker's, as members.ts keys members.
 */
export interface VoiceSamplesTable {
  id: string;
  conversation_id: string;
  identity_key: string;
  model: string;
  dimension: number;
  vector: Uint8Array;
  speech_seconds: number;
  created_at: string;
}

export interface Database {
  apps: AppsTable;
  console_sessions: ConsoleSessionsTable;
  conversations: ConversationsTable;
  members: MembersTable;
  member_identities: MemberIdentitiesTable;
  messages: MessagesTable;
  jobs: JobsTable;
  summaries: SummariesTable;
  decisions: DecisionsTable;
  topics: TopicsTable;
  insights: InsightsTable;
  experiences: ExperiencesTable;
  link_viewers: LinkViewersTable;
  webhook_events: WebhookEventsTable;
  trackers: TrackersTable;
  media: MediaTable;
  voice_profiles: VoiceProfilesTable;
  voice_references: VoiceReferencesTable;
  voice_rejections: VoiceRejectionsTable;
  voice_samples: VoiceSamplesTable;
}

export type AppRow = Selectable<AppsTable>;
export type TrackerRow = Selectable<TrackersTable>;
export type ConversationRow = Selectable<ConversationsTable>;
export type MemberRow = Selectable<MembersTable>;
export type MessageRow = Selectable<MessagesTable>;
/** What the API shows of a member, and all its members read selects (it runs on every members request). */
export type ListedMember = Pick<
  MemberRow,
  | "id"
  | "name"
  | "email"
  | "voice_id"
  | "voice_score"
  | "suggested_voice_id"
  | "suggested_voice_name"
  | "suggested_voice_score"
>;
/** What a view of the whole transcript reads of each line (the page, intelligence, trackers), in order. */
export type TranscriptRow = Pick<
  MessageRow,
  "id" | "text" | "member_id" | "from_name" | "start_time" | "end_time" | "hidden"
>;
export type JobRow = Selectable<JobsTable>;
export type SummaryRow = Selectable<SummariesTable>;
export type DecisionRow = Selectable<DecisionsTable>;
export type TopicRow = Selectable<TopicsTable>;
export type InsightRow = Selectable<InsightsTable>;
export type ExperienceRow = Selectable<ExperiencesTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type NewMessage = Insertable<MessagesTable>;
export type NewJob = Insertable<JobsTable>;
export type MediaRow = Selectable<MediaTable>;
export type VoiceProfileRow = Selectable<VoiceProfilesTable>;
export type VoiceReferenceRow = Selectable<VoiceReferencesTable>;
export type ConversationUpdate = Updateable<ConversationsTable>;
/** A line the search index matched, with what a hit shows of it and of its conversation (docs/SEARCH.md). */
export interface SearchHitRow {
  message_id: string;
  text: string;
  start_time: string | null;
  position: number;
  conversation_id: string;
  conversation_name: string;
  conversation_start_time: string;
  speaker_name: string | null;
  speaker_email: string | null;
  /** Higher is more relevant: BM25 on SQLite, ts_rank on PostgreSQL. */
  score: number;
}

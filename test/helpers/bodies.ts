/**
 * The API's answer bodies as the TypeBox schemas declare them (`Static<typeof Schema>`), so suites read
 * typed JSON without casts of their own: `import type * as Body from "../helpers/bodies.ts"`.
 */
import type { Static } from "typebox";
import type { AppSettingsResponse } from "../../src/modules/apps/apps.schemas.ts";
import type { TokenResponse } from "../../src/modules/auth/auth.schemas.ts";
import type * as intelligence from "../../src/modules/conversations/conversation-intelligence.schemas.ts";
import type * as conversations from "../../src/modules/conversations/conversations.schemas.ts";
import type * as experiences from "../../src/modules/experiences/experiences.schemas.ts";
import type * as ingestion from "../../src/modules/ingestion/ingestion.schemas.ts";
import type { MessageSaved as MessageSavedSchema } from "../../src/modules/summary-page/page-edits.schemas.ts";
import type * as trackers from "../../src/modules/trackers/trackers.schemas.ts";
import type * as voices from "../../src/modules/voices/voices.schemas.ts";

export type Token = Static<typeof TokenResponse>;
export type Accepted = Static<typeof ingestion.ProcessResponse>;
export type Job = Static<typeof ingestion.JobResponse>;
export type Conversation = Static<typeof conversations.Conversation>;
export type ConversationList = Static<typeof conversations.ConversationList>;
export type MessageList = Static<typeof conversations.MessageList>;
export type MemberList = Static<typeof conversations.MemberList>;
export type Member = Static<typeof conversations.Member>;
export type SummaryList = Static<typeof conversations.SummaryList>;
export type DecisionList = Static<typeof conversations.DecisionList>;
export type TopicList = Static<typeof conversations.TopicList>;
export type ChapterList = Static<typeof conversations.ChapterList>;
export type Insight = Static<typeof conversations.Insight>;
export type QuestionList = Static<typeof conversations.QuestionList>;
export type ActionItemList = Static<typeof conversations.ActionItemList>;
export type FollowUpList = Static<typeof conversations.FollowUpList>;
export type InsightList = Static<typeof intelligence.InsightList>;
export type IntentList = Static<typeof intelligence.IntentList>;
export type EntityList = Static<typeof intelligence.EntityList>;
export type Analytics = Static<typeof intelligence.Analytics>;
export type Transcript = Static<typeof intelligence.Transcript>;
export type ConversationUpdated = Static<typeof intelligence.ConversationUpdated>;
export type TrackerAnswer = Static<typeof trackers.TrackerAnswer>;
export type TrackerList = Static<typeof trackers.TrackerList>;
export type TrackerDeleted = Static<typeof trackers.TrackerDeleted>;
export type DetectedTrackers = Static<typeof trackers.DetectedTrackers>;
export type ExperienceCreated = Static<typeof experiences.ExperienceCreated>;
export type Experience = Static<typeof experiences.ExperienceSummary>;
export type ExperienceList = Static<typeof experiences.ExperienceList>;
export type ExperienceLink = Static<typeof experiences.ExperienceLink>;
export type ExperienceLinkList = Static<typeof experiences.ExperienceLinkList>;
export type MessageSaved = Static<typeof MessageSavedSchema>;
export type AppSettings = Static<typeof AppSettingsResponse>;
export type Voice = Static<typeof voices.Voice>;
export type VoiceList = Static<typeof voices.VoiceList>;
/** The one error shape (src/http/errors.ts). */
export interface ErrorBody {
  message: string;
}

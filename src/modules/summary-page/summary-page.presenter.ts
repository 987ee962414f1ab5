import type { ConversationInFull } from "../conversations/conversations.service.ts";
import {
  assigneeMemberOf,
  timeOffsetOf,
  transcriptLineOf,
} from "../conversations/conversations.presenter.ts";
import { INSIGHT_TYPES, type InsightType } from "../conversations/conversations.schemas.ts";
import type { ExperienceSettings } from "../experiences/experiences.schemas.ts";
import type { InsightRow, MemberRow } from "../../db/schema.ts";
import { languageNotice } from "../../analysis/language.ts";
import type { DetectedTracker, TrackerDefinition } from "../../analysis/trackers.ts";
import type { PageInsight, PageRecording, PageTopic, PageView } from "../../pages/view-model.ts";

const idsOf = (json: string) => JSON.parse(json) as string[];

/** The characters above U+00A0 that a regular expression's `\s` matches, by UTF-16 code unit. */
const WIDE_SPACES = new Set([
  0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);

/** Whether a UTF-16 code unit is one `\s` matches. */
const isSpace = (code: number) =>
  code <= 32 ? code === 32 || (code >= 9 && code <= 13) : code >= 0xa0 && WIDE_SPACES.has(code);

/** How many words (runs of characters other than `\s`) a text has, counted without building them. */
export function wordsIn(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/**
 * The topics as the page lists them: chapters in the order of their first line, each with its start
 * (when that line has a time) and its share of the words of all chapters, then key phrases by score.
 */
function pageTopics(rows: ConversationInFull): PageTopic[] {
  const { conversation, messages } = rows;
  const lineOf = new Map(messages.map((message, index) => [message.id, index]));
  const chapters = rows.topics
    .filter((topic) => topic.kind === "chapter")
    .map((topic) => {
      const ids = idsOf(topic.message_ids);
      const lines = ids.flatMap((id) => lineOf.get(id) ?? []);
      const words = lines.reduce((sum, line) => sum + wordsIn(messages[line]?.text ?? ""), 0);
      return { topic, ids, first: lines[0], words };
    })
    .sort((a, b) => (a.first ?? Infinity) - (b.first ?? Infinity));
  const allWords = chapters.reduce((sum, chapter) => sum + chapter.words, 0);
  return [
    ...chapters.map(({ topic, ids, first, words }) => ({
      id: topic.id,
      kind: "chapter" as const,
      text: topic.text,
      messageIds: ids,
      offset:
        first === undefined ? null : timeOffsetOf(messages[first] ?? { start_time: null }, conversation),
      share: allWords > 0 ? words / allWords : null,
    })),
    ...rows.topics
      .filter((topic) => topic.kind !== "chapter")
      .map((topic) => ({
        id: topic.id,
        kind: "phrase" as const,
        text: topic.text,
        messageIds: idsOf(topic.message_ids),
        offset: null,
        share: null,
      })),
  ];
}

function pageInsight(
  insight: InsightRow,
  type: InsightType,
  membersById: Map<string, MemberRow>,
  members: MemberRow[],
): PageInsight {
  const speaker = insight.member_id ? membersById.get(insight.member_id) : undefined;
  const assignee = assigneeMemberOf(insight, membersById, members);
  return {
    id: insight.id,
    type,
    text: insight.text,
    messageIds: idsOf(insight.message_ids),
    speakerId: speaker?.id ?? null,
    speakerName: speaker?.name ?? null,
    assigneeId: assignee?.id ?? null,
    assigneeName: assignee?.name ?? insight.assignee_name,
    dueBy: insight.due_by,
  };
}

/** Insights grouped by type in the order the page lists the groups, the most confident first in each. */
function byTypeAndScore(insights: InsightRow[], membersById: Map<string, MemberRow>, members: MemberRow[]) {
  return INSIGHT_TYPES.flatMap((type) =>
    insights
      .filter((insight) => insight.type === type)
      .toSorted((a, b) => b.score - a.score)
      .map((insight) => pageInsight(insight, type, membersById, members)),
  );
}

/**
 * Everything the page can show, built from the conversation's rows and the link's settings: hidden lines
 * included (marked), insights grouped by type, the most confident first, and the app's trackers.
 */
export function pageViewOf(
  rows: ConversationInFull,
  settings: ExperienceSettings,
  trackers: TrackerDefinition[],
  trackerMatches: DetectedTracker[],
  live: boolean,
  recordings: PageRecording[] = [],
): PageView {
  const { conversation, members } = rows;
  const membersById = new Map(members.map((member) => [member.id, member]));
  return {
    kind: settings.name,
    title: conversation.name,
    // The conversation's language as the analysis stored it (its `languageCode`): the page's `lang`.
    language: conversation.language_code,
    startTime: conversation.start_time,
    endTime: conversation.end_time ?? conversation.start_time,
    // A start that is the moment the conversation arrived is no meeting date: lines sent without times, or
    // a transcript file's media position 0 (IngestionService.importTranscript).
    dated: conversation.start_time !== conversation.created_at,
    attendees: members.map((member) => ({
      id: member.id,
      name: member.name,
      avatarUrl: settings.speakerAvatarURLs[member.id] ?? null,
    })),
    decisions: rows.decisions.map((item) => ({ text: item.text, messageIds: idsOf(item.message_ids) })),
    summary: rows.summaries.map((item) => ({ text: item.text, messageIds: idsOf(item.message_ids) })),
    analysisNotice: conversation.language_code === null ? null : languageNotice(conversation.language_code),
    topics: pageTopics(rows),
    insights: byTypeAndScore(rows.insights, membersById, members),
    dismissedInsights: byTypeAndScore(rows.dismissedInsights, membersById, members),
    messages: rows.messages.map((message) => transcriptLineOf(message, conversation, membersById)),
    trackers,
    trackerMatches,
    mediaUrl:
      settings.name === "video-summary"
        ? (settings.videoUrl ?? null)
        : settings.name === "audio-summary"
          ? (settings.audioUrl ?? null)
          : null,
    recordings,
    branding: {
      background: settings.color.background ?? null,
      topicsFilter: settings.color.topicsFilter ?? null,
      insightsFilter: settings.color.insightsFilter ?? null,
      fontFamily: settings.font.family ?? null,
      logo: settings.logo ?? null,
      favicon: settings.favicon ?? null,
    },
    readOnly: settings.readOnly,
    hideShareButton: settings.hideShareButton,
    live,
  };
}

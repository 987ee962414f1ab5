import type { ConversationInFull } from "../conversations/conversations.service.ts";
import { assigneeMemberOf, endOffsetOf, timeOffsetOf } from "../conversations/conversations.presenter.ts";
import { INSIGHT_TYPES, type InsightType } from "../conversations/conversations.schemas.ts";
import type { ExperienceSettings } from "../experiences/experiences.schemas.ts";
import type { InsightRow, MemberRow } from "../../db/schema.ts";
import type { PageInsight, PageView } from "../../pages/view-model.ts";

const idsOf = (json: string) => JSON.parse(json) as string[];

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

/**
 * Everything the page can show, built from the conversation's rows and the link's settings: hidden lines
 * included (marked), insights grouped by type in the order the page lists them.
 */
export function pageViewOf(rows: ConversationInFull, settings: ExperienceSettings): PageView {
  const { conversation, members } = rows;
  const membersById = new Map(members.map((member) => [member.id, member]));
  return {
    kind: settings.name,
    title: conversation.name,
    startTime: conversation.start_time,
    endTime: conversation.end_time ?? conversation.start_time,
    attendees: members.map((member) => ({
      id: member.id,
      name: member.name,
      avatarUrl: settings.speakerAvatarURLs[member.id] ?? null,
    })),
    summary: rows.summaries.map((item) => ({ text: item.text, messageIds: idsOf(item.message_ids) })),
    topics: rows.topics.map((topic) => ({
      id: topic.id,
      text: topic.text,
      messageIds: idsOf(topic.message_ids),
    })),
    insights: INSIGHT_TYPES.flatMap((type) =>
      rows.insights
        .filter((insight) => insight.type === type)
        .map((insight) => pageInsight(insight, type, membersById, members)),
    ),
    messages: rows.messages.map((message) => {
      const speaker = message.member_id ? membersById.get(message.member_id) : undefined;
      return {
        id: message.id,
        text: message.text,
        speakerId: speaker?.id ?? null,
        // A line not yet processed shows its raw sender's name.
        speakerName: speaker ? speaker.name : message.from_name,
        offset: timeOffsetOf(message, conversation),
        endOffset: endOffsetOf(message, conversation),
        startTime: message.start_time,
        hidden: message.hidden === 1,
      };
    }),
    mediaUrl:
      settings.name === "video-summary"
        ? (settings.videoUrl ?? null)
        : settings.name === "audio-summary"
          ? (settings.audioUrl ?? null)
          : null,
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
  };
}

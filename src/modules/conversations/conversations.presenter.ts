import { languageNotice } from "../../analysis/language.ts";
import type { Engine } from "../../analysis/types.ts";
import type {
  ConversationRow,
  InsightRow,
  ListedMember,
  MemberRow,
  MessageRow,
  SummaryRow,
  DecisionRow,
  TranscriptRow,
  TopicRow,
} from "../../db/schema.ts";
import type { PageMessage } from "../../pages/view-model.ts";

const seconds = (fromMs: number, to: string) => Math.round((Date.parse(to) - fromMs) / 10) / 100;

/** The last conversation start parsed: a transcript's thousands of offsets are all from the one start. */
let lastStart = { text: "", ms: NaN };

function startMsOf(conversation: ConversationRow): number {
  if (lastStart.text !== conversation.start_time) {
    lastStart = { text: conversation.start_time, ms: Date.parse(conversation.start_time) };
  }
  return lastStart.ms;
}

/** Seconds from the conversation's start to the message's, derived when read so an append that moves the start keeps it right. */
export function timeOffsetOf(
  message: Pick<MessageRow, "start_time">,
  conversation: ConversationRow,
): number | null {
  return message.start_time === null ? null : seconds(startMsOf(conversation), message.start_time);
}

/** Seconds from the conversation's start to the message's end, when the message has one. */
export function endOffsetOf(
  message: Pick<MessageRow, "end_time">,
  conversation: ConversationRow,
): number | null {
  return message.end_time === null ? null : seconds(startMsOf(conversation), message.end_time);
}

/** Symbl's member shape: who a member is. */
function presentPerson(member: Pick<MemberRow, "id" | "name" | "email">) {
  return { id: member.id, name: member.name, ...(member.email !== null && { email: member.email }) };
}

/** A member, with Recap's extension: the voice that named it, or the one it suggests (docs/VOICES.md, Matching). */
export function presentMember(member: ListedMember) {
  return {
    ...presentPerson(member),
    ...(member.voice_id !== null && { voice: { id: member.voice_id, score: member.voice_score ?? 0 } }),
    ...(member.suggested_voice_id !== null && {
      suggestedVoice: {
        id: member.suggested_voice_id,
        name: member.suggested_voice_name ?? "",
        score: member.suggested_voice_score ?? 0,
      },
    }),
  };
}

function presentFrom(member: MemberRow | undefined) {
  if (!member) return {};
  return {
    id: member.id,
    name: member.name,
    ...(member.user_id !== null && { userId: member.user_id }),
    ...(member.email !== null && { email: member.email }),
  };
}

const engine = (stored: string | null): Engine => (stored === "llm" ? "llm" : "local");

/** A conversation's latest job when it failed, and why. */
export interface FailedJob {
  jobId: string;
  message: string;
}

/**
 * A conversation as Symbl shaped it, with its `languageCode` once analysed, plus Recap's `analysis` then:
 * which engine wrote each part ("llm" or "local", docs/LLM.md), and whether the analysis read the
 * conversation's language (a notice when it did not); and Recap's `failedJob` when its latest job failed.
 * Symbl's clients ignore a field they do not know.
 */
export function presentConversation(conversation: ConversationRow, members: MemberRow[], failed?: FailedJob) {
  // Null before the first analysis, and for one made before languages were told apart (migration 012).
  const languageCode = conversation.language_code;
  const notice = languageCode === null ? null : languageNotice(languageCode);
  return {
    id: conversation.id,
    type: "meeting" as const,
    name: conversation.name,
    startTime: conversation.start_time,
    endTime: conversation.end_time ?? conversation.start_time,
    members: members.map(presentMember),
    metadata: JSON.parse(conversation.metadata) as Record<string, unknown>,
    ...(languageCode !== null && { languageCode }),
    ...(conversation.summary_engine !== null && {
      analysis: {
        status: notice === null ? ("analysed" as const) : ("language_not_supported" as const),
        ...(notice !== null && { notice }),
        engines: {
          summary: engine(conversation.summary_engine),
          decisions: engine(conversation.decisions_engine),
          chapters: engine(conversation.chapters_engine),
          actionItems: engine(conversation.action_items_engine),
        },
      },
    }),
    ...(failed !== undefined && { failedJob: { id: failed.jobId, message: failed.message } }),
  };
}

/** A recognised line's words as Symbl's verbose messages gave them, times from the stored offsets. */
function presentWords(message: MessageRow, conversation: ConversationRow) {
  if (message.words === null || message.start_time === null) return undefined;
  const lineStart = Date.parse(message.start_time);
  const conversationStart = startMsOf(conversation);
  return (JSON.parse(message.words) as [string, number, number][]).map(([word, startMs, endMs]) => ({
    word,
    startTime: new Date(lineStart + startMs).toISOString(),
    endTime: new Date(lineStart + endMs).toISOString(),
    timeOffset: Math.round((lineStart + startMs - conversationStart) / 10) / 100,
    duration: Math.round((endMs - startMs) / 10) / 100,
  }));
}

/** A message as Symbl shaped it; a message not yet processed shows its raw sender. `verbose` adds its words. */
export function presentMessage(
  message: MessageRow,
  conversation: ConversationRow,
  membersById: Map<string, MemberRow>,
  verbose = false,
) {
  const member = message.member_id ? membersById.get(message.member_id) : undefined;
  const from = member
    ? presentFrom(member)
    : {
        ...(message.from_name !== null && { name: message.from_name }),
        ...(message.from_user_id !== null && { userId: message.from_user_id }),
        ...(message.from_email !== null && { email: message.from_email }),
      };
  return {
    id: message.id,
    text: message.text,
    from,
    startTime: message.start_time,
    endTime: message.end_time,
    timeOffset: timeOffsetOf(message, conversation),
    duration:
      message.start_time === null || message.end_time === null
        ? null
        : seconds(Date.parse(message.start_time), message.end_time),
    conversationId: message.conversation_id,
    ...(verbose && message.words !== null && { words: presentWords(message, conversation) }),
  };
}

/** A line as the page and the formatted transcript show it: its speaker by current name and its times. */
export function transcriptLineOf(
  message: TranscriptRow,
  conversation: ConversationRow,
  membersById: Map<string, MemberRow>,
): PageMessage {
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
}

export function presentSummary(summary: SummaryRow) {
  return {
    id: summary.id,
    text: summary.text,
    messageRefs: (JSON.parse(summary.message_ids) as string[]).map((id) => ({ id })),
  };
}

export function presentDecision(decision: DecisionRow) {
  return {
    id: decision.id,
    text: decision.text,
    messageIds: JSON.parse(decision.message_ids) as string[],
  };
}

export function presentTopic(topic: TopicRow) {
  return {
    id: topic.id,
    text: topic.text,
    type: "topic" as const,
    score: topic.score,
    messageIds: JSON.parse(topic.message_ids) as string[],
  };
}

/** A chapter, its lines as stored (in conversation order). */
export function presentChapter(topic: TopicRow) {
  return { id: topic.id, text: topic.text, messageIds: JSON.parse(topic.message_ids) as string[] };
}

/**
 * The member an insight is for; for an insight linked to no member (made before one had the name), a
 * member now bearing the name it wrote; else none (the insight keeps only that name).
 */
export function assigneeMemberOf(
  insight: InsightRow,
  membersById: Map<string, MemberRow>,
  members: MemberRow[],
): MemberRow | undefined {
  const linked =
    insight.assignee_member_id === null ? undefined : membersById.get(insight.assignee_member_id);
  return linked ?? members.find((m) => m.name.toLowerCase() === insight.assignee_name?.toLowerCase());
}

/** The member an insight is for, with its current name and id, or the name it wrote alone. */
function assigneeOf(insight: InsightRow, membersById: Map<string, MemberRow>, members: MemberRow[]) {
  const named = assigneeMemberOf(insight, membersById, members);
  if (named) return presentPerson(named);
  return insight.assignee_name === null ? undefined : { name: insight.assignee_name };
}

export function presentInsight(
  insight: InsightRow,
  membersById: Map<string, MemberRow>,
  members: MemberRow[],
) {
  const assignee = assigneeOf(insight, membersById, members);
  return {
    id: insight.id,
    text: insight.text,
    type: insight.type,
    score: insight.score,
    messageIds: JSON.parse(insight.message_ids) as string[],
    from: presentFrom(insight.member_id ? membersById.get(insight.member_id) : undefined),
    ...(assignee !== undefined && { assignee }),
    ...(insight.due_by !== null && { dueBy: insight.due_by }),
  };
}

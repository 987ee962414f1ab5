import type { AnalysisEngines, AnalysisInput, AnalysisResult, InsightItem } from "../../analysis/types.ts";
import type { InsightRow, MemberRow } from "../../db/schema.ts";
import type { Transaction } from "../../db/transaction.ts";
import { numericId } from "../../ids.ts";
import type { ConversationsRepository } from "./conversations.repository.ts";
import { resolveSpeakers } from "./members.ts";

/** What storing an analysis writes to, bound to one transaction. */
export interface AnalysisRepositories {
  conversations: ConversationsRepository;
}

/**
 * A transaction over the conversations repository, as the analysis of a conversation needs it. The caller
 * decides what else the transaction checks first (the jobs module fences each one with the job's claim).
 */
export type ConversationWrites = Transaction<AnalysisRepositories>;

/**
 * Makes a conversation ready for analysis after a job's messages arrived: resolves their speakers to members
 * (members.ts), widens the conversation's start and end to them, and returns what the analyser reads, all in
 * one transaction. Null when the conversation is gone.
 */
export function prepareAnalysis(
  transaction: ConversationWrites,
  conversationId: string,
  jobId: string,
): Promise<AnalysisInput | null> {
  return transaction(async ({ conversations }) => {
    const conversation = await conversations.lockForWrite(conversationId);
    if (!conversation) return null;
    const arrived = await conversations.listMessagesOfJob(jobId);
    await resolveSpeakers(conversations, conversationId, arrived);
    let start = conversation.start_time;
    let end = conversation.end_time;
    for (const message of arrived) {
      if (message.start_time && message.start_time < start) start = message.start_time;
      const last = message.end_time ?? message.start_time;
      if (last && (end === null || last > end)) end = last;
    }
    await conversations.update(conversationId, { start_time: start, end_time: end });

    const members = await conversations.listMembers(conversationId);
    const nameById = new Map(members.map((member) => [member.id, member.name]));
    return {
      conversationStartTime: start,
      ...(conversation.language_given !== null && { languageCode: conversation.language_given }),
      messages: (await conversations.listMessages(conversationId))
        .filter((message) => message.hidden === 0)
        .map((message) => ({
          id: message.id,
          text: message.text,
          memberId: message.member_id,
          speakerName: message.member_id ? (nameById.get(message.member_id) ?? null) : null,
          startTime: message.start_time,
        })),
    };
  });
}

/**
 * Replaces the conversation's summary, decisions, topics and insights with an analysis's result, keeping what viewers
 * did to insights found again (`keepViewerEdits`), and records which engine wrote each part. Does nothing
 * when the conversation is gone.
 */
export function storeAnalysis(
  transaction: ConversationWrites,
  conversationId: string,
  result: AnalysisResult,
  engines: AnalysisEngines,
): Promise<void> {
  return transaction(async ({ conversations }) => {
    if (!(await conversations.lockForWrite(conversationId))) return;
    await conversations.update(conversationId, {
      summary_engine: engines.summary,
      decisions_engine: engines.decisions,
      chapters_engine: engines.chapters,
      action_items_engine: engines.actionItems,
      language_code: result.languageCode,
    });
    const members = await conversations.listMembers(conversationId);
    await conversations.replaceAnalysis(conversationId, {
      summaries: result.summary.map((item, position) => ({
        id: numericId(),
        conversation_id: conversationId,
        position,
        text: item.text,
        message_ids: JSON.stringify(item.messageIds),
      })),
      decisions: result.decisions.map((item, position) => ({
        id: numericId(),
        conversation_id: conversationId,
        position,
        text: item.text,
        message_ids: JSON.stringify(item.messageIds),
      })),
      topics: result.topics.map((topic, position) => ({
        id: numericId(),
        conversation_id: conversationId,
        position,
        kind: topic.kind,
        text: topic.text,
        score: topic.score,
        message_ids: JSON.stringify(topic.messageIds),
      })),
      insights: keepViewerEdits(
        await conversations.listInsights(conversationId),
        result.insights.map((insight, position) => ({
          id: numericId(),
          conversation_id: conversationId,
          position,
          type: insight.type,
          text: insight.text,
          score: insight.score,
          message_ids: JSON.stringify(insight.messageIds),
          member_id: knownMember(insight, members),
          assignee_member_id: assigneeMember(insight, members),
          assignee_name: insight.assigneeName,
          due_by: insight.dueBy,
          dismissed: 0,
          text_edited: 0,
        })),
      ),
    });
  });
}

/** Two insights are the same one when they have the same type and rest on the same lines. */
const insightKey = (insight: { type: string; message_ids: string }) =>
  `${insight.type} ${JSON.stringify((JSON.parse(insight.message_ids) as string[]).toSorted())}`;

/**
 * Carries what viewers did to the previous insights over to a new analysis: an insight found again (same
 * type, resting on the same lines) keeps its id, its dismissal and any text a viewer wrote; insights not
 * found again go. When one line gives several insights of a type, an unedited one first claims its exact
 * twin, and the rest pair up in order.
 */
export function keepViewerEdits(previous: InsightRow[], next: InsightRow[]): InsightRow[] {
  const unmatched = new Map<string, InsightRow[]>();
  for (const insight of previous) {
    const key = insightKey(insight);
    unmatched.set(key, [...(unmatched.get(key) ?? []), insight]);
  }
  const take = (candidates: InsightRow[] | undefined, index: number) =>
    index < 0 || !candidates ? undefined : candidates.splice(index, 1)[0];
  const twins = next.map((insight) => {
    const candidates = unmatched.get(insightKey(insight));
    const index = candidates?.findIndex((old) => old.text_edited === 0 && old.text === insight.text) ?? -1;
    return take(candidates, index);
  });
  return next.map((insight, i) => {
    const before = twins[i] ?? take(unmatched.get(insightKey(insight)), 0);
    if (!before) return insight;
    return {
      ...insight,
      id: before.id,
      dismissed: before.dismissed,
      text_edited: before.text_edited,
      text: before.text_edited === 1 ? before.text : insight.text,
    };
  });
}

function knownMember(insight: InsightItem, members: MemberRow[]): string | null {
  return insight.memberId && members.some((member) => member.id === insight.memberId)
    ? insight.memberId
    : null;
}

/**
 * The member an insight is for: the speaker of a first-person commitment, else the member the text names
 * (case-insensitive): by full name, or by first name when exactly one member has it ("Bob, can you …" →
 * "Bob Okafor"); null for the group, unnamed requests, people who are not members and first names that two
 * members share. Stored as a reference, so renames and merges reach the insight.
 */
function assigneeMember(insight: InsightItem, members: MemberRow[]): string | null {
  if (insight.assigneeMemberId !== null && members.some((member) => member.id === insight.assigneeMemberId))
    return insight.assigneeMemberId;
  const name = insight.assigneeName?.toLowerCase();
  if (name === undefined) return null;
  const named = members.find((member) => member.name.toLowerCase() === name);
  if (named) return named.id;
  const sharingFirstName = members.filter((member) => member.name.toLowerCase().split(/\s+/)[0] === name);
  return sharingFirstName.length === 1 ? (sharingFirstName[0]?.id ?? null) : null;
}

import type { Kysely } from "kysely";
import type { Analyzer, InsightItem } from "../../analysis/types.ts";
import type { InsightRow, JobRow, MemberRow } from "../../db/schema.ts";
import type { Database } from "../../db/schema.ts";
import { inTransaction } from "../../db/transaction.ts";
import { numericId, uuid } from "../../ids.ts";
import { ConversationsRepository } from "../conversations/conversations.repository.ts";
import { speakerIdentity } from "../conversations/members.ts";

/**
 * Processes one submission: resolves each new message's speaker to a member (creating members in order
 * of first appearance), widens the conversation's time bounds, then re-analyses the whole conversation
 * in the analyzer's worker and stores the result. Each transaction that writes first checks the job's
 * claim (throwing ClaimTakenOver when another process has taken the job over), so a process that stalled
 * past its lease writes nothing.
 */
export function createJobProcessor(db: Kysely<Database>, analyzer: Analyzer) {
  return async function processJob(job: JobRow): Promise<void> {
    const ready = await inTransaction(db, async ({ conversations, jobs }) => {
      await jobs.holdClaim(job);
      const conversation = await conversations.lockForWrite(job.conversation_id);
      if (!conversation) return false;
      const identities = await conversations.identityMap(conversation.id);
      let nextPosition = (await conversations.listMembers(conversation.id)).length;
      let start = conversation.start_time;
      let end = conversation.end_time;
      for (const message of await conversations.listMessagesOfJob(job.id)) {
        if (message.start_time && message.start_time < start) start = message.start_time;
        const last = message.end_time ?? message.start_time;
        if (last && (end === null || last > end)) end = last;
        const identity = speakerIdentity(message);
        if (!identity) continue;
        let memberId = identity.keys.map((key) => identities.get(key)).find((id) => id !== undefined);
        if (!memberId) {
          memberId = uuid();
          await conversations.insertMember(
            {
              id: memberId,
              conversation_id: conversation.id,
              name: identity.name,
              email: identity.email,
              user_id: identity.userId,
              position: nextPosition++,
              identity_key: identity.keys[0] ?? `member:${memberId}`,
            },
            identity.keys,
          );
          for (const key of identity.keys) identities.set(key, memberId);
        }
        if (message.member_id !== memberId)
          await conversations.updateMessage(message.id, { member_id: memberId });
      }
      await conversations.update(conversation.id, { start_time: start, end_time: end });
      return true;
    });
    if (!ready) return;

    const repository = new ConversationsRepository(db);
    const conversation = await repository.findById(job.conversation_id);
    if (!conversation) return;
    const members = await repository.listMembers(conversation.id);
    const messages = await repository.listMessages(conversation.id);
    const nameById = new Map(members.map((member) => [member.id, member.name]));
    const result = await analyzer.analyze({
      conversationStartTime: conversation.start_time,
      messages: messages
        .filter((message) => message.hidden === 0)
        .map((message) => ({
          id: message.id,
          text: message.text,
          memberId: message.member_id,
          speakerName: message.member_id ? (nameById.get(message.member_id) ?? null) : null,
          startTime: message.start_time,
        })),
    });
    await inTransaction(db, async ({ conversations, jobs }) => {
      await jobs.holdClaim(job);
      if (!(await conversations.lockForWrite(conversation.id))) return;
      await conversations.replaceAnalysis(conversation.id, {
        summaries: result.summary.map((item, position) => ({
          id: numericId(),
          conversation_id: conversation.id,
          position,
          text: item.text,
          message_ids: JSON.stringify(item.messageIds),
        })),
        topics: result.topics.map((topic, position) => ({
          id: numericId(),
          conversation_id: conversation.id,
          position,
          text: topic.text,
          score: topic.score,
          message_ids: JSON.stringify(topic.messageIds),
        })),
        insights: keepViewerEdits(
          await conversations.listInsights(conversation.id),
          result.insights.map((insight, position) => ({
            id: numericId(),
            conversation_id: conversation.id,
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
  };
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
 * (case-insensitive, the earliest first); null for the group, unnamed requests and people who are not
 * members. Stored as a reference, so renames and merges reach the insight.
 */
function assigneeMember(insight: InsightItem, members: MemberRow[]): string | null {
  if (insight.assigneeMemberId !== null && members.some((member) => member.id === insight.assigneeMemberId))
    return insight.assigneeMemberId;
  const name = insight.assigneeName?.toLowerCase();
  return name === undefined
    ? null
    : (members.find((member) => member.name.toLowerCase() === name)?.id ?? null);
}

import type { Updateable } from "kysely";
import type { Clock } from "../../clock.ts";
import type {
  ConversationRow,
  InsightRow,
  MembersTable,
  MemberRow,
  TranscriptRow,
  SummaryRow,
  DecisionRow,
  TopicRow,
} from "../../db/schema.ts";
import type { Transaction } from "../../db/transaction.ts";
import { invalid, notFound } from "../../errors.ts";
import type { ConversationsRepository } from "./conversations.repository.ts";
import type { InsightType } from "./conversations.schemas.ts";
import { emailKey } from "./members.ts";
import {
  type FailedJob,
  presentConversation,
  presentInsight,
  presentMember,
  presentMessage,
  presentSummary,
  presentChapter,
  presentDecision,
  presentTopic,
} from "./conversations.presenter.ts";

/** What voice matching and the owner decided about a member: the voice that named it, or the one it suggests. */
export type MemberVoice = Pick<
  Updateable<MembersTable>,
  | "voice_id"
  | "voice_score"
  | "suggested_voice_id"
  | "suggested_voice_name"
  | "suggested_voice_score"
  | "diarized_name"
>;

/** A member no voice named or is suggested for. */
export const NO_VOICE = {
  voice_id: null,
  voice_score: null,
  suggested_voice_id: null,
  suggested_voice_name: null,
  suggested_voice_score: null,
  diarized_name: null,
} satisfies MemberVoice;

/** A conversation's stored rows, for a view that is built from domain data rather than the API's shapes. */
export interface ConversationInFull {
  conversation: ConversationRow;
  members: MemberRow[];
  messages: TranscriptRow[];
  summaries: SummaryRow[];
  decisions: DecisionRow[];
  topics: TopicRow[];
  insights: InsightRow[];
  /** Insights a viewer dismissed (above the confidence threshold), which an editable link can restore. */
  dismissedInsights: InsightRow[];
}

/** Files other modules keep for a conversation (media uploads), removed when it is deleted. */
export interface ConversationAttachments {
  /** Called before the conversation's rows are deleted; what it returns runs once they are. */
  release(conversationId: string): Promise<() => Promise<void>>;
}

/** What the jobs module says of conversations' jobs (the jobs service). */
export interface ConversationJobs {
  /** The conversations given whose latest job failed, by id: that job and why it failed. */
  latestFailures(appId: string, conversationIds: string[]): Promise<Map<string, FailedJob>>;
}

/** Reads and edits of conversations, always scoped to the app that asks. */
export class ConversationsService {
  constructor(
    private readonly conversations: ConversationsRepository,
    private readonly transaction: Transaction<{ conversations: ConversationsRepository }>,
    private readonly clock: Clock,
    private readonly attachments: ConversationAttachments,
    private readonly jobs: ConversationJobs,
  ) {}

  /** Throws not_found when the app cannot see the conversation. */
  private async require(appId: string, conversationId: string): Promise<ConversationRow> {
    const conversation = await this.conversations.find(appId, conversationId);
    if (!conversation) throw notFound("conversation");
    return conversation;
  }

  /** Throws not_found when the app cannot see the conversation; reads nothing else. */
  async requireVisible(appId: string, conversationId: string): Promise<void> {
    if ((await this.conversations.contentVersion(appId, conversationId)) === undefined) {
      throw notFound("conversation");
    }
  }

  /** A page of the app's conversations, newest first; one whose latest job failed says so (`failedJob`). */
  async listConversations(appId: string, limit: number, offset: number) {
    const listed = await this.listConversationRows(appId, { limit, offset });
    const failures = await this.jobs.latestFailures(
      appId,
      listed.map(({ conversation }) => conversation.id),
    );
    return listed.map(({ conversation, members }) =>
      presentConversation(conversation, members, failures.get(conversation.id)),
    );
  }

  /** A page of the app's conversations with their members, newest first, optionally by part of the name. */
  async listConversationRows(
    appId: string,
    page: { limit: number; offset: number; nameContains?: string | undefined },
  ): Promise<{ conversation: ConversationRow; members: MemberRow[] }[]> {
    const rows = await this.conversations.list(appId, page.limit, page.offset, page.nameContains);
    const members = await this.conversations.listMembersOfEach(rows.map((row) => row.id));
    return rows.map((conversation) => ({ conversation, members: members.get(conversation.id) ?? [] }));
  }

  /**
   * Those of the conversations with a line that names no speaker (the page's "Unknown speaker": a recording
   * transcribed without diarization or channel names), in one query however many.
   */
  withUnnamedLines(conversationIds: readonly string[]): Promise<Set<string>> {
    return this.conversations.withUnnamedLines(conversationIds);
  }

  /** The names of those of the conversations the app can see, by id (one query, however many). */
  namesOf(appId: string, conversationIds: readonly string[]): Promise<Map<string, string>> {
    return this.conversations.namesOf(appId, conversationIds);
  }

  async getConversation(appId: string, conversationId: string) {
    const conversation = await this.require(appId, conversationId);
    const [members, failures] = await Promise.all([
      this.conversations.listMembers(conversationId),
      this.jobs.latestFailures(appId, [conversationId]),
    ]);
    return presentConversation(conversation, members, failures.get(conversationId));
  }

  /** Deletes the conversation, its rows and its files; throws not_found when the app cannot see it. */
  async deleteConversation(appId: string, conversationId: string): Promise<void> {
    await this.require(appId, conversationId);
    const removeFiles = await this.attachments.release(conversationId);
    const deleted = await this.transaction(({ conversations }) =>
      conversations.delete(appId, conversationId),
    );
    if (!deleted) throw notFound("conversation");
    await removeFiles();
  }

  /** Messages in order; lines hidden on a summary page are left out. `verbose` adds recognised words. */
  async listMessages(appId: string, conversationId: string, options: { verbose?: boolean } = {}) {
    const conversation = await this.require(appId, conversationId);
    const [messages, members] = await Promise.all([
      this.conversations.listMessages(conversationId),
      this.conversations.listMembers(conversationId),
    ]);
    const byId = new Map(members.map((member) => [member.id, member]));
    return messages
      .filter((message) => message.hidden === 0)
      .map((message) => presentMessage(message, conversation, byId, options.verbose === true));
  }

  /** The conversation's content version (see lockForWrite); undefined when the app cannot see it. */
  contentVersion(appId: string, conversationId: string): Promise<number | undefined> {
    return this.conversations.contentVersion(appId, conversationId);
  }

  /**
   * A member and where it speaks: its visible lines' spans in media time (milliseconds from the conversation's
   * start), in order, overlapping ones joined. Throws not_found when the app cannot see the conversation or it has
   * no such member.
   */
  async speakerOf(
    appId: string,
    conversationId: string,
    memberId: string,
  ): Promise<{ member: MemberRow; spans: { startMs: number; endMs: number }[] }> {
    const conversation = await this.require(appId, conversationId);
    const member = await this.conversations.findMember(conversationId, memberId);
    if (!member) throw notFound("member");
    const start = Date.parse(conversation.start_time);
    const spans: { startMs: number; endMs: number }[] = [];
    for (const line of await this.conversations.listTimesOfMember(conversationId, memberId)) {
      const startMs = Date.parse(line.start_time ?? "") - start;
      const endMs = Date.parse(line.end_time ?? "") - start;
      const last = spans.at(-1);
      if (!(endMs > startMs)) continue;
      if (last !== undefined && startMs <= last.endMs) last.endMs = Math.max(last.endMs, endMs);
      else spans.push({ startMs, endMs });
    }
    return { member, spans };
  }

  /** Throws not_found when the app cannot see the conversation under that secret generation. */
  async listMembers(appId: string, generation: number, conversationId: string) {
    const members = await this.conversations.listMembersOfApp(appId, generation, conversationId);
    if (members === undefined) throw notFound("conversation");
    return members.map(presentMember);
  }

  /**
   * Renames a member and sets its e-mail; when the e-mail is another member's, merges this member into
   * that one (docs/ARCHITECTURE.md, Members). A new name is the owner's word over voice matching: the member's
   * voice and suggestion are cleared (docs/VOICES.md). Answers the id of the member that holds the name now.
   * Throws invalid when the body's id differs from the path's, not_found otherwise.
   */
  async updateMember(
    appId: string,
    conversationId: string,
    memberId: string,
    change: { id: string; name: string; email?: string | undefined },
  ): Promise<string> {
    if (change.id !== memberId) throw invalid("id must equal the memberId in the path");
    const name = change.name.trim();
    if (name === "") throw invalid("name must not be blank");
    return this.transaction(async ({ conversations }) => {
      if (!(await conversations.lockForWrite(conversationId, appId))) throw notFound("conversation");
      const member = await conversations.findMember(conversationId, memberId);
      if (!member) throw notFound("member");
      const email = change.email?.trim() || null;
      let survivor: MemberRow = member;
      if (email !== null) {
        const holder = (await conversations.identityMap(conversationId)).get(emailKey(email));
        const other =
          holder && holder !== memberId ? await conversations.findMember(conversationId, holder) : undefined;
        if (other) {
          await conversations.mergeMember(conversationId, member.id, other.id);
          survivor = { ...other, position: Math.min(other.position, member.position) };
        } else {
          await conversations.addIdentities(conversationId, member.id, [emailKey(email)]);
        }
      }
      await conversations.updateMember(survivor.id, {
        name,
        email: email ?? survivor.email,
        position: survivor.position,
        ...(name !== survivor.name && NO_VOICE),
      });
      await conversations.update(conversationId, { updated_at: this.clock.now().toISOString() });
      return survivor.id;
    });
  }

  /** Records what voice matching or the owner decided about a member (docs/VOICES.md). */
  async markVoice(conversationId: string, memberId: string, voice: MemberVoice): Promise<void> {
    await this.conversations.updateMember(memberId, voice);
    await this.conversations.update(conversationId, { updated_at: this.clock.now().toISOString() });
  }

  /**
   * Gives a member back the name the diarizer gave it ("Speaker N"), as if no voice had named it: the member's
   * name, no e-mail, its lines' speaker, and that name as its one identity, so later lines of the person the voice
   * named are not taken for it. Throws not_found.
   */
  async unnameMember(appId: string, conversationId: string, memberId: string, name: string): Promise<void> {
    await this.transaction(async ({ conversations }) => {
      if (!(await conversations.lockForWrite(conversationId, appId))) throw notFound("conversation");
      if (!(await conversations.findMember(conversationId, memberId))) throw notFound("member");
      await conversations.renameLinesOfMember(conversationId, memberId, name);
      await conversations.replaceIdentities(conversationId, memberId, [`name:${name}`]);
      await conversations.updateMember(memberId, { name, email: null, ...NO_VOICE });
      await conversations.update(conversationId, { updated_at: this.clock.now().toISOString() });
    });
  }

  /**
   * Renames the conversation and/or replaces its metadata; answers the conversation as it now is. Throws
   * invalid for a blank name or neither change, not_found.
   */
  async updateConversation(
    appId: string,
    conversationId: string,
    change: { name?: string | undefined; metadata?: Record<string, unknown> | undefined },
  ) {
    if (change.name === undefined && change.metadata === undefined) throw invalid("send name or metadata");
    const name = change.name?.trim();
    if (name === "") throw invalid("name must not be blank");
    return this.transaction(async ({ conversations }) => {
      if (!(await conversations.lockForWrite(conversationId, appId))) throw notFound("conversation");
      await conversations.update(conversationId, {
        ...(name !== undefined && { name }),
        ...(change.metadata !== undefined && { metadata: JSON.stringify(change.metadata) }),
        updated_at: this.clock.now().toISOString(),
      });
      const updated = await conversations.findById(conversationId);
      if (!updated) throw notFound("conversation");
      return {
        id: updated.id,
        name: updated.name,
        metadata: JSON.parse(updated.metadata) as Record<string, unknown>,
      };
    });
  }

  /**
   * Changes a line's text and/or hides or restores it; true when something changed (the caller then has the
   * conversation analysed again). Throws not_found.
   */
  async editMessage(
    appId: string,
    conversationId: string,
    messageId: string,
    change: { text?: string | undefined; hidden?: boolean | undefined },
  ): Promise<boolean> {
    const hidden = change.hidden === undefined ? undefined : change.hidden ? 1 : 0;
    return this.transaction(async ({ conversations }) => {
      if (!(await conversations.lockForWrite(conversationId, appId))) throw notFound("conversation");
      const message = await conversations.findMessage(conversationId, messageId);
      if (!message) throw notFound("message");
      const text = change.text;
      if ((text ?? message.text) === message.text && (hidden ?? message.hidden) === message.hidden) {
        return false;
      }
      await conversations.updateMessage(messageId, {
        ...(text !== undefined && { text }),
        ...(hidden !== undefined && { hidden }),
      });
      await conversations.update(conversationId, { updated_at: this.clock.now().toISOString() });
      return true;
    });
  }

  /**
   * Changes an insight's text (kept through later analyses as a viewer's edit) and/or dismisses it, under
   * the conversation's lock so a re-analysis replacing the insights cannot drop the edit. Throws not_found.
   */
  async editInsight(
    appId: string,
    conversationId: string,
    insightId: string,
    change: { text?: string | undefined; dismissed?: boolean | undefined },
  ): Promise<void> {
    await this.transaction(async ({ conversations }) => {
      if (!(await conversations.lockForWrite(conversationId, appId))) throw notFound("conversation");
      if (!(await conversations.findInsight(conversationId, insightId))) throw notFound("insight");
      await conversations.updateInsight(insightId, {
        ...(change.text !== undefined && { text: change.text, text_edited: 1 }),
        ...(change.dismissed !== undefined && { dismissed: change.dismissed ? 1 : 0 }),
      });
      await conversations.update(conversationId, { updated_at: this.clock.now().toISOString() });
    });
  }

  async getSummary(appId: string, conversationId: string) {
    await this.require(appId, conversationId);
    return (await this.conversations.listSummaries(conversationId)).map(presentSummary);
  }

  /** What the conversation decided, in order (Recap's extension). Throws not_found. */
  async getDecisions(appId: string, conversationId: string) {
    await this.require(appId, conversationId);
    return (await this.conversations.listDecisions(conversationId)).map(presentDecision);
  }

  async getTopics(appId: string, conversationId: string) {
    await this.require(appId, conversationId);
    return (await this.conversations.listTopics(conversationId)).map(presentTopic);
  }

  /**
   * The conversation's chapters alone, in the order they happened (by their first line). Topics stored
   * before chapters had a kind are key phrases, so such a conversation has none until analysed again.
   * Throws not_found.
   */
  async getChapters(appId: string, conversationId: string) {
    await this.require(appId, conversationId);
    const chapters = (await this.conversations.listTopics(conversationId, "chapter")).map(presentChapter);
    const positions = await this.conversations.messagePositions(
      conversationId,
      chapters.flatMap((chapter) => chapter.messageIds.slice(0, 1)),
    );
    const firstLine = (chapter: { messageIds: string[] }) =>
      positions.get(chapter.messageIds[0] ?? "") ?? Infinity;
    return chapters.sort((a, b) => firstLine(a) - firstLine(b));
  }

  /**
   * The conversation and everything derived from it, as stored, each read once: what a summary page is
   * built from. Messages include hidden ones; insights are those the insight routes show, and apart those
   * dismissed. Throws not_found.
   */
  async readInFull(appId: string, conversationId: string): Promise<ConversationInFull> {
    const conversation = await this.require(appId, conversationId);
    const [members, messages, summaries, decisions, topics, insights] = await Promise.all([
      this.conversations.listMembers(conversationId),
      this.conversations.listTranscript(conversationId),
      this.conversations.listSummaries(conversationId),
      this.conversations.listDecisions(conversationId),
      this.conversations.listTopics(conversationId),
      this.conversations.listInsights(conversationId),
    ]);
    return {
      conversation,
      members,
      messages,
      summaries,
      decisions,
      topics,
      insights: insights.filter((insight) => isShown(insight, conversation)),
      dismissedInsights: insights.filter(
        (insight) => insight.dismissed === 1 && isShown({ ...insight, dismissed: 0 }, conversation),
      ),
    };
  }

  /** Insights (of one type, when given) above the conversation's confidence threshold, dismissed ones left out. */
  async getInsights(appId: string, conversationId: string, type?: InsightType) {
    const conversation = await this.require(appId, conversationId);
    const [insights, members] = await Promise.all([
      this.conversations.listInsights(conversationId),
      this.conversations.listMembers(conversationId),
    ]);
    const byId = new Map(members.map((member) => [member.id, member]));
    return insights
      .filter((insight) => (type === undefined || insight.type === type) && isShown(insight, conversation))
      .map((insight) => presentInsight(insight, byId, members));
  }
}

function isShown(insight: InsightRow, conversation: ConversationRow): boolean {
  return insight.dismissed === 0 && insight.score >= (conversation.confidence_threshold ?? 0);
}

import type { Clock } from "../../clock.ts";
import type { Transaction } from "../../db/transaction.ts";
import { forbidden, invalid, notFound } from "../../errors.ts";
import type { ConversationsRepository } from "../conversations/conversations.repository.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import type { OpenLink } from "../experiences/experiences.service.ts";
import type { IngestionService } from "../ingestion/ingestion.service.ts";

/**
 * Edits made through an editable link. The link itself is the authority: a read-only link is refused
 * (forbidden); each edit is stored at once, so every other link and the API see it.
 */
export class PageEditsService {
  private readonly repository: ConversationsRepository;

  constructor(
    private readonly deps: {
      repository: ConversationsRepository;
      transaction: Transaction<{ conversations: ConversationsRepository }>;
      clock: Clock;
      conversations: ConversationsService;
      /** Re-runs the analysis after a line changes, so summaries and insights follow the transcript. */
      ingestion: Pick<IngestionService, "scheduleReanalysis">;
    },
  ) {
    this.repository = deps.repository;
  }

  private requireEditable(link: OpenLink): void {
    if (link.read_only === 1) throw forbidden("This summary link is read-only");
  }

  /** Throws forbidden for a read-only link, invalid for a blank name. */
  async renameConversation(link: OpenLink, name: string): Promise<void> {
    this.requireEditable(link);
    const clean = name.trim();
    if (clean === "") throw invalid("name must not be blank");
    await this.repository.update(link.conversation_id, {
      name: clean,
      updated_at: this.deps.clock.now().toISOString(),
    });
  }

  /** Renames a speaker exactly as PUT …/members/{id} does. Throws forbidden, invalid or not_found. */
  async renameMember(link: OpenLink, memberId: string, name: string): Promise<void> {
    this.requireEditable(link);
    await this.deps.conversations.updateMember(link.app_id, link.conversation_id, memberId, {
      id: memberId,
      name,
    });
  }

  /**
   * Changes a line's text and/or hides or restores it, then has the conversation analysed again so the
   * summary, topics and insights read the new text and never rest on a hidden line. Returns the id of the
   * job that will do it, or null when nothing changed. Throws forbidden, invalid or not_found.
   */
  async editMessage(
    link: OpenLink,
    messageId: string,
    change: { text?: string; hidden?: boolean },
  ): Promise<{ jobId: string | null }> {
    this.requireEditable(link);
    const text = change.text?.trim();
    if (text === "") throw invalid("text must not be blank");
    if (text === undefined && change.hidden === undefined) throw invalid("send text or hidden");
    const hidden = change.hidden === undefined ? undefined : change.hidden ? 1 : 0;
    const changed = await this.deps.transaction(async ({ conversations }) => {
      await conversations.lockForWrite(link.conversation_id);
      const message = await conversations.findMessage(link.conversation_id, messageId);
      if (!message) throw notFound("message");
      if ((text ?? message.text) === message.text && (hidden ?? message.hidden) === message.hidden) {
        return false;
      }
      await conversations.updateMessage(messageId, {
        ...(text !== undefined && { text }),
        ...(hidden !== undefined && { hidden }),
      });
      await conversations.update(link.conversation_id, { updated_at: this.deps.clock.now().toISOString() });
      return true;
    });
    if (!changed) return { jobId: null };
    return { jobId: await this.deps.ingestion.scheduleReanalysis(link.app_id, link.conversation_id) };
  }

  /** Changes an insight's text and/or dismisses it. Throws forbidden, invalid or not_found. */
  async editInsight(
    link: OpenLink,
    insightId: string,
    change: { text?: string; dismissed?: boolean },
  ): Promise<void> {
    this.requireEditable(link);
    const text = change.text?.trim();
    if (text === "") throw invalid("text must not be blank");
    if (text === undefined && change.dismissed === undefined) throw invalid("send text or dismissed");
    // Under the conversation's lock, so a re-analysis replacing the insights cannot drop this edit.
    await this.deps.transaction(async ({ conversations }) => {
      await conversations.lockForWrite(link.conversation_id);
      if (!(await conversations.findInsight(link.conversation_id, insightId))) throw notFound("insight");
      await conversations.updateInsight(insightId, {
        ...(text !== undefined && { text, text_edited: 1 }),
        ...(change.dismissed !== undefined && { dismissed: change.dismissed ? 1 : 0 }),
      });
      await conversations.update(link.conversation_id, { updated_at: this.deps.clock.now().toISOString() });
    });
  }
}

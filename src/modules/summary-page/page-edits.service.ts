import { forbidden, invalid } from "../../errors.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import type { OpenLink } from "../experiences/experiences.service.ts";
import type { IngestionService } from "../ingestion/ingestion.service.ts";

/**
 * Edits made through an editable link. The link itself is the authority: a read-only link is refused
 * (forbidden); each edit is stored at once, through the conversations service, so every other link and
 * the API see it.
 */
export class PageEditsService {
  constructor(
    private readonly deps: {
      conversations: Pick<
        ConversationsService,
        "updateConversation" | "updateMember" | "editMessage" | "editInsight"
      >;
      /** Re-runs the analysis after a line changes, so summaries and insights follow the transcript. */
      ingestion: Pick<IngestionService, "scheduleReanalysis">;
    },
  ) {}

  private requireEditable(link: OpenLink): void {
    if (link.read_only === 1) throw forbidden("This summary link is read-only");
  }

  /** Throws forbidden for a read-only link, invalid for a blank name. */
  async renameConversation(link: OpenLink, name: string): Promise<void> {
    this.requireEditable(link);
    await this.deps.conversations.updateConversation(link.app_id, link.conversation_id, { name });
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
    const changed = await this.deps.conversations.editMessage(link.app_id, link.conversation_id, messageId, {
      text,
      hidden: change.hidden,
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
    await this.deps.conversations.editInsight(link.app_id, link.conversation_id, insightId, {
      text,
      dismissed: change.dismissed,
    });
  }
}

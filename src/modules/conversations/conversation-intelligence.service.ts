import type { Analyzer } from "../../analysis/types.ts";
import { DomainError } from "../../errors.ts";
import { captionCues, cuesToSrt, cuesToWebVtt } from "../../pages/exports.ts";
import { transcriptToMarkdown } from "../../pages/page-data.ts";
import type { TranscriptBody } from "./conversation-intelligence.schemas.ts";
import { endOffsetOf, timeOffsetOf, transcriptLineOf } from "./conversations.presenter.ts";
import type { ConversationsService } from "./conversations.service.ts";

/**
 * What Symbl computed from a conversation on request: intents, entities, speaker analytics and the
 * formatted transcript, each worked out from the stored lines when asked (so a renamed member or an
 * edited line shows at once) by the pure functions in src/analysis and src/pages. Lines hidden on a
 * summary page are left out, as GET …/messages leaves them out.
 */
export class ConversationIntelligenceService {
  constructor(
    private readonly conversations: Pick<ConversationsService, "readInFull">,
    /**
     * Entities, intents and analytics are worked out in a worker thread: their time grows with the
     * conversation (wink-nlp takes ~0.1–0.5 s on a 1,300-line meeting; intents and analytics took 1.4 s
     * on 20,000 lines), which on the event loop would hold every other request.
     */
    private readonly analyzer: Pick<Analyzer, "findEntities" | "findIntents" | "speakerAnalytics">,
  ) {}

  private async read(appId: string, conversationId: string) {
    const rows = await this.conversations.readInFull(appId, conversationId);
    return { ...rows, messages: rows.messages.filter((message) => message.hidden === 0) };
  }

  /** The lines that state a call intent; each intent's id is its line's. Throws not_found. */
  async getIntents(appId: string, conversationId: string) {
    const { messages } = await this.read(appId, conversationId);
    const found = await this.analyzer.findIntents(messages.map(({ id, text }) => ({ id, text })));
    return found.map((found) => ({
      id: found.messageIds[0] ?? "",
      text: found.text,
      type: "intent" as const,
      score: found.score,
      messageIds: found.messageIds,
      intent: found.intent,
      alternatives: found.alternatives,
      entities: [],
    }));
  }

  /** People, organisations, places, dates and times, money and numbers named in the lines. Throws not_found. */
  async getEntities(appId: string, conversationId: string) {
    const { conversation, members, messages } = await this.read(appId, conversationId);
    return this.analyzer.findEntities({
      lines: messages.map((message) => ({
        id: message.id,
        text: message.text,
        reference: message.start_time ?? conversation.start_time,
      })),
      knownNames: members.map((member) => member.name),
    });
  }

  /** Talk, listen, overlap and silence from the lines' times, and each member's words. Throws not_found. */
  async getAnalytics(appId: string, conversationId: string) {
    const { conversation, members, messages } = await this.read(appId, conversationId);
    const end = conversation.end_time ?? conversation.start_time;
    return this.analyzer.speakerAnalytics({
      members: members.map((member) => ({
        id: member.id,
        name: member.name,
        ...(member.user_id !== null && { userId: member.user_id }),
        ...(member.email !== null && { email: member.email }),
      })),
      lines: messages.map((message) => ({
        id: message.id,
        memberId: message.member_id,
        text: message.text,
        start: timeOffsetOf(message, conversation),
        end: endOffsetOf(message, conversation),
      })),
      conversationEnd: Math.max(0, (Date.parse(end) - Date.parse(conversation.start_time)) / 1000),
    });
  }

  /**
   * The transcript as the summary page's downloads write it: Markdown, SRT or WebVTT. Throws not_found, and
   * conflict for captions of a conversation whose lines have no times.
   */
  async formatTranscript(appId: string, conversationId: string, options: TranscriptBody) {
    const { conversation, members, messages } = await this.read(appId, conversationId);
    const membersById = new Map(members.map((member) => [member.id, member]));
    const view = {
      messages: messages.map((message) => transcriptLineOf(message, conversation, membersById)),
    };
    const speakers = options.showSpeakerSeparation ?? true;
    const { contentType } = options;
    if (contentType === "text/markdown") {
      return {
        payload: transcriptToMarkdown(view, { speakers, timestamps: options.showTimestamps ?? true }),
        contentType,
      };
    }
    const cues = captionCues(view);
    if (cues.length === 0) {
      throw new DomainError("conflict", "This conversation's lines have no times, so it has no captions");
    }
    return {
      payload: contentType === "text/srt" ? cuesToSrt(cues, { speakers }) : cuesToWebVtt(cues, { speakers }),
      contentType,
    };
  }
}

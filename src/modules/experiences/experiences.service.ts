import type { Clock } from "../../clock.ts";
import type { ExperienceRow } from "../../db/schema.ts";
import type { Transaction } from "../../db/transaction.ts";
import { DomainError, forbidden, invalid, notFound } from "../../errors.ts";
import { uuid } from "../../ids.ts";
import { canonicalHost, isHttpUrl } from "../../urls.ts";
import type { PageInsight, PageView } from "../../pages/view-model.ts";
import type { AppsService } from "../apps/apps.service.ts";
import type { ConversationsRepository } from "../conversations/conversations.repository.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import type { IngestionService } from "../ingestion/ingestion.service.ts";
import { linkStatus, presentExperience, settingsOf } from "./experiences.presenter.ts";
import type { ExperiencesRepository } from "./experiences.repository.ts";
import {
  DEFAULT_EXPIRES_IN,
  type CreateExperienceBody,
  type ExperienceSettings,
} from "./experiences.schemas.ts";
import { hashLinkToken, SummaryLinkSigner } from "./summary-link.ts";

export interface ExperiencesDeps {
  experiences: ExperiencesRepository;
  clock: Clock;
  secret: string;
  /** Base of every link, e.g. https://recap.example.com (a path prefix is kept). */
  publicUrl: string;
  apps: AppsService;
  conversations: ConversationsService;
}

/** A link that no longer opens (410), and why: its page may say which, never anything about the conversation. */
export class SummaryLinkGone extends DomainError {
  constructor(readonly reason: "expired" | "revoked") {
    super("gone", reason === "revoked" ? "This summary link was revoked" : "This summary link has expired");
  }
}

/** An opened link: the row and the settings it was made with. */
export type OpenLink = Omit<ExperienceRow, "settings"> & { settings: ReturnType<typeof settingsOf> };

const INSIGHT_TYPES = ["action_item", "follow_up", "question"] as const;

/** The percent-encoded form of a URL the schema's `http-url` format accepted. */
const normalUrl = (url: string) => new URL(url).href;

const MEDIA_URL_FIELD = { "video-summary": "videoUrl", "audio-summary": "audioUrl" } as const;

/**
 * The settings a new link keeps, from a schema-checked body: the media URL its kind needs (and only that
 * one), tidied colours and font name, and every default. Throws invalid for a missing media URL or a
 * speakerAvatarURLs key that cannot be a member id.
 */
function settingsFrom(body: CreateExperienceBody): ExperienceSettings {
  const settings: ExperienceSettings = {
    name: body.name,
    ...(body.logo !== undefined && { logo: normalUrl(body.logo) }),
    ...(body.favicon !== undefined && { favicon: normalUrl(body.favicon) }),
    color: {},
    font: body.font?.family === undefined ? {} : { family: body.font.family.trim() },
    summaryURLExpiresIn: body.summaryURLExpiresIn ?? DEFAULT_EXPIRES_IN,
    readOnly: body.readOnly ?? false,
    enableCustomDomain: body.enableCustomDomain ?? false,
    speakerAvatarURLs: Object.fromEntries(
      Object.entries(body.speakerAvatarURLs ?? {}).map(([memberId, url]) => [memberId, normalUrl(url)]),
    ),
    hideShareButton: body.hideShareButton ?? false,
  };
  for (const key of ["background", "topicsFilter", "insightsFilter"] as const) {
    const colour = body.color?.[key];
    if (colour !== undefined) settings.color[key] = colour.toLowerCase();
  }
  if (body.name !== "verbose-text-summary") {
    const field = MEDIA_URL_FIELD[body.name];
    const url = body[field];
    if (url === undefined) {
      const media = body.name === "video-summary" ? "video" : "audio";
      throw invalid(`${field} is required for ${body.name}: an absolute http(s) URL of the ${media}`);
    }
    if (!isHttpUrl(url)) throw invalid(`${field} must be an absolute http(s) URL`);
    settings[field] = normalUrl(url);
  }
  for (const memberId of Object.keys(settings.speakerAvatarURLs)) {
    if (memberId === "" || memberId.length > 64) throw invalid("speakerAvatarURLs keys must be member ids");
  }
  return settings;
}

/** Summary links: creating, listing and revoking them, and opening one for a viewer. */
export class ExperiencesService {
  private readonly experiences: ExperiencesRepository;
  private readonly signer: SummaryLinkSigner;

  constructor(private readonly deps: ExperiencesDeps) {
    this.experiences = deps.experiences;
    this.signer = new SummaryLinkSigner(deps.secret);
  }

  /**
   * Creates a signed link to the conversation's summary page with the given settings (docs/PAGES.md, The
   * API). The body's shape is already checked by its schema; this adds the rules that span fields or need
   * the app.
   * Throws invalid naming the field, not_found when the app cannot see the conversation.
   */
  async createSummaryLink(
    appId: string,
    conversationId: string,
    body: CreateExperienceBody,
  ): Promise<{ name: string; url: string }> {
    const settings = settingsFrom(body);
    await this.deps.conversations.getConversation(appId, conversationId);
    let customDomain: string | null = null;
    if (settings.enableCustomDomain) {
      customDomain = (await this.deps.apps.getApp(appId)).customDomain;
      if (customDomain === null) {
        throw invalid(
          "enableCustomDomain is true but this app has no customDomain; set one on the app first",
        );
      }
    }
    const now = this.deps.clock.now();
    const token = this.signer.issue();
    await this.experiences.insert({
      id: uuid(),
      app_id: appId,
      conversation_id: conversationId,
      name: settings.name,
      token_hash: hashLinkToken(token),
      settings: JSON.stringify(settings),
      read_only: settings.readOnly ? 1 : 0,
      custom_domain: customDomain,
      expires_at:
        settings.summaryURLExpiresIn === 0
          ? null
          : new Date(now.getTime() + settings.summaryURLExpiresIn * 1000).toISOString(),
      revoked_at: null,
      created_at: now.toISOString(),
    });
    return { name: settings.name, url: this.linkUrl(token, settings.name, customDomain) };
  }

  private linkUrl(token: string, kind: string, customDomain: string | null): string {
    const base = new URL(this.deps.publicUrl);
    const origin = customDomain === null ? base.origin : `${base.protocol}//${customDomain}`;
    const url = `${origin}${base.pathname.replace(/\/+$/, "")}/s/${token}`;
    return kind === "video-summary" ? `${url}?showVideoSummary=true` : url;
  }

  /** Throws not_found when the app cannot see the conversation. */
  async listLinks(appId: string, conversationId: string) {
    await this.deps.conversations.getConversation(appId, conversationId);
    const now = this.deps.clock.now();
    return (await this.experiences.listOfConversation(appId, conversationId)).map((row) =>
      presentExperience(row, now),
    );
  }

  /** Turns a link off for good. Throws not_found for a link the app cannot see. */
  async revokeLink(appId: string, conversationId: string, experienceId: string): Promise<void> {
    const row = await this.experiences.find(appId, conversationId, experienceId);
    if (!row) throw notFound("experience");
    await this.experiences.revoke(row.id, this.deps.clock.now().toISOString());
  }

  /**
   * Opens the link a viewer followed. A tampered or unknown token, or a link requested on a host that
   * belongs to another app's custom domain, throws not_found; an expired or revoked link throws
   * SummaryLinkGone saying which.
   */
  async openLink(token: string, host: string | undefined): Promise<OpenLink> {
    if (!this.signer.verify(token)) throw notFound("link");
    const row = await this.experiences.findByTokenHash(hashLinkToken(token));
    if (!row) throw notFound("link");
    // Hosts compare in one spelling (case, trailing dot, port, IDN): any other spelling of another app's
    // domain is that domain. A Host that is no host at all could be anyone's, so it opens nothing.
    const requestHost = canonicalHost(host ?? "");
    if (requestHost === null) throw notFound("link");
    if (row.custom_domain !== null) {
      if (requestHost !== canonicalHost(row.custom_domain)) throw notFound("link");
    } else {
      const hostApp = await this.deps.apps.findAppByCustomDomain(requestHost);
      if (hostApp !== null && hostApp.appId !== row.app_id) throw notFound("link");
    }
    const status = linkStatus(row, this.deps.clock.now());
    if (status !== "active") throw new SummaryLinkGone(status);
    return { ...row, settings: settingsOf(row) };
  }

  /** The app's frame-ancestors origins for the page's CSP. */
  async frameAncestorsOf(link: OpenLink): Promise<string[]> {
    return (await this.deps.apps.getApp(link.app_id)).frameAncestors;
  }

  /** Everything the page can show, hidden lines included (marked), read fresh so every edit shows on every link. */
  async pageView(link: OpenLink): Promise<PageView> {
    const { settings } = link;
    const {
      conversation,
      messages,
      summary,
      topics,
      insights: shown,
    } = await this.deps.conversations.getConversationInFull(link.app_id, link.conversation_id);
    const members = conversation.members;
    const byType = INSIGHT_TYPES.flatMap((type) => shown.filter((insight) => insight.type === type));
    const insights: PageInsight[] = byType.map((insight) => ({
      id: insight.id,
      type: insight.type as PageInsight["type"],
      text: insight.text,
      messageIds: insight.messageIds,
      speakerId: (insight.from as { id?: string }).id ?? null,
      speakerName: (insight.from as { name?: string }).name ?? null,
      assigneeId: (insight.assignee as { id?: string } | undefined)?.id ?? null,
      assigneeName: insight.assignee?.name ?? null,
      dueBy: insight.dueBy ?? null,
    }));
    return {
      kind: settings.name,
      title: conversation.name,
      startTime: conversation.startTime,
      endTime: conversation.endTime,
      attendees: members.map((member) => ({
        id: member.id,
        name: member.name,
        avatarUrl: settings.speakerAvatarURLs[member.id] ?? null,
      })),
      summary: summary.map((item) => ({
        text: item.text,
        messageIds: item.messageRefs.map((ref) => ref.id),
      })),
      topics: topics.map((topic) => ({ id: topic.id, text: topic.text, messageIds: topic.messageIds })),
      insights,
      messages: messages.map((message) => ({
        id: message.id,
        text: message.text,
        speakerId: (message.from as { id?: string }).id ?? null,
        speakerName: (message.from as { name?: string }).name ?? null,
        offset: message.timeOffset,
        startTime: message.startTime,
        hidden: message.hidden,
      })),
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
}

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

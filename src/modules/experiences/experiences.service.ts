import type { Clock } from "../../clock.ts";
import type { ExperienceRow } from "../../db/schema.ts";
import { DomainError, invalid, notFound } from "../../errors.ts";
import { uuid } from "../../ids.ts";
import { canonicalHost, isHttpUrl } from "../../urls.ts";
import type { AppsService } from "../apps/apps.service.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import { normalBrand, normalUrl } from "./brand.ts";
import { linkStatus, presentExperience, presentLink, settingsOf } from "./experiences.presenter.ts";
import type { ExperiencesRepository } from "./experiences.repository.ts";
import {
  DEFAULT_EXPIRES_IN,
  type CreateExperienceBody,
  type ExperienceCreated,
  type ExperienceLink,
  type ExperienceSettings,
  type LinkListQuery,
  type UpdateExperienceBody,
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
  /** Whether the conversation has media of its own, which a video or analytics link without a URL plays. */
  hasOwnMedia: (conversationId: string) => Promise<boolean>;
}

/** A link that no longer opens (410), and why: its page may say which, never anything about the conversation. */
export class SummaryLinkGone extends DomainError {
  constructor(readonly reason: "expired" | "revoked") {
    super("gone", reason === "revoked" ? "This summary link was revoked" : "This summary link has expired");
  }
}

/** An opened link: the row and the settings it was made with. */
export type OpenLink = Omit<ExperienceRow, "settings"> & { settings: ReturnType<typeof settingsOf> };

/** How many of a token's last characters the link's hint shows: enough to recognise its URL, far too few to open it. */
const HINT_LENGTH = 4;

const MEDIA_URL_FIELD = { "video-summary": "videoUrl", "audio-summary": "audioUrl" } as const;

/**
 * The settings a new link keeps, from a schema-checked body: the media URL its kind needs (and only that
 * one), tidied colours and font name, and every default. Throws invalid for a missing media URL (unless the
 * conversation has media of its own, which the page then plays) or a speakerAvatarURLs key that cannot be a
 * member id.
 */
function settingsFrom(body: CreateExperienceBody, hasOwnMedia: boolean): ExperienceSettings {
  const brand = normalBrand(body);
  const settings: ExperienceSettings = {
    name: body.name,
    ...(brand.logo !== undefined && { logo: brand.logo }),
    ...(brand.favicon !== undefined && { favicon: brand.favicon }),
    color: brand.color ?? {},
    font: brand.font ?? {},
    summaryURLExpiresIn: body.summaryURLExpiresIn ?? DEFAULT_EXPIRES_IN,
    readOnly: body.readOnly ?? false,
    enableCustomDomain: body.enableCustomDomain ?? false,
    speakerAvatarURLs: Object.fromEntries(
      Object.entries(body.speakerAvatarURLs ?? {}).map(([memberId, url]) => [memberId, normalUrl(url)]),
    ),
    hideShareButton: body.hideShareButton ?? false,
  };
  if (body.name !== "verbose-text-summary") {
    const field = MEDIA_URL_FIELD[body.name];
    const url = body[field];
    if (url === undefined && !hasOwnMedia) {
      const media = body.name === "video-summary" ? "video" : "audio";
      throw invalid(
        `${field} is required for ${body.name}: an absolute http(s) URL of the ${media} (a conversation made from audio or video plays its own without one)`,
      );
    }
    if (url !== undefined) {
      if (!isHttpUrl(url)) throw invalid(`${field} must be an absolute http(s) URL`);
      settings[field] = normalUrl(url);
    }
  }
  for (const memberId of Object.keys(settings.speakerAvatarURLs)) {
    if (memberId === "" || memberId.length > 64) throw invalid("speakerAvatarURLs keys must be member ids");
  }
  return settings;
}

/** Summary links: creating, listing and revoking them, and opening one for a viewer (the summary page's way in). */
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
   * Throws invalid naming the field, not_found when the app cannot see the conversation (under the secret
   * `generation` of the caller's token, when given: routes that check it in their query).
   */
  async createSummaryLink(
    appId: string,
    conversationId: string,
    body: CreateExperienceBody,
    generation: number | null = null,
  ): Promise<ExperienceCreated> {
    const needsMedia = body.name !== "verbose-text-summary" && body[MEDIA_URL_FIELD[body.name]] === undefined;
    const settings = settingsFrom(body, needsMedia && (await this.deps.hasOwnMedia(conversationId)));
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
    const id = uuid();
    const inserted = await this.experiences.insertIfVisible(
      {
        id,
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
        label: body.label?.trim() ?? null,
        token_hint: token.slice(-HINT_LENGTH),
        view_count: 0,
        distinct_viewers: 0,
        last_viewed_at: null,
      },
      generation,
    );
    if (!inserted) throw notFound("conversation");
    return { name: settings.name, url: this.linkUrl(token, settings.name, customDomain), id };
  }

  private linkUrl(token: string, kind: string, customDomain: string | null): string {
    const base = new URL(this.deps.publicUrl);
    const origin = customDomain === null ? base.origin : `${base.protocol}//${customDomain}`;
    const url = `${origin}${base.pathname.replace(/\/+$/, "")}/s/${token}`;
    return kind === "video-summary" ? `${url}?showVideoSummary=true` : url;
  }

  /** Throws not_found when the app cannot see the conversation. */
  async listLinks(appId: string, conversationId: string) {
    await this.deps.conversations.requireVisible(appId, conversationId);
    const now = this.deps.clock.now();
    return (await this.experiences.listOfConversation(appId, conversationId)).map((row) =>
      presentExperience(row, now),
    );
  }

  /** The app's links across its conversations, newest first, filtered by conversation and state. */
  async listAppLinks(appId: string, query: LinkListQuery): Promise<ExperienceLink[]> {
    const now = this.deps.clock.now();
    const rows = await this.experiences.listOfApp(appId, {
      ...(query.conversationId !== undefined && { conversationId: query.conversationId }),
      ...(query.state !== undefined && { state: query.state }),
      now: now.toISOString(),
      limit: query.limit ?? 100,
      offset: query.offset ?? 0,
    });
    return rows.map((row) => presentLink(row, now));
  }

  /** One of the app's links as the list shows it. Throws not_found for a link the app cannot see. */
  async getLink(appId: string, conversationId: string, experienceId: string): Promise<ExperienceLink> {
    const row = await this.experiences.find(appId, conversationId, experienceId);
    if (!row) throw notFound("experience");
    return presentLink(row, this.deps.clock.now());
  }

  /**
   * Changes a link's label or expiry (later, earlier or never); an expired link given a later expiry opens
   * again. Throws not_found for a link the app cannot see, SummaryLinkGone for a revoked one (revoking is
   * for good), invalid for an expiry that is not later than now or a body that changes nothing.
   */
  async updateLink(
    appId: string,
    conversationId: string,
    experienceId: string,
    body: UpdateExperienceBody,
  ): Promise<ExperienceLink> {
    if (body.label === undefined && body.expiresAt === undefined) {
      throw invalid("body must set label, expiresAt or both");
    }
    const row = await this.experiences.find(appId, conversationId, experienceId);
    if (!row) throw notFound("experience");
    if (row.revoked_at !== null) throw new SummaryLinkGone("revoked");
    const now = this.deps.clock.now();
    let expiresAt: string | null | undefined;
    if (body.expiresAt !== undefined && body.expiresAt !== null) {
      const at = new Date(body.expiresAt);
      if (at.getTime() <= now.getTime()) {
        throw invalid("expiresAt must be later than now; to end a link now, revoke it (DELETE)");
      }
      expiresAt = at.toISOString();
    } else expiresAt = body.expiresAt;
    const changes = {
      ...(body.label !== undefined && { label: body.label?.trim() ?? null }),
      ...(expiresAt !== undefined && { expires_at: expiresAt }),
    };
    await this.experiences.update(row.id, changes);
    return presentLink({ ...row, ...changes }, now);
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
    // A link made for a custom domain opens on that domain alone, and on none while another app holds it
    // (its app may have moved to another domain since, and the old one been taken).
    const requestHost = canonicalHost(host ?? "");
    if (requestHost === null) throw notFound("link");
    if (row.custom_domain !== null && requestHost !== canonicalHost(row.custom_domain))
      throw notFound("link");
    const hostApp = await this.deps.apps.findAppByCustomDomain(requestHost);
    if (hostApp !== null && hostApp.appId !== row.app_id) throw notFound("link");
    const status = linkStatus(row, this.deps.clock.now());
    if (status !== "active") throw new SummaryLinkGone(status);
    return { ...row, settings: settingsOf(row) };
  }
}

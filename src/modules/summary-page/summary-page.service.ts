import { createHash } from "node:crypto";
import { extname } from "node:path";
import { setImmediate } from "node:timers/promises";
import { LRUCache } from "lru-cache";
import type { Clock } from "../../clock.ts";
import { DomainError, notFound } from "../../errors.ts";
import type { PageRecording, PageView } from "../../pages/view-model.ts";
import type { AppsService } from "../apps/apps.service.ts";
import type { TrackerDefinition } from "../../analysis/trackers.ts";
import type { ConversationInFull, ConversationsService } from "../conversations/conversations.service.ts";
import { withBrandDefaults } from "../experiences/brand.ts";
import type { ExperienceSettings } from "../experiences/experiences.schemas.ts";
import type { OpenLink } from "../experiences/experiences.service.ts";
import type { JobsService } from "../jobs/jobs.service.ts";
import type { MediaService } from "../media/media.service.ts";
import type { TrackersService } from "../trackers/trackers.service.ts";
import { pageViewOf } from "./summary-page.presenter.ts";

/** The name a link serves a conversation's recording under, by its place (0: the first), without extension. */
const recordingName = (index: number) => (index === 0 ? "recording" : `recording-${index + 1}`);

/** The place (0: the first) of the recording a name under `/s/{token}/media/` asks for; null for no recording's name. */
export function recordingIndexOf(name: string): number | null {
  const match = /^recording(?:-([1-9][0-9]{0,5}))?(?:\.[a-z0-9]{1,5})?$/.exec(name);
  if (!match) return null;
  const index = match[1] === undefined ? 0 : Number(match[1]) - 1;
  return index === 0 && match[1] !== undefined ? null : index;
}

/** What serving a page needs: its content and the origins that may frame it. */
export interface OpenedPage {
  /** The link's id, for its view count. */
  linkId: string;
  view: PageView;
  /** The app's frame-ancestors origins, for the page's CSP. */
  frameAncestors: string[];
}

/** A link opened for its page without reading the conversation: what names its content now, and the way to read it. */
export interface VersionedPage {
  linkId: string;
  /**
   * Names what the page shows now: the conversation's content version, which changes with every committed
   * write to it, on the analytics page a digest of the app's trackers, and a digest of the app's brand
   * (docs/PAGES.md, Compression and caching).
   */
  contentKey: string;
  /** The font family the link asked for, if any. */
  fontFamily: string | null;
  /** The app's frame-ancestors origins, for the page's CSP (read on every request). */
  frameAncestors: string[];
  /** Reads the conversation's rows and builds the view. */
  view(): Promise<PageView>;
}

/** A text summary with no brand or options: the settings of no link in particular. */
const PLAIN_SETTINGS: ExperienceSettings = {
  name: "verbose-text-summary",
  color: {},
  font: {},
  summaryURLExpiresIn: 0,
  readOnly: true,
  enableCustomDomain: false,
  speakerAvatarURLs: {},
  hideShareButton: false,
};

/** A short digest of what a page is made of besides the conversation (trackers, the app's brand); "" for nothing. */
function digestOf(value: object): string {
  const text = JSON.stringify(value);
  return text === "[]" || text === "{}" ? "" : createHash("sha256").update(text).digest("base64url");
}

/**
 * The summary page a link opens. Every request under the link opens it first (`openLink`, the link scope's
 * hook in summary-page.routes.ts), then reads the conversation's current version.
 */
export class SummaryPageService {
  /**
   * The views last built, by link and content: a long transcript's parts and searches each ask for the
   * view of the same content, which is read and built once. A few: a long meeting's view is several MB.
   */
  private readonly views = new LRUCache<string, Promise<PageView>>({ max: 4 });

  constructor(
    private readonly deps: {
      conversations: Pick<ConversationsService, "readInFull" | "contentVersion">;
      apps: Pick<AppsService, "getApp">;
      trackers: Pick<TrackersService, "list" | "matchLines">;
      media: Pick<MediaService, "recordingsOf">;
      jobs: Pick<JobsService, "isLive">;
      clock: Clock;
    },
  ) {}

  /**
   * The page behind an opened link (its `token`, to name its own recording), reading only the conversation's
   * content version; the rows are read when `view()` is called. Throws not_found when the conversation is gone.
   */
  async openVersioned(link: OpenLink, token: string): Promise<VersionedPage> {
    const [contentVersion, app, live] = await Promise.all([
      this.deps.conversations.contentVersion(link.app_id, link.conversation_id),
      this.deps.apps.getApp(link.app_id),
      this.isLive(link.conversation_id),
    ]);
    if (contentVersion === undefined) throw notFound("link");
    const trackers = await this.trackersShownBy(link);
    const { settings, recordings } = await this.withOwnMedia(
      withBrandDefaults(link.settings, app.brand),
      link,
      token,
    );
    // The app's brand is part of what the page shows: a change to it makes the page anew; so does the end of a
    // live stream, even one whose process died (its hold lapsed, no write marked it).
    const contentKey = `${contentVersion}:${live ? "live" : ""}:${digestOf(trackers)}:${digestOf(app.brand)}`;
    return {
      linkId: link.id,
      contentKey,
      fontFamily: settings.font.family ?? null,
      frameAncestors: app.frameAncestors,
      view: () =>
        this.cachedView(`${link.id} ${contentKey}`, async () => {
          const rows = await this.readRows(link.app_id, link.conversation_id);
          // Reading a long meeting's rows and building its view each take a while: the event loop is let
          // go between the two.
          await setImmediate();
          return this.viewOf(rows, settings, trackers, live, recordings);
        }),
    };
  }

  private isLive(conversationId: string): Promise<boolean> {
    return this.deps.jobs.isLive(conversationId, this.deps.clock.now().toISOString());
  }

  /** The view of a link's content, built by `build` unless this process has built it lately. */
  private cachedView(key: string, build: () => Promise<PageView>): Promise<PageView> {
    let view = this.views.get(key);
    if (view === undefined) {
      view = build();
      this.views.set(key, view);
      view.catch(() => this.views.delete(key));
    }
    return view;
  }

  /**
   * A video or analytics page whose link names no media plays the conversation's own (docs/MEDIA.md): the URLs
   * they were fetched from, or its stored uploads, served under the link (`/s/{token}/media/recording.…` for the
   * first, `recording-2.…` for the second, …), one after another as one timeline.
   */
  private async withOwnMedia(
    settings: ExperienceSettings,
    link: { conversation_id: string },
    token: string,
  ): Promise<{ settings: ExperienceSettings; recordings: PageRecording[] }> {
    const field =
      settings.name === "video-summary" ? "videoUrl" : settings.name === "audio-summary" ? "audioUrl" : null;
    if (field === null || settings[field]) return { settings, recordings: [] };
    const recordings = (await this.deps.media.recordingsOf(link.conversation_id)).map((recording, index) => ({
      url:
        "url" in recording
          ? recording.url
          : `/s/${token}/media/${recordingName(index)}${extname(recording.file)}`,
      offset: recording.offsetMs / 1000,
      duration: recording.durationMs === null ? null : recording.durationMs / 1000,
    }));
    const first = recordings[0];
    if (!first) return { settings, recordings };
    return { settings: { ...settings, [field]: first.url }, recordings };
  }

  /**
   * A stored upload an opened link's page plays, by its place among the conversation's recordings (0: the
   * first). Throws not_found when the conversation has no stored recording there.
   */
  async openRecording(link: OpenLink, index: number): Promise<{ file: string; contentType: string | null }> {
    const recording = (await this.deps.media.recordingsOf(link.conversation_id))[index];
    if (!recording || !("file" in recording)) throw notFound("recording");
    return { file: recording.file, contentType: recording.contentType };
  }

  /** Only the analytics page (audio-summary) shows tracker hits; they are matched when its view is made. */
  private async trackersShownBy(link: { app_id: string; settings: { name: string } }) {
    return link.settings.name === "audio-summary" ? await this.deps.trackers.list(link.app_id) : [];
  }

  /** The page's view, with the trackers' matches in the visible lines (found in the analysis worker). */
  private async viewOf(
    rows: ConversationInFull,
    settings: ExperienceSettings,
    trackers: TrackerDefinition[],
    live: boolean,
    recordings: PageRecording[],
  ) {
    const visible = rows.messages.filter((message) => message.hidden === 0);
    const matched = await this.deps.trackers.matchLines(
      trackers,
      visible.map(({ id, text }) => ({ id, text })),
    );
    return pageViewOf(rows, settings, trackers, matched.trackers, live, recordings);
  }

  private async readRows(appId: string, conversationId: string) {
    try {
      return await this.deps.conversations.readInFull(appId, conversationId);
    } catch (error) {
      if (error instanceof DomainError && error.code === "not_found") throw notFound("link");
      throw error;
    }
  }

  /**
   * The page's view of a conversation as a plain text summary, without a link: what the console shows of it
   * (its page, a new link's preview). Throws not_found when the app cannot see the conversation.
   */
  async conversationView(appId: string, conversationId: string): Promise<PageView> {
    const [rows, live] = await Promise.all([
      this.deps.conversations.readInFull(appId, conversationId),
      this.isLive(conversationId),
    ]);
    return pageViewOf(rows, PLAIN_SETTINGS, [], [], live);
  }

  /** The page behind an opened link, its rows read now. Throws not_found when the conversation is gone. */
  async open(link: OpenLink, token: string): Promise<OpenedPage> {
    const [rows, live] = await Promise.all([
      this.readRows(link.app_id, link.conversation_id),
      this.isLive(link.conversation_id),
    ]);
    const { frameAncestors, brand } = await this.deps.apps.getApp(link.app_id);
    const trackers = await this.trackersShownBy(link);
    const { settings, recordings } = await this.withOwnMedia(
      withBrandDefaults(link.settings, brand),
      link,
      token,
    );
    return {
      linkId: link.id,
      view: await this.viewOf(rows, settings, trackers, live, recordings),
      frameAncestors,
    };
  }
}

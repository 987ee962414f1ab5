import { createHash } from "node:crypto";
import { setImmediate } from "node:timers/promises";
import { LRUCache } from "lru-cache";
import { DomainError, notFound } from "../../errors.ts";
import type { PageView } from "../../pages/view-model.ts";
import type { AppsService } from "../apps/apps.service.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import type { OpenLink } from "../experiences/experiences.service.ts";
import type { TrackersService } from "../trackers/trackers.service.ts";
import { pageViewOf } from "./summary-page.presenter.ts";

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
   * write to it, and on the analytics page a digest of the app's trackers (docs/PAGES.md, Compression and
   * caching).
   */
  contentKey: string;
  /** The font family the link asked for, if any. */
  fontFamily: string | null;
  /** The app's frame-ancestors origins, for the page's CSP (read on every request). */
  frameAncestors: string[];
  /** Reads the conversation's rows and builds the view. */
  view(): Promise<PageView>;
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
      trackers: Pick<TrackersService, "list">;
    },
  ) {}

  /**
   * The page behind an opened link, reading only the conversation's content version; the rows are read
   * when `view()` is called. Throws not_found when the conversation is gone.
   */
  async openVersioned(link: OpenLink): Promise<VersionedPage> {
    const [contentVersion, app] = await Promise.all([
      this.deps.conversations.contentVersion(link.app_id, link.conversation_id),
      this.deps.apps.getApp(link.app_id),
    ]);
    if (contentVersion === undefined) throw notFound("link");
    const trackers = await this.trackersShownBy(link);
    const trackersDigest =
      trackers.length === 0 ? "" : createHash("sha256").update(JSON.stringify(trackers)).digest("base64url");
    return {
      linkId: link.id,
      contentKey: `${contentVersion}:${trackersDigest}`,
      fontFamily: link.settings.font.family ?? null,
      frameAncestors: app.frameAncestors,
      view: () =>
        this.viewOf(`${link.id} ${contentVersion}:${trackersDigest}`, async () => {
          const rows = await this.readRows(link.app_id, link.conversation_id);
          // Reading a long meeting's rows and building its view each take a while: the event loop is let
          // go between the two.
          await setImmediate();
          return pageViewOf(rows, link.settings, trackers);
        }),
    };
  }

  /** The view of a link's content, built by `build` unless this process has built it lately. */
  private viewOf(key: string, build: () => Promise<PageView>): Promise<PageView> {
    let view = this.views.get(key);
    if (view === undefined) {
      view = build();
      this.views.set(key, view);
      view.catch(() => this.views.delete(key));
    }
    return view;
  }

  /** Only the analytics page (audio-summary) shows tracker hits; they are matched when it renders. */
  private async trackersShownBy(link: { app_id: string; settings: { name: string } }) {
    return link.settings.name === "audio-summary" ? await this.deps.trackers.list(link.app_id) : [];
  }

  private async readRows(appId: string, conversationId: string) {
    try {
      return await this.deps.conversations.readInFull(appId, conversationId);
    } catch (error) {
      if (error instanceof DomainError && error.code === "not_found") throw notFound("link");
      throw error;
    }
  }

  /** The page behind an opened link, its rows read now. Throws not_found when the conversation is gone. */
  async open(link: OpenLink): Promise<OpenedPage> {
    const rows = await this.readRows(link.app_id, link.conversation_id);
    const { frameAncestors } = await this.deps.apps.getApp(link.app_id);
    const trackers = await this.trackersShownBy(link);
    return { linkId: link.id, view: pageViewOf(rows, link.settings, trackers), frameAncestors };
  }
}

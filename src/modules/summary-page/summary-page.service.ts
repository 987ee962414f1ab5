import { DomainError, notFound } from "../../errors.ts";
import type { PageView } from "../../pages/view-model.ts";
import type { AppsService } from "../apps/apps.service.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import type { ExperiencesService } from "../experiences/experiences.service.ts";
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

/** The summary page a link opens, read fresh on every request so every edit shows on every link. */
export class SummaryPageService {
  constructor(
    private readonly deps: {
      experiences: Pick<ExperiencesService, "openLink">;
      conversations: Pick<ConversationsService, "readInFull">;
      apps: Pick<AppsService, "getApp">;
      trackers: Pick<TrackersService, "list">;
    },
  ) {}

  /**
   * Opens the page behind a link followed on `host`. Throws what `openLink` throws (not_found for an
   * unknown link or the wrong host, SummaryLinkGone for an expired or revoked one), and not_found when the
   * conversation is gone.
   */
  async open(token: string, host: string | undefined): Promise<OpenedPage> {
    const link = await this.deps.experiences.openLink(token, host);
    let rows;
    try {
      rows = await this.deps.conversations.readInFull(link.app_id, link.conversation_id);
    } catch (error) {
      if (error instanceof DomainError && error.code === "not_found") throw notFound("link");
      throw error;
    }
    const { frameAncestors } = await this.deps.apps.getApp(link.app_id);
    // Only the analytics page (audio-summary) shows tracker hits; they are matched when it renders.
    const trackers = link.settings.name === "audio-summary" ? await this.deps.trackers.list(link.app_id) : [];
    return { linkId: link.id, view: pageViewOf(rows, link.settings, trackers), frameAncestors };
  }
}

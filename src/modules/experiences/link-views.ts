import { createHmac } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../../clock.ts";
import type { Transaction } from "../../db/transaction.ts";
import { deriveKey } from "../../keys.ts";
import type { LinkViewMetrics } from "../../metrics/metrics.ts";
import type { LinkViewsRepository } from "./link-views.repository.ts";

/** Who opened a page, as the request tells it; neither part is ever stored. */
export interface PageViewer {
  address: string;
  userAgent: string;
}

/** How long views wait in memory before they are written, so a busy link costs one write a second. */
const FLUSH_DELAY_MS = 1000;

/** A link's views on one day not yet written: how many, the latest, and the viewer hashes seen. */
interface PendingViews {
  experienceId: string;
  day: string;
  views: number;
  lastViewedAt: string;
  viewers: Set<string>;
}

export interface LinkViewsDeps {
  transaction: Transaction<{ linkViews: LinkViewsRepository }>;
  clock: Clock;
  secret: string;
  logger: FastifyBaseLogger;
  metrics: LinkViewMetrics;
}

/**
 * First-party view counts of summary links (docs/PAGES.md, View counts). `record` is called as a page is
 * answered and only adds to memory: a viewer is an HMAC of the link, the address and the user agent under
 * a key derived from the signing secret for that UTC day, so the same viewer counts once a day and cannot
 * be followed from one day or one link to the next. The views are written in the background, batched per
 * link, at most a second later (and at `stop`); no cookie is set and nothing leaves the server.
 */
export class LinkViews {
  private pending = new Map<string, PendingViews>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private keyDay = "";
  private key: Buffer = Buffer.alloc(0);
  private prunedDay = "";

  constructor(private readonly deps: LinkViewsDeps) {}

  /** Counts one page view of the link; the write follows within FLUSH_DELAY_MS. */
  record(experienceId: string, viewer: PageViewer): void {
    const at = this.deps.clock.now().toISOString();
    const day = at.slice(0, 10);
    const key = `${experienceId} ${day}`;
    let entry = this.pending.get(key);
    if (!entry) {
      entry = { experienceId, day, views: 0, lastViewedAt: at, viewers: new Set() };
      this.pending.set(key, entry);
    }
    entry.views += 1;
    entry.lastViewedAt = at;
    entry.viewers.add(this.viewerHash(experienceId, day, viewer));
    this.deps.metrics.viewed();
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /** Writes every view recorded so far (tests call it instead of waiting); a failed write is logged, never thrown. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  /** Writes what is left; called when the server closes. */
  stop(): Promise<void> {
    return this.flush();
  }

  private viewerHash(experienceId: string, day: string, viewer: PageViewer): string {
    if (day !== this.keyDay) {
      this.key = deriveKey(this.deps.secret, `link-viewers:${day}`);
      this.keyDay = day;
    }
    return createHmac("sha256", this.key)
      .update(`${experienceId}\n${viewer.address}\n${viewer.userAgent}`)
      .digest("base64url")
      .slice(0, 22);
  }

  private async write(batch: PendingViews[]): Promise<void> {
    for (const entry of batch) {
      try {
        await this.deps.transaction(async ({ linkViews }) => {
          if (!(await linkViews.addViews(entry.experienceId, entry.views, entry.lastViewedAt))) return;
          await linkViews.addViewers(entry.experienceId, entry.day, [...entry.viewers]);
        });
      } catch (error) {
        this.deps.logger.warn({ err: error, experienceId: entry.experienceId }, "link views not written");
      }
    }
    const today = this.deps.clock.now().toISOString().slice(0, 10);
    if (batch.length > 0 && today !== this.prunedDay) {
      try {
        await this.deps.transaction(({ linkViews }) => linkViews.forgetViewersBefore(today));
        this.prunedDay = today;
      } catch (error) {
        this.deps.logger.warn({ err: error }, "earlier days' link viewers not deleted");
      }
    }
  }
}

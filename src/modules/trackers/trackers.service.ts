import type { DetectedTrackers, TrackedText, TrackerDefinition } from "../../analysis/trackers.ts";
import type { Analyzer } from "../../analysis/types.ts";
import type { Clock } from "../../clock.ts";
import type { TrackerRow } from "../../db/schema.ts";
import type { Transaction } from "../../db/transaction.ts";
import { DomainError, invalid, notFound } from "../../errors.ts";
import { numericId } from "../../ids.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import type { TrackersRepository } from "./trackers.repository.ts";
import { MAX_TRACKERS_PER_APP, type TrackerBody, type UpdateTrackerBody } from "./trackers.schemas.ts";

const nameTaken = (name: string) => new DomainError("conflict", `A tracker named "${name}" already exists`);

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "") throw invalid("name must not be blank");
  return trimmed;
}

/** Throws conflict unless the app has room for `adding` more; the app stays locked until the transaction ends. */
async function ensureRoom(trackers: TrackersRepository, appId: string, adding: number): Promise<void> {
  await trackers.lockApp(appId);
  if ((await trackers.count(appId)) + adding > MAX_TRACKERS_PER_APP) {
    throw new DomainError("conflict", `An app has at most ${MAX_TRACKERS_PER_APP} trackers`);
  }
}

function presentTracker(row: TrackerRow) {
  return { id: row.id, name: row.name, vocabulary: JSON.parse(row.vocabulary) as string[] };
}

/** An app's trackers (Symbl's Management API), and their matches in a conversation, found when read. */
export class TrackersService {
  constructor(
    private readonly deps: {
      trackers: TrackersRepository;
      transaction: Transaction<{ trackers: TrackersRepository }>;
      conversations: Pick<ConversationsService, "readInFull">;
      /** Matches in a worker thread: the work grows with the conversation and the vocabulary. */
      analyzer: Pick<Analyzer, "detectTrackers">;
      clock: Clock;
    },
  ) {}

  /** Throws invalid for a blank name, conflict for a name the app already has or past the limit. */
  async createOne(appId: string, body: TrackerBody) {
    const name = checkedName(body.name);
    return this.deps.transaction(async ({ trackers }) => {
      await ensureRoom(trackers, appId, 1);
      return this.insert(trackers, appId, name, body.vocabulary, this.deps.clock.now().toISOString());
    });
  }

  /** Creates the trackers, all or none; a name repeated in the request is a conflict too. Throws as createOne. */
  async createMany(appId: string, bodies: TrackerBody[]) {
    const names = bodies.map((body) => checkedName(body.name));
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated !== undefined) throw nameTaken(repeated);
    return this.deps.transaction(async ({ trackers }) => {
      await ensureRoom(trackers, appId, bodies.length);
      const now = this.deps.clock.now().toISOString();
      const created = [];
      for (const [i, body] of bodies.entries()) {
        created.push(await this.insert(trackers, appId, names[i] ?? body.name, body.vocabulary, now));
      }
      return created;
    });
  }

  /** Inserts one tracker; the trackers of one request share `now`, so they list by name. */
  private async insert(
    trackers: TrackersRepository,
    appId: string,
    name: string,
    vocabulary: string[],
    now: string,
  ) {
    const id = numericId();
    const row = {
      id,
      app_id: appId,
      name,
      vocabulary: JSON.stringify(vocabulary),
      created_at: now,
      updated_at: now,
    };
    if (!(await trackers.insert(row))) throw nameTaken(name);
    return { id, name, vocabulary };
  }

  async list(appId: string, name?: string) {
    return (await this.deps.trackers.list(appId, name)).map(presentTracker);
  }

  /** Throws not_found. */
  async get(appId: string, trackerId: string) {
    const row = await this.deps.trackers.find(appId, trackerId);
    if (!row) throw notFound("tracker");
    return presentTracker(row);
  }

  /**
   * Replaces the tracker's name and vocabulary. Throws invalid when the body's id differs from the path's
   * or the name is blank, not_found, and conflict when another of the app's trackers has the name.
   */
  async update(appId: string, trackerId: string, body: UpdateTrackerBody) {
    if (body.id !== undefined && body.id !== trackerId)
      throw invalid("id must equal the trackerId in the path");
    const name = checkedName(body.name);
    return this.deps.transaction(async ({ trackers }) => {
      if (!(await trackers.find(appId, trackerId))) throw notFound("tracker");
      const holder = await trackers.findByName(appId, name);
      if (holder && holder.id !== trackerId) throw nameTaken(name);
      const vocabulary = JSON.stringify(body.vocabulary);
      await trackers.update(appId, trackerId, {
        name,
        vocabulary,
        updated_at: this.deps.clock.now().toISOString(),
      });
      return { id: trackerId, name, vocabulary: body.vocabulary };
    });
  }

  /** Throws not_found. */
  async delete(appId: string, trackerId: string): Promise<void> {
    if (!(await this.deps.trackers.delete(appId, trackerId))) throw notFound("tracker");
  }

  /**
   * The app's trackers, as they are now, matched against the conversation's visible lines and shown
   * insights, within detectTrackers' limits. Throws not_found for a conversation the app cannot see.
   */
  async detect(appId: string, conversationId: string): Promise<DetectedTrackers> {
    const [rows, trackers] = await Promise.all([
      this.deps.conversations.readInFull(appId, conversationId),
      this.deps.trackers.list(appId),
    ]);
    if (trackers.length === 0) return { trackers: [], truncated: false };
    return this.deps.analyzer.detectTrackers({
      trackers: trackers.map(presentTracker),
      lines: rows.messages.filter((message) => message.hidden === 0).map(({ id, text }) => ({ id, text })),
      insights: rows.insights.map(({ id, text, type }) => ({ id, text, type })),
    });
  }

  /** Trackers (as `list` gives them) matched against lines alone, as the analytics page shows them. */
  async matchLines(trackers: TrackerDefinition[], lines: TrackedText[]): Promise<DetectedTrackers> {
    if (trackers.length === 0) return { trackers: [], truncated: false };
    return this.deps.analyzer.detectTrackers({ trackers, lines, insights: [] });
  }
}

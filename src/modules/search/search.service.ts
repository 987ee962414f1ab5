import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { FUNCTION_WORDS, MEETING_STOP_WORDS } from "../../analysis/lexicon.ts";
import type { FullTextQuery } from "../../db/full-text.ts";
import { searchTokens } from "../../db/search-text.ts";
import { invalid } from "../../errors.ts";
import { deriveKey } from "../../keys.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import { parseSearchQuery } from "./search-query.ts";
import { presentHit, presentSpeaker, timeOffsetOf } from "./search.presenter.ts";
import type { SearchFilters, SearchRepository } from "./search.repository.ts";
import { DEFAULT_SEARCH_LIMIT, type SearchAnswer, type SearchHit } from "./search.schemas.ts";

/** How deep a search pages: past the first thousand hits a user refines the search instead. */
export const MAX_SEARCH_DEPTH = 1_000;

/** A search as asked: the query text and what narrows it (the API's query string, or another module's). */
export interface SearchRequest {
  q: string;
  speaker?: string | undefined;
  conversationId?: string | undefined;
  /** ISO date (the whole day, UTC) or date-time, compared with each conversation's start. */
  from?: string | undefined;
  to?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** A line of a passage, with who said it and when. */
export interface PassageLine {
  id: string;
  text: string;
  from: SearchHit["message"]["from"];
  timeOffset: number | null;
}

/** A matched line with the lines around it in its conversation: what an answer can be grounded on. */
export interface Passage {
  conversation: SearchHit["conversation"];
  /** The line that matched; `lines` holds it with its neighbours, in order. */
  messageId: string;
  lines: PassageLine[];
  score: number;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The instant an ISO date or date-time names; a date alone is its day's start (`endOfDay`: the next day's). */
function instantOf(field: "from" | "to", value: string, endOfDay: boolean): string {
  const time = DATE_ONLY.test(value) || DATE_TIME.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) {
    throw invalid(`${field} must be an ISO-8601 date (2026-11-02) or date-time (2026-11-02T10:00:00Z)`);
  }
  const day = 24 * 60 * 60 * 1000;
  return new Date(DATE_ONLY.test(value) && endOfDay ? time + day : time).toISOString();
}

/**
 * Search across an app's conversations (docs/SEARCH.md): `search` for the API's hits and pages, `passages` for
 * the lines around the best matches of a question.
 */
export class SearchService {
  private readonly cursorKey: Buffer;

  constructor(
    private readonly deps: {
      search: SearchRepository;
      conversations: Pick<ConversationsService, "requireVisible">;
      secret: string;
    },
  ) {
    this.cursorKey = deriveKey(deps.secret, "search-cursor");
  }

  /**
   * A page of the app's lines matching the query, most relevant first, each with a snippet. Throws `invalid`
   * naming the rule for a query with nothing to find, a date range backwards, a speaker no conversation of the
   * app has, or a cursor this search did not give; `not_found` for a conversation the app cannot see.
   */
  async search(appId: string, request: SearchRequest): Promise<SearchAnswer> {
    const query = parseSearchQuery(request.q);
    const filters = await this.filtersOf(appId, request);
    const limit = request.limit ?? DEFAULT_SEARCH_LIMIT;
    const fingerprint = this.fingerprintOf(request);
    const offset = request.cursor === undefined ? 0 : this.readCursor(request.cursor, fingerprint);
    const take = Math.min(limit, MAX_SEARCH_DEPTH - offset);
    const rows =
      take <= 0 ? [] : await this.deps.search.hits(appId, query, filters, { limit: take + 1, offset });
    const more = rows.length > take && offset + take < MAX_SEARCH_DEPTH;
    return {
      results: rows.slice(0, take).map((row) => presentHit(row, query)),
      nextCursor: more ? this.cursorOf(offset + take, fingerprint) : null,
    };
  }

  /**
   * The lines around the best matches of a question in the app's conversations, for answering it: any of its
   * words may match (function words and common ones left out, unless it has no other), best first, each match with `around` lines either side;
   * `conversationIds` keeps to those conversations (the caller has checked the app can see them).
   * Throws `invalid` when the question has no word to search for.
   */
  async passages(
    appId: string,
    question: string,
    options: { limit?: number; around?: number; conversationIds?: string[] } = {},
  ): Promise<Passage[]> {
    const words = [...new Set(searchTokens(question).map((token) => token.text.toLowerCase()))];
    const kept = words.filter((word) => !FUNCTION_WORDS.has(word) && !MEETING_STOP_WORDS.has(word));
    const terms = (kept.length > 0 ? kept : words).map((word) => ({ words: [word], prefix: false }));
    if (terms.length === 0) throw invalid("question must hold a word to search for");
    const query: FullTextQuery = { all: [terms], none: [] };
    const around = options.around ?? 2;
    const filters = options.conversationIds === undefined ? {} : { conversationIds: options.conversationIds };
    const rows = await this.deps.search.hits(appId, query, filters, { limit: options.limit ?? 5, offset: 0 });
    return Promise.all(
      rows.map(async (row) => {
        const lines = await this.deps.search.linesBetween(
          row.conversation_id,
          row.position - around,
          row.position + around,
        );
        return {
          conversation: {
            id: row.conversation_id,
            name: row.conversation_name,
            startTime: row.conversation_start_time,
          },
          messageId: row.message_id,
          lines: lines.map((line) => ({
            id: line.id,
            text: line.text,
            from: presentSpeaker(line.speaker_name, line.speaker_email),
            timeOffset: timeOffsetOf(line.start_time, row.conversation_start_time),
          })),
          score: Number(row.score),
        };
      }),
    );
  }

  private async filtersOf(appId: string, request: SearchRequest): Promise<SearchFilters> {
    const filters: SearchFilters = {};
    if (request.from !== undefined) filters.startsFrom = instantOf("from", request.from, false);
    if (request.to !== undefined) filters.startsBefore = instantOf("to", request.to, true);
    if (filters.startsFrom !== undefined && filters.startsBefore !== undefined) {
      if (filters.startsFrom >= filters.startsBefore) throw invalid("from must be before to");
    }
    if (request.speaker !== undefined) {
      const speaker = request.speaker.trim();
      filters.speaker = speaker.includes("@") ? { email: speaker } : { name: speaker };
      if (!(await this.deps.search.hasSpeaker(appId, filters.speaker))) {
        throw invalid(`speaker: no one in this app's conversations is named or has the e-mail "${speaker}"`);
      }
    }
    if (request.conversationId !== undefined) {
      await this.deps.conversations.requireVisible(appId, request.conversationId);
      filters.conversationId = request.conversationId;
    }
    return filters;
  }

  /** What a cursor is bound to: the search it pages, so it cannot be used with another. */
  private fingerprintOf(request: SearchRequest): string {
    const { q, speaker, conversationId, from, to } = request;
    return createHash("sha256")
      .update(JSON.stringify([q, speaker, conversationId, from, to]))
      .digest("base64url")
      .slice(0, 16);
  }

  private signatureOf(payload: string): Buffer {
    return createHmac("sha256", this.cursorKey).update(payload).digest().subarray(0, 16);
  }

  private cursorOf(offset: number, fingerprint: string): string {
    const payload = `${offset}.${fingerprint}`;
    return `${payload}.${this.signatureOf(payload).toString("base64url")}`;
  }

  /** The offset a cursor stands for; throws `invalid` unless this service signed it for this search. */
  private readCursor(cursor: string, fingerprint: string): number {
    const [offset, print, signature] = cursor.split(".");
    const payload = `${offset}.${print}`;
    const given = Buffer.from(signature ?? "", "base64url");
    const expected = this.signatureOf(payload);
    const signed = given.length === expected.length && timingSafeEqual(given, expected);
    if (!signed || !/^\d{1,4}$/.test(offset ?? "")) {
      throw invalid("cursor is not one this search gave: pass nextCursor as it came");
    }
    if (print !== fingerprint) throw invalid("cursor belongs to another search: pass the same q and filters");
    return Number(offset);
  }
}

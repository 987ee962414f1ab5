import { sql, type Kysely } from "kysely";
import { matchingMessages, type FullTextQuery } from "../../db/full-text.ts";
import type { Database, SearchHitRow } from "../../db/schema.ts";

/** How many of the best matches are ranked alone first, without and with a speaker or dates (docs/SEARCH.md, Speed). */
const BEST_FIRST = 200;
const BEST_FIRST_NARROWED = 2_000;
/** A search without filters ranks first only the lines of its newest this many matches (docs/SEARCH.md, Speed). */
const NEWEST_RANKED = 10_000;

/** What narrows a search besides its words; dates are ISO strings compared with the conversation's start. */
export interface SearchFilters {
  speaker?: { name: string } | { email: string };
  conversationId?: string;
  /** Only these conversations' lines (ids the app may not hold simply match nothing). */
  conversationIds?: string[];
  startsFrom?: string;
  startsBefore?: string;
}

/** Reads the search index with the app's rows: nothing another app holds is ever joined in. */
export class SearchRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * A page of the app's visible lines that match, most relevant first (newer conversations first on a tie).
   * The best matches are first ranked alone and only they are joined (without filters, the best of a very common
   * word's newest matches, on SQLite); when too few of them are the app's visible lines of the speaker and dates
   * asked for to fill the page, every match is.
   */
  async hits(
    appId: string,
    query: FullTextQuery,
    filters: SearchFilters,
    page: { limit: number; offset: number },
  ): Promise<SearchHitRow[]> {
    const { speaker, conversationIds, startsFrom, startsBefore } = filters;
    // A speaker, dates or a set of conversations leave fewer of the best matches on the page: more are ranked first.
    const narrowed =
      speaker !== undefined ||
      conversationIds !== undefined ||
      startsFrom !== undefined ||
      startsBefore !== undefined;
    const needed = page.offset + page.limit;
    const first = narrowed
      ? { best: Math.max(BEST_FIRST_NARROWED, 20 * needed) }
      : {
          best: Math.max(BEST_FIRST, 2 * needed),
          newest: filters.conversationId === undefined ? NEWEST_RANKED : undefined,
        };
    const rows = await this.page(appId, query, filters, page, first);
    if (rows.length === page.limit) return rows;
    return this.page(appId, query, filters, page);
  }

  private page(
    appId: string,
    query: FullTextQuery,
    filters: SearchFilters,
    page: { limit: number; offset: number },
    first: { best?: number; newest?: number | undefined } = {},
  ): Promise<SearchHitRow[]> {
    const { speaker, conversationId, conversationIds, startsFrom, startsBefore } = filters;
    let select = this.db
      .selectFrom(
        matchingMessages(this.db, query, { appId, conversationId, startsFrom, startsBefore, ...first }).as(
          "hit",
        ),
      )
      .innerJoin("messages as m", "m.id", "hit.message_id")
      .innerJoin("conversations as c", "c.id", "m.conversation_id")
      .leftJoin("members as mem", "mem.id", "m.member_id")
      .select([
        "m.id as message_id",
        "m.text",
        "m.start_time",
        "m.position",
        "c.id as conversation_id",
        "c.name as conversation_name",
        "c.start_time as conversation_start_time",
        (eb) => eb.fn.coalesce("mem.name", "m.from_name").as("speaker_name"),
        (eb) => eb.fn.coalesce("mem.email", "m.from_email").as("speaker_email"),
        "hit.score",
      ])
      .where("c.app_id", "=", appId)
      .where("m.hidden", "=", 0);
    if (speaker && "email" in speaker) {
      select = select.where(
        sql<string>`lower(coalesce(mem.email, m.from_email))`,
        "=",
        sql<string>`lower(${speaker.email})`,
      );
    } else if (speaker) {
      select = select.where(
        sql<string>`lower(coalesce(mem.name, m.from_name))`,
        "=",
        sql<string>`lower(${speaker.name})`,
      );
    }
    if (conversationId !== undefined) select = select.where("c.id", "=", conversationId);
    if (conversationIds !== undefined) select = select.where("c.id", "in", conversationIds);
    if (startsFrom !== undefined) select = select.where("c.start_time", ">=", startsFrom);
    if (startsBefore !== undefined) select = select.where("c.start_time", "<", startsBefore);
    return select
      .orderBy("hit.score", "desc")
      .orderBy("c.start_time", "desc")
      .orderBy("m.position")
      .orderBy("m.id")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  }

  /** True when someone in one of the app's conversations has this name or e-mail (either case). */
  async hasSpeaker(appId: string, speaker: { name: string } | { email: string }): Promise<boolean> {
    const column = "email" in speaker ? sql`mem.email` : sql`mem.name`;
    const value = "email" in speaker ? speaker.email : speaker.name;
    const row = await this.db
      .selectFrom("members as mem")
      .innerJoin("conversations as c", "c.id", "mem.conversation_id")
      .select("mem.id")
      .where("c.app_id", "=", appId)
      .where(sql<string>`lower(${column})`, "=", sql<string>`lower(${value})`)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The visible lines of a conversation from `first` to `last` position, in order (a passage's context). */
  linesBetween(conversationId: string, first: number, last: number) {
    return this.db
      .selectFrom("messages as m")
      .leftJoin("members as mem", "mem.id", "m.member_id")
      .select([
        "m.id",
        "m.text",
        "m.start_time",
        "m.position",
        (eb) => eb.fn.coalesce("mem.name", "m.from_name").as("speaker_name"),
        (eb) => eb.fn.coalesce("mem.email", "m.from_email").as("speaker_email"),
      ])
      .where("m.conversation_id", "=", conversationId)
      .where("m.hidden", "=", 0)
      .where("m.position", ">=", first)
      .where("m.position", "<=", last)
      .orderBy("m.position")
      .execute();
  }
}

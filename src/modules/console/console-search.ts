import { DomainError } from "../../errors.ts";
import { formatSchemaError } from "../../http/errors.ts";
import type { ConsoleSearch } from "../../pages/console/view-model.ts";
import { formValidator } from "./console-forms.ts";
import { SearchQuery } from "../search/search.schemas.ts";
import type { SearchService } from "../search/search.service.ts";

/** Hits on one page of the console's search. */
export const CONSOLE_SEARCH_LIMIT = 50;

const checkQuery = formValidator(SearchQuery, "/v1/search", "GET");

/**
 * The console's search over all the app's conversations (docs/SEARCH.md, The console): GET /v1/search's rules
 * and words, its hits grouped by conversation in the order of each one's best hit.
 */
export class ConsoleSearcher {
  constructor(private readonly deps: { search: Pick<SearchService, "search"> }) {}

  /** The hits for what was typed, or the API's message refusing it (as the API would answer 400 or 404). */
  async search(appId: string, q: string, cursor: string | undefined): Promise<ConsoleSearch> {
    const query = { q, limit: CONSOLE_SEARCH_LIMIT, ...(cursor !== undefined && { cursor }) };
    const refused = (error: string): ConsoleSearch => ({ q, groups: [], nextCursor: null, error });
    if (!checkQuery(query)) {
      return refused(formatSchemaError(checkQuery.errors ?? [], "querystring").message);
    }
    let answer;
    try {
      answer = await this.deps.search.search(appId, query);
    } catch (error) {
      if (error instanceof DomainError && (error.code === "invalid" || error.code === "not_found")) {
        return refused(error.message);
      }
      throw error;
    }
    const groups = new Map<string, ConsoleSearch["groups"][number]>();
    for (const hit of answer.results) {
      const group = groups.get(hit.conversation.id) ?? { conversation: hit.conversation, hits: [] };
      groups.set(hit.conversation.id, group);
      group.hits.push({
        messageId: hit.message.id,
        speakerName: hit.message.from.name ?? null,
        timeOffset: hit.message.timeOffset,
        snippet: hit.snippet,
      });
    }
    return { q, groups: [...groups.values()], nextCursor: answer.nextCursor, error: null };
  }
}

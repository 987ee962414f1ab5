import { errorResponses } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import { SearchAnswer, SearchQuery } from "./search.schemas.ts";
import type { SearchService } from "./search.service.ts";

/** GET /v1/search (Recap's extension): the app's lines across all its conversations (docs/SEARCH.md). */
export function searchRoutes(app: Server, deps: { search: SearchService }): void {
  app.get(
    "/v1/search",
    {
      schema: {
        tags: ["Search"],
        description:
          "Finds lines across the app's conversations, most relevant first, each with its conversation, speaker, " +
          "time offset and a snippet (HTML, the matched words in <mark>). Filters: a speaker's name or e-mail, one " +
          "conversation, and a range of the conversations' start dates. Recap's extension (docs/SEARCH.md).",
        querystring: SearchQuery,
        response: { 200: SearchAnswer, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => deps.search.search(request.appId, request.query),
  );
}

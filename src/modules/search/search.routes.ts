import { errorResponses } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import { AskAnswer, AskBody } from "./ask.schemas.ts";
import type { AskService } from "./ask.service.ts";
import { SearchAnswer, SearchQuery } from "./search.schemas.ts";
import type { SearchService } from "./search.service.ts";

/**
 * GET /v1/search and POST /v1/ask (Recap's extensions): the app's lines across all its conversations, and
 * a question answered from them (docs/SEARCH.md).
 */
export function searchRoutes(app: Server, deps: { search: SearchService; ask: AskService }): void {
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
  app.post(
    "/v1/ask",
    {
      schema: {
        tags: ["Search"],
        description:
          "Answers a question about the app's conversations (or those named) in a few sentences, from the lines " +
          "search finds for it, with the configured language model; each sentence cites the message ids it stands " +
          "on, and a sentence citing a line the model was not shown is dropped. Nothing found: an empty answer " +
          "with a message. Without a model configured (RECAP_LLM_URL): 409 saying how to configure one; when it " +
          "fails: 503. Recap's extension " +
          "(docs/SEARCH.md).",
        body: AskBody,
        response: { 200: AskAnswer, ...errorResponses(400, 401, 404, 409, 503) },
      },
    },
    async (request) => deps.ask.ask(request.appId, request.body),
  );
}

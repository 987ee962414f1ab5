import { Type, type Static } from "typebox";
import { MAX_SEARCH_TERMS } from "./search-query.ts";

/** The longest query text: a search box's worth, far past any real search. */
export const MAX_QUERY_CHARS = 500;
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;

const IsoDate = Type.String({
  maxLength: 40,
  description:
    "an ISO-8601 date (2026-11-02: the whole day, UTC) or date-time (2026-11-02T10:00:00Z), compared with the conversation's start",
});

export const SearchQuery = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: MAX_QUERY_CHARS,
      description:
        'What to find, as typed in a search box: words (all must match), "quoted phrases", prefixes (budg*), ' +
        `OR between two terms and -word to leave out; at most ${MAX_SEARCH_TERMS} terms (docs/SEARCH.md).`,
    }),
    speaker: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 320,
        description: "only lines of this speaker: a name or an e-mail (with @), either case",
      }),
    ),
    conversationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    from: Type.Optional(IsoDate),
    to: Type.Optional(IsoDate),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_SEARCH_LIMIT, default: DEFAULT_SEARCH_LIMIT }),
    ),
    cursor: Type.Optional(
      Type.String({
        maxLength: 200,
        description: "the `nextCursor` of the page before, with the same search",
      }),
    ),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuery>;

export const SearchHit = Type.Object({
  conversation: Type.Object({ id: Type.String(), name: Type.String(), startTime: Type.String() }),
  message: Type.Object({
    id: Type.String(),
    text: Type.String(),
    from: Type.Object({ name: Type.Optional(Type.String()), email: Type.Optional(Type.String()) }),
    timeOffset: Type.Union([Type.Number(), Type.Null()], {
      description: "seconds from the conversation's start to the line's, null for a line without a time",
    }),
    pageAnchor: Type.String({
      description:
        "the line's fragment on the conversation's summary page (#m-<id>): appended to a summary link's url, it " +
        "opens the page at this line",
    }),
  }),
  snippet: Type.String({
    description: "HTML: the line (or a window of a long one) escaped, the words that matched in <mark>",
  }),
  score: Type.Number({ description: "relevance, higher first; compare only within one search" }),
});
export type SearchHit = Static<typeof SearchHit>;

export const SearchAnswer = Type.Object({
  results: Type.Array(SearchHit),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: "the next page's cursor; null on the last",
  }),
});
export type SearchAnswer = Static<typeof SearchAnswer>;

import type { FullTextQuery } from "../../db/full-text.ts";
import type { SearchHitRow } from "../../db/schema.ts";
import { snippetOf } from "./search-snippet.ts";
import type { SearchHit } from "./search.schemas.ts";

/** Seconds from the conversation's start to the line's, to the hundredth, as the messages API gives them. */
export function timeOffsetOf(lineStart: string | null, conversationStart: string): number | null {
  if (lineStart === null) return null;
  return Math.round((Date.parse(lineStart) - Date.parse(conversationStart)) / 10) / 100;
}

/** Who said a line, with only the fields known. */
export function presentSpeaker(name: string | null, email: string | null): SearchHit["message"]["from"] {
  return { ...(name !== null && { name }), ...(email !== null && { email }) };
}

/** A hit as the API shows it; the snippet is made here, for the hits of the page alone. */
export function presentHit(row: SearchHitRow, query: FullTextQuery): SearchHit {
  return {
    conversation: {
      id: row.conversation_id,
      name: row.conversation_name,
      startTime: row.conversation_start_time,
    },
    message: {
      id: row.message_id,
      text: row.text,
      from: presentSpeaker(row.speaker_name, row.speaker_email),
      timeOffset: timeOffsetOf(row.start_time, row.conversation_start_time),
      pageAnchor: `#m-${row.message_id}`,
    },
    snippet: snippetOf(row.text, query),
    score: Math.round(Number(row.score) * 1e6) / 1e6,
  };
}

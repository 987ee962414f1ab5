import * as chrono from "chrono-node";
import { unicodeWords } from "./unicode-words.ts";

/** Date phrases that are durations or the present moment, not deadlines ("five minutes", "now"). */
const NOT_A_DEADLINE =
  /^(?:(?:in|for|about|like)\s+)?(?:[\p{L}\p{M}\p{N}_-]+\s+)*(?:seconds?|minutes?|hours?)$|^(?:right\s+)?now$/iu;

/**
 * Words without which chrono finds no date in English text: digits, day and month names (and their
 * abbreviations), relative days, parts of the day, calendar units and "now". Most sentences have none,
 * and testing this first skips chrono's full parse for them (checked on every QMSum sentence).
 */
const DATE_HINT = unicodeWords(
  /\d|\b(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|today|tonight|tomorrow|tmr|yesterday|noon|midnight|morning|afternoon|evening|night|weekend|(?:week|month|year|day|hour|minute|second|fortnight)s?|ago|later|o'clock|eod|eow|eom|quarter (?:to|past)|half past)\b/i,
);

/**
 * The deadline a sentence states ("by Friday", "tomorrow", "next week"), resolved forward from the
 * reference instant, in UTC, as a full ISO-8601 date-time as Symbl sent it (Symbl's clients parse
 * `dueBy` as a date-time; a bare "YYYY-MM-DD" became an empty object there): the start of the day
 * (00:00 UTC) when no time of day is stated, the stated time otherwise. Returns null when the sentence
 * states no date.
 */
export function resolveDueDate(text: string, reference: Date): string | null {
  if (Number.isNaN(reference.getTime()) || !DATE_HINT.test(text)) return null;
  const results = chrono.parse(text, { instant: reference, timezone: "UTC" }, { forwardDate: true });
  for (const result of results) {
    if (NOT_A_DEADLINE.test(result.text.trim())) continue;
    const start = result.start;
    const date = start.date();
    if (Number.isNaN(date.getTime())) continue;
    if (start.isCertain("hour")) return date.toISOString();
    return `${date.toISOString().slice(0, 10)}T00:00:00.000Z`;
  }
  return null;
}

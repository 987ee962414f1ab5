import * as chrono from "chrono-node";
import { dayOf, dueByOfDay } from "./due-by.ts";
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

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The deadline a sentence states ("by Friday", "tomorrow", "next week"), resolved forward from the moment
 * it was said, in UTC (a conversation has no other time zone), as a full ISO-8601 date-time as Symbl sent
 * it (Symbl's clients parse `dueBy` as a date-time; a bare "YYYY-MM-DD" became an empty object there).
 * A stated time of day gives that time. A day alone gives the start of that day (00:00 UTC), except the
 * day it was said ("today", "tonight"), which gives the end of that day: a deadline is never before the
 * words that set it. A weekday named on that weekday ("by Friday", said on a Friday) is the next one, a
 * week on; chrono alone read it as that same day when said before noon and as the next one after. A day
 * already past ("yesterday") is no deadline. Returns null when the sentence states none.
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
    const weekdayAlone = start.isCertain("weekday") && !start.isCertain("day");
    return dueByOfDay(
      dayOf(weekdayAlone && dayOf(date) === dayOf(reference) ? new Date(date.getTime() + 7 * DAY_MS) : date),
      reference,
    );
  }
  return null;
}

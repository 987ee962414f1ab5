/**
 * A deadline's day as the API's `dueBy`, apart from dates.ts so that the language model's answers (read in the
 * main process) use it without loading chrono's parsers there.
 */

/** The UTC calendar day of an instant, "YYYY-MM-DD". */
export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * A due day ("YYYY-MM-DD") said at the reference instant, as `dueBy`: the start of that day (00:00 UTC),
 * or the end of it when it is the day it was said, so a deadline is never before the words that set it;
 * null for a day already past.
 */
export function dueByOfDay(day: string, reference: Date): string | null {
  const said = dayOf(reference);
  if (day < said) return null;
  return day === said ? `${day}T23:59:59.999Z` : `${day}T00:00:00.000Z`;
}

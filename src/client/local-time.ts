/**
 * Times in the viewer's own time zone. The server writes every instant in UTC, saying so ("15:00 UTC"),
 * for readers without the script; each <time data-local> is rewritten here from its datetime: "date" as
 * the viewer's date, "time" as their time with the zone's name, "date-time" as both ("Nov 6, 2026, 10:00
 * AM EST"). Used by the page and the console.
 */
const STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: "long" },
  time: { hour: "2-digit", minute: "2-digit", timeZoneName: "short" },
  "date-time": {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  },
};

export function localiseTimes(root: ParentNode = document): void {
  for (const time of root.querySelectorAll<HTMLTimeElement>("time[data-local]")) {
    const style = STYLES[time.dataset.local ?? ""];
    const when = new Date(time.dateTime);
    if (style === undefined || Number.isNaN(when.getTime())) continue;
    time.textContent = when.toLocaleString(undefined, style);
  }
}

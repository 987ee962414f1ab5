/**
 * The analytics page's timeline is one tab stop, as the transcript is: the stretch last focused has
 * tabindex 0, the others -1. Left/Right move along a row, Home/End to its ends, Up/Down to the row above or
 * below at the nearest time; Enter follows the link (seeking the player there).
 */
import { $, addMovingHelp } from "./dom.ts";

const rowsOf = (timeline: HTMLElement) =>
  [...timeline.querySelectorAll<HTMLElement>(".tl-track")]
    .map((track) => [...track.querySelectorAll<HTMLAnchorElement>("a")])
    .filter((row) => row.length > 0);

const timeOf = (link: HTMLElement) => Number(link.dataset.seek ?? 0);

export function wireTimelineFocus(): void {
  const timeline = $(".timeline");
  if (!timeline) return;
  const rows = rowsOf(timeline);
  const first = rows[0]?.[0];
  if (!first) return;
  let active: HTMLElement = first;
  for (const row of rows) for (const link of row) link.tabIndex = -1;
  addMovingHelp(
    timeline,
    "timeline-help",
    "Left and Right arrows move along a row, Up and Down to the row above or below, Home and End to a row's ends; Enter plays from there.",
  );
  const makeActive = (link: HTMLElement) => {
    active.tabIndex = -1;
    active.removeAttribute("aria-describedby");
    link.tabIndex = 0;
    link.setAttribute("aria-describedby", "timeline-help");
    active = link;
  };
  makeActive(first);

  timeline.addEventListener("focusin", (event) => {
    if (event.target instanceof HTMLAnchorElement && event.target.closest(".tl-track"))
      makeActive(event.target);
  });
  timeline.addEventListener("keydown", (event) => {
    const link = event.target instanceof HTMLAnchorElement ? event.target : null;
    const r = link ? rows.findIndex((row) => row.includes(link)) : -1;
    const row = rows[r];
    if (!link || !row) return;
    const i = row.indexOf(link);
    const nearest = (other: HTMLAnchorElement[] | undefined) =>
      other?.reduce((best, candidate) =>
        Math.abs(timeOf(candidate) - timeOf(link)) < Math.abs(timeOf(best) - timeOf(link)) ? candidate : best,
      );
    const moves: Record<string, HTMLAnchorElement | undefined> = {
      ArrowRight: row[i + 1],
      ArrowLeft: row[i - 1],
      Home: row[0],
      End: row[row.length - 1],
      ArrowDown: nearest(rows[r + 1]),
      ArrowUp: nearest(rows[r - 1]),
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const target = moves[event.key];
    if (!target) return;
    makeActive(target);
    target.focus();
  });
}

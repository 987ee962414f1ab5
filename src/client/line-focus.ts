/**
 * The transcript is one tab stop: the line last focused (the first line at first) has tabindex 0, the
 * others -1, and Up/Down, Home/End move between the lines shown (a roving tabindex). Enter on a line
 * follows its time (seeking the media there). Lines' time links leave the tab order for the same reason.
 */
import { $, addMovingHelp, lines, shown } from "./dom.ts";

let active: HTMLElement | null = null;

/** The line in the tab order also carries the help on moving between lines. */
function makeActive(line: HTMLElement): void {
  if (active && active !== line) {
    active.tabIndex = -1;
    active.removeAttribute("aria-describedby");
  }
  line.tabIndex = 0;
  line.setAttribute("aria-describedby", "lines-help");
  active = line;
}

/** Keeps one line in the tab order when lines are hidden or shown ("only matching lines"). */
export function resetLineFocus(): void {
  if (active && shown(active)) return;
  const first = lines().find(shown);
  if (first) makeActive(first);
}

export function wireLineFocus(): void {
  const list = $(".lines");
  if (!list) return;
  // Lines leave the tab order, those of parts loaded later too (parts.ts).
  const untab = () => {
    for (const line of lines()) if (line !== active) line.tabIndex = -1;
    for (const time of list.querySelectorAll<HTMLElement>(".line a.time")) time.tabIndex = -1;
  };
  untab();
  document.addEventListener("recap:lines-added", untab);
  addMovingHelp(
    list,
    "lines-help",
    "Up and Down arrows move between lines, Home and End to the first and last, Enter follows the line's time.",
  );
  resetLineFocus();

  list.addEventListener("focusin", (event) => {
    const line = event.target instanceof Element ? event.target.closest<HTMLElement>(".line") : null;
    if (line) makeActive(line);
  });
  list.addEventListener("keydown", (event) => {
    const line = event.target instanceof HTMLElement && event.target.matches(".line") ? event.target : null;
    if (!line) return;
    if (event.key === "Enter") {
      line.querySelector<HTMLElement>("a.time")?.click();
      return;
    }
    const visible: HTMLElement[] = lines().filter(shown);
    const at = visible.indexOf(line);
    const moves: Record<string, number> = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      Home: 0,
      End: visible.length - 1,
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const target = visible[to];
    if (!target) return;
    makeActive(target);
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: "nearest" });
  });
}

/**
 * Reading a long transcript: the sticky toolbar's filters (count, next/previous, only matching lines),
 * search, the chapter outline that follows the reader, and switching between cleaned and verbatim text
 * without losing the place.
 */
import { $, $$, lines, shown, showLine } from "./dom.ts";
import { resetLineFocus } from "./line-focus.ts";
import { lineAddress, loadParts, placeholderOf } from "./parts.ts";
import { wireSearch } from "./search.ts";

const toolbar = $("#toolbar");

/** The toolbar's lower edge in the viewport: what is above it is covered. */
const coveredUntil = () => (toolbar ? toolbar.getBoundingClientRect().bottom : 0);

/** Where the toolbar sticks: below the bars held above it. */
const toolbarTop = () => (toolbar ? parseFloat(getComputedStyle(toolbar).top) || 0 : 0);

/** What else sticks at the top: the phone's bar of section links and a player held over the transcript. */
const STUCK_ABOVE = "nav.jumps, .media";

/**
 * Stacks the toolbar below whatever sticks above it over the transcript (on a phone the bar of section links
 * and a held player, on the analytics page a player as wide as the page), so sticky things never cover each
 * other, and keeps the page's scroll padding (what sticks above) and --toolbar-height current, so a line
 * scrolled to, or opened by its anchor, lands below all of it.
 */
function stackToolbar(): void {
  if (!toolbar) return;
  const root = document.documentElement.style;
  const set = () => {
    const bar = toolbar.getBoundingClientRect();
    let above = 0;
    for (const element of $$(STUCK_ABOVE)) {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      const beside = box.right <= bar.left || box.left >= bar.right;
      if (style.position !== "sticky" || element.offsetParent === null || beside) continue;
      above = Math.max(above, (parseFloat(style.top) || 0) + box.height);
    }
    root.setProperty("--toolbar-top", `${above}px`);
    root.setProperty("--toolbar-height", `${toolbar.offsetHeight}px`);
    root.scrollPaddingTop = `${above + 16}px`;
  };
  const resized = new ResizeObserver(set);
  for (const element of [toolbar, ...$$(STUCK_ABOVE)]) resized.observe(element);
  window.addEventListener("resize", set);
  set();
}

let filter: { attribute: "topics" | "insights"; value: string } | null = null;
const onlyMatching = $<HTMLInputElement>("#only-matching");

const matchesFilter = (line: HTMLElement) =>
  filter === null || (line.dataset[filter.attribute] ?? "").split(" ").includes(filter.value);

/** Marks the lines that match the filter and the search; with "only matching lines", hides the rest. */
function refreshMatching(): void {
  const searching = document.body.dataset.searching === "true";
  const narrowing = onlyMatching?.checked === true && (filter !== null || searching);
  $(".lines")?.classList.toggle("only-matching", narrowing);
  for (const line of lines()) {
    const match = matchesFilter(line) && (!searching || line.querySelector("mark") !== null);
    line.classList.toggle("is-match", narrowing && match);
  }
  resetLineFocus();
}

/* Filters: one chip at a time highlights the lines about a topic or an insight type. */
function wireFilters(): void {
  const chips = $$<HTMLButtonElement>(".chip");
  const count = $(".filter-count");
  const previous = $<HTMLButtonElement>("[data-action=filter-prev]");
  const next = $<HTMLButtonElement>("[data-action=filter-next]");
  let matches: HTMLElement[] = [];
  let current = 0;

  const step = (delta: number) => {
    const visible = matches.filter(shown);
    if (visible.length === 0) return;
    const at = visible.indexOf(matches[current] ?? visible[0]!);
    const line = visible[(Math.max(at, 0) + delta + visible.length) % visible.length]!;
    current = matches.indexOf(line);
    showLine(line);
    if (count) {
      count.textContent = `${matches.length} line${matches.length === 1 ? "" : "s"} highlighted · ${
        current + 1
      } of ${matches.length}`;
    }
  };

  for (const chip of chips) {
    chip.addEventListener("click", () => void choose(chip));
  }
  // A transcript in parts: the parts holding the chip's lines come onto the page first.
  async function choose(chip: HTMLButtonElement): Promise<void> {
    const active = chip.getAttribute("aria-pressed") !== "true";
    if (active && chip.dataset.parts) await loadParts(chip.dataset.parts.split(" ").map(Number));
    for (const other of chips) other.setAttribute("aria-pressed", "false");
    for (const line of lines()) line.classList.remove("is-match-topic", "is-match-insight");
    const [kind, value] = (chip.dataset.filter ?? "").split(":");
    filter = active ? { attribute: kind === "topic" ? "topics" : "insights", value: value ?? "" } : null;
    matches = filter === null ? [] : lines().filter(matchesFilter);
    if (previous) previous.hidden = matches.length === 0;
    if (next) next.hidden = matches.length === 0;
    refreshMatching();
    if (!active) {
      if (count) count.textContent = "";
      return;
    }
    chip.setAttribute("aria-pressed", "true");
    for (const line of matches) line.classList.add(kind === "topic" ? "is-match-topic" : "is-match-insight");
    current = 0;
    if (matches.length === 0 && count) count.textContent = "No lines match.";
    else step(0);
  }
  previous?.addEventListener("click", () => step(-1));
  next?.addEventListener("click", () => step(1));
  onlyMatching?.addEventListener("change", refreshMatching);
}

/**
 * The outline marks the chapter being read: the last one whose first line has reached the reader's eye. In a
 * transcript in parts, a chapter whose first line is not on the page starts where its part's link is.
 */
function trackChapter(): void {
  const label = $(".outline-current");
  const links = $$<HTMLAnchorElement>(".outline a[data-goto]");
  const startOf = (link: HTMLAnchorElement) =>
    document.getElementById(`m-${link.dataset.goto ?? ""}`) ??
    (link.dataset.part === undefined ? null : placeholderOf(Number(link.dataset.part)));
  let starts = links.flatMap((link) => {
    const line = startOf(link);
    return line ? [{ link, line }] : [];
  });
  if (starts.length === 0) return;
  let frame = 0;
  const update = () => {
    frame = 0;
    // The reader's eye: a third of the way down what the toolbar leaves visible (a line jumped to lands
    // just below the toolbar, above it).
    const covered = coveredUntil();
    const edge = covered + (window.innerHeight - covered) / 3;
    let reading = -1;
    starts.forEach(({ line }, index) => {
      if (shown(line) && line.getBoundingClientRect().top <= edge) reading = index;
    });
    starts.forEach(({ link }, index) => {
      if (index === reading) link.setAttribute("aria-current", "location");
      else link.removeAttribute("aria-current");
    });
    const chapter = starts[reading];
    if (label) {
      label.hidden = chapter === undefined;
      label.textContent = chapter ? `${reading + 1} of ${starts.length}: ${chapter.link.textContent}` : "";
    }
  };
  window.addEventListener("scroll", () => (frame ||= requestAnimationFrame(update)), { passive: true });
  document.addEventListener("recap:lines-added", () => {
    starts = starts.map(({ link, line }) => ({ link, line: startOf(link) ?? line }));
  });
  update();
  // A chapter chosen in the outline closes it (the jump itself is page.ts's).
  const outline = $<HTMLDetailsElement>("details.outline");
  for (const { link } of starts) link.addEventListener("click", () => outline?.removeAttribute("open"));
}

/* Switching between cleaned and verbatim text reloads the page at the line being read. */
function keepPlaceOnTextSwitch(): void {
  for (const link of $$<HTMLAnchorElement>("[data-text-mode]")) {
    link.addEventListener("click", () => {
      // Only once the reader is in the transcript: the toolbar then sticks.
      if (!toolbar || toolbar.getBoundingClientRect().top > toolbarTop() + 1) return;
      const edge = coveredUntil();
      const reading = lines().find((line) => shown(line) && line.getBoundingClientRect().bottom > edge);
      if (!reading) return;
      // The page in the other text mode, at the line being read (and its part).
      const at = new URL(lineAddress(reading));
      const to = new URL(link.href);
      to.searchParams.delete("part");
      const part = at.searchParams.get("part");
      if (part !== null) to.searchParams.set("part", part);
      to.hash = reading.id;
      link.href = to.href;
    });
  }
}

export function wireReading(): void {
  stackToolbar();
  wireFilters();
  wireSearch(refreshMatching);
  trackChapter();
  keepPlaceOnTextSwitch();
}

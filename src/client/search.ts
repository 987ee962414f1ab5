/*
 * Search: marks every match in the transcript text shown, with a count and next/previous. A transcript in
 * parts is searched whole: the link answers which parts mention the words, and those come onto the page
 * before they are marked.
 */
import { $, $$, linkPath, scrollBehavior, verbatim } from "./dom.ts";
import { inParts, loadParts } from "./parts.ts";

/** The parts of a transcript in parts that mention `query` (the link searches the text as the page shows it). */
async function partsMentioning(query: string): Promise<number[]> {
  const version = $<HTMLElement>(".lines[data-parts]")?.dataset.version ?? "";
  const text = verbatim() ? "&text=verbatim" : "";
  const response = await fetch(
    `${linkPath()}/search?q=${encodeURIComponent(query)}${text}&v=${encodeURIComponent(version)}`,
    { credentials: "omit" },
  );
  if (!response.ok) return [];
  return ((await response.json()) as { parts: number[] }).parts;
}

/** Wires the search form; `changed` hears of every new set of marks (for "only matching lines"). */
export function wireSearch(changed: () => void): void {
  const form = $<HTMLFormElement>("form.search");
  const input = $<HTMLInputElement>("#search-input");
  const count = $("#search-count");
  if (!form || !input || !count) return;
  let marks: HTMLElement[] = [];
  let current = -1;
  /** Counts searches, so that one overtaken while its parts were loading marks nothing. */
  let searches = 0;

  const clear = () => {
    for (const text of $$(".line-text")) {
      if (text.querySelector("mark")) text.replaceChildren(text.textContent ?? "");
    }
    marks = [];
    current = -1;
  };

  /** Marks every match of `query` in the lines on the page. */
  const mark = (query: string) => {
    for (const text of $$(".line-text")) {
      const content = text.textContent ?? "";
      const lower = content.toLowerCase();
      let from = 0;
      let at = lower.indexOf(query);
      if (at < 0) continue;
      const fragment = document.createDocumentFragment();
      while (at >= 0) {
        fragment.append(content.slice(from, at));
        const mark = document.createElement("mark");
        mark.textContent = content.slice(at, at + query.length);
        fragment.append(mark);
        marks.push(mark);
        from = at + query.length;
        at = lower.indexOf(query, from);
      }
      fragment.append(content.slice(from));
      text.replaceChildren(fragment);
    }
  };

  const queryOf = () => input.value.trim().toLowerCase();

  const run = async () => {
    const search = ++searches;
    const query = queryOf();
    if (query !== "" && inParts()) await loadParts(await partsMentioning(query));
    if (search !== searches) return;
    clear();
    document.body.dataset.searching = String(query !== "");
    if (query === "") {
      count.textContent = "";
      changed();
      return;
    }
    mark(query);
    changed();
    if (marks.length === 0) count.textContent = "No matches";
    else step(0, true);
  };

  const step = (delta: number, absolute = false) => {
    if (marks.length === 0) return;
    marks[current]?.classList.remove("is-current");
    current = absolute ? delta : (current + delta + marks.length) % marks.length;
    const mark = marks[current];
    if (!mark) return;
    mark.classList.add("is-current");
    mark.scrollIntoView({ block: "center", behavior: scrollBehavior() });
    count.textContent = `${current + 1} of ${marks.length}`;
  };

  let timer = 0;
  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void run(), 120);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    window.clearTimeout(timer);
    if (marks.length === 0 || input.dataset.query !== input.value) {
      input.dataset.query = input.value;
      void run();
    } else step(event.shiftKey ? -1 : 1);
  });
  $("[data-action=search-next]", form)?.addEventListener("click", () => step(1));
  $("[data-action=search-prev]", form)?.addEventListener("click", () => step(-1));
  document.addEventListener("recap:transcript-changed", () => {
    if (queryOf() !== "") void run();
  });
  // Lines that arrive later (the next part as the reader scrolls) are marked too, keeping the match in hand.
  document.addEventListener("recap:lines-added", () => {
    const query = queryOf();
    if (query === "" || document.body.dataset.searching !== "true") return;
    // The match in hand, as its line's text and its place among that line's matches.
    const at = marks[current];
    const text = at?.parentElement;
    const nth = text ? [...text.querySelectorAll("mark")].indexOf(at) : -1;
    clear();
    mark(query);
    changed();
    const again = text ? text.querySelectorAll("mark")[nth] : undefined;
    current = again ? Math.max(marks.indexOf(again), 0) : 0;
    marks[current]?.classList.add("is-current");
    count.textContent = marks.length === 0 ? "No matches" : `${current + 1} of ${marks.length}`;
  });
}

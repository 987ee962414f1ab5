/* Search: marks every match in the transcript text shown, with a count and next/previous. */
import { $, $$, scrollBehavior } from "./dom.ts";

/** Wires the search form; `changed` hears of every new set of marks (for "only matching lines"). */
export function wireSearch(changed: () => void): void {
  const form = $<HTMLFormElement>("form.search");
  const input = $<HTMLInputElement>("#search-input");
  const count = $("#search-count");
  if (!form || !input || !count) return;
  let marks: HTMLElement[] = [];
  let current = -1;

  const clear = () => {
    for (const text of $$(".line-text")) {
      if (text.querySelector("mark")) text.replaceChildren(text.textContent ?? "");
    }
    marks = [];
    current = -1;
  };

  const run = () => {
    clear();
    const query = input.value.trim().toLocaleLowerCase();
    document.body.dataset.searching = String(query !== "");
    if (query === "") {
      count.textContent = "";
      changed();
      return;
    }
    for (const text of $$(".line-text")) {
      const content = text.textContent ?? "";
      const lower = content.toLocaleLowerCase();
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
    timer = window.setTimeout(run, 120);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    window.clearTimeout(timer);
    if (marks.length === 0 || input.dataset.query !== input.value) {
      input.dataset.query = input.value;
      run();
    } else step(event.shiftKey ? -1 : 1);
  });
  $("[data-action=search-next]", form)?.addEventListener("click", () => step(1));
  $("[data-action=search-prev]", form)?.addEventListener("click", () => step(-1));
  document.addEventListener("recap:transcript-changed", () => {
    if (input.value.trim() !== "") run();
  });
}

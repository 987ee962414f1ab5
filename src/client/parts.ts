/**
 * A long transcript in parts (docs/PAGES.md, "A very long meeting"): the page holds one part's lines and, in
 * each other part's place, a link to that part's page. Here a part's lines take the place of its link: the
 * next part as the reader comes near it, a part chosen by its link, and whatever part something needs a line
 * of (a jump, a search, a filter, playback, copying). Each time lines arrive, `recap:lines-added` says so.
 * A page made of content that has changed since asks for nothing more: it is loaded again.
 */
import { $, $$, announce, linkPath, verbatim } from "./dom.ts";

const list = $<HTMLOListElement>(".lines[data-parts]");
/** The part the page was made with, and every part's first time ("-": none). */
const shownPart = Number(list?.dataset.part ?? 1);
const starts = (list?.dataset.partStarts ?? "")
  .split(" ")
  .map((start) => (start === "-" ? null : Number(start)));
const loading = new Map<number, Promise<void>>();
/** The part of each line loaded after the page: the page's own are in the part it was made with. */
const loadedPart = new Map<string, number>();

/** Whether the transcript is in parts at all. */
export const inParts = () => list !== null;

/** A part's link, while its lines are not on the page. */
export const placeholderOf = (part: number) =>
  list?.querySelector<HTMLElement>(`:scope > li.part[data-part="${part}"]`) ?? null;

/** The part a line on the page is in. */
export const partOfLine = (line: HTMLElement) => loadedPart.get(line.id) ?? shownPart;

/** The page's address at a line: its anchor, and its part when the transcript is in parts. */
export function lineAddress(line: HTMLElement): string {
  const url = new URL(location.href);
  if (inParts()) {
    const part = partOfLine(line);
    if (part > 1) url.searchParams.set("part", String(part));
    else url.searchParams.delete("part");
  }
  url.hash = line.id;
  return url.href;
}

/** The part being said at `seconds`: the last whose first time is not later. */
export function partAt(seconds: number): number | null {
  let found: number | null = null;
  starts.forEach((start, index) => {
    if (start !== null && start <= seconds + 0.05) found = index + 1;
  });
  return found;
}

/** Asks the link for a part's lines: by its number (`part=3`) or by one of its lines (`line=<id>`). */
async function fetchPart(query: string): Promise<Document> {
  const text = verbatim() ? "&text=verbatim" : "";
  const response = await fetch(
    `${linkPath()}/transcript?${query}${text}&v=${encodeURIComponent(list?.dataset.version ?? "")}`,
    { credentials: "omit" },
  );
  if (response.status === 409) {
    announce("This conversation has changed since the page was opened: loading it again.");
    location.reload();
  }
  if (!response.ok) throw new Error(`The transcript's part could not be loaded (${response.status}).`);
  return new DOMParser().parseFromString(await response.text(), "text/html");
}

/** Puts a part's lines, as the link sent them, in the place of its link. */
function insertPart(sent: Document): void {
  const lines = sent.querySelector<HTMLElement>("ol.lines[data-part]");
  const part = Number(lines?.dataset.part);
  const placeholder = placeholderOf(part);
  if (!lines || !placeholder) return;
  const added = [...lines.children].map((line) => document.adoptNode(line as HTMLElement));
  for (const line of added) loadedPart.set(line.id, part);
  placeholder.replaceWith(...added);
  document.dispatchEvent(new CustomEvent("recap:lines-added", { detail: { part } }));
  watchNext(added.at(-1));
}

/** Loads a part's lines in place of its link, once; nothing when they are on the page already. */
export function loadPart(part: number): Promise<void> {
  const placeholder = placeholderOf(part);
  if (!placeholder) return Promise.resolve();
  let pending = loading.get(part);
  if (pending === undefined) {
    placeholder.setAttribute("aria-busy", "true");
    pending = fetchPart(`part=${part}`).then(insertPart, (error: unknown) => {
      loading.delete(part);
      placeholder.removeAttribute("aria-busy");
      announce(error instanceof Error ? error.message : "Loading failed.");
    });
    loading.set(part, pending);
  }
  return pending;
}

/** Loads every part in `parts` (a list of numbers, as a chip's data-parts holds them). */
export async function loadParts(parts: readonly number[]): Promise<void> {
  await Promise.all(parts.map((part) => loadPart(part)));
}

/** Loads the whole transcript (to copy it). */
export function loadAll(): Promise<void> {
  return loadParts(
    $$<HTMLElement>(".lines > li.part").map((placeholder) => Number(placeholder.dataset.part)),
  );
}

/**
 * The line with this id, its part loaded first when it is not on the page: by the part a link names, else
 * by asking the link which part holds it. Null when there is no such line.
 */
export async function findLine(id: string, part?: number): Promise<HTMLElement | null> {
  const line = () => document.getElementById(`m-${id}`);
  if (line() || !inParts()) return line();
  if (part !== undefined) await loadPart(part);
  else {
    try {
      insertPart(await fetchPart(`line=${encodeURIComponent(id)}`));
    } catch {
      return null;
    }
  }
  return line();
}

/**
 * The next part loads as the reader comes near its link from the lines above it; a link after other
 * links waits until the part before it is loaded, so opening a page at its fifth part loads nothing
 * above it, and a part chosen by its link loads in place.
 */
const near = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      const placeholder = entry.target as HTMLElement;
      if (entry.isIntersecting && placeholder.previousElementSibling?.matches(".line")) {
        near.unobserve(placeholder);
        void loadPart(Number(placeholder.dataset.part));
      }
    }
  },
  { rootMargin: "0px 0px 1500px 0px" },
);

/** Watches the link after `line` afresh, so a link already near when lines arrive before it loads too. */
function watchNext(line: Element | undefined): void {
  const next = line?.nextElementSibling;
  if (next instanceof HTMLElement && next.matches("li.part")) {
    near.unobserve(next);
    near.observe(next);
  }
}

export function wireParts(): void {
  if (!list) return;
  for (const placeholder of $$<HTMLElement>(":scope > li.part", list)) near.observe(placeholder);
  list.addEventListener("click", (event) => {
    const link =
      event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a.part-link") : null;
    const placeholder = link?.closest<HTMLElement>("li.part");
    if (!placeholder) return;
    event.preventDefault();
    const part = Number(placeholder.dataset.part);
    void loadPart(part).then(() => {
      const first = $$<HTMLElement>(".line").find((line) => partOfLine(line) === part);
      first?.focus({ preventScroll: true });
    });
  });
}

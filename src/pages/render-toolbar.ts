import { html, raw, type Raw } from "./escape.ts";
import { gotoLink } from "./render-parts.ts";
import type { TranscriptParts } from "./transcript-parts.ts";
import type { indexByMessage } from "./render-transcript.ts";
import {
  formatOffset,
  formatShare,
  INSIGHT_GROUPS,
  type PageTopic,
  type PageView,
  type TranscriptContext,
} from "./view-model.ts";

// The transcript's toolbar, which stays in view while the transcript scrolls (position: sticky): the
// chapter outline, cleaned or verbatim text, back to top, search and the filters.

/** Lines per filter value (per topic id and per insight type), and the parts those lines are in. */
interface LineCounts {
  lines: Map<string, number>;
  parts: Map<string, Set<number>>;
}

/**
 * A filter chip: a topic by its id, or an insight type, with how many lines it highlights and, when the
 * transcript is in parts, which parts hold them (the script loads those before it highlights).
 */
function chip(kind: "topic" | "insight", value: string, label: string, counts: LineCounts): Raw {
  const parts = counts.parts.get(value);
  // Verbatim: the formatter would join these lines.
  // prettier-ignore
  return html`<button
    type="button"
    class="chip chip-${kind}"
    data-filter="${kind}:${value}"
    data-count="${counts.lines.get(value) ?? 0}"
    ${parts ? raw(`data-parts="${[...parts].join(" ")}"`) : ""}
    aria-pressed="false"
  >
    <bdi>${label}</bdi> <span class="chip-count">(${counts.lines.get(value) ?? 0})</span>
  </button>`;
}

/** Lines per filter value, per topic id and per insight type, and their parts when there are several. */
function countLines(parts: TranscriptParts, index: ReturnType<typeof indexByMessage>) {
  const topics: LineCounts = { lines: new Map(), parts: new Map() };
  const insights: LineCounts = { lines: new Map(), parts: new Map() };
  const add = (counts: LineCounts, key: string, part: number) => {
    counts.lines.set(key, (counts.lines.get(key) ?? 0) + 1);
    if (parts.whole) return;
    const inParts = counts.parts.get(key) ?? new Set<number>();
    counts.parts.set(key, inParts.add(part));
  };
  parts.messages.forEach((message, i) => {
    const part = parts.partAt(i);
    for (const topic of index.topicsByMessage.get(message.id) ?? []) add(topics, topic, part);
    for (const type of index.insightsByMessage.get(message.id) ?? []) add(insights, type, part);
  });
  return { topics, insights };
}

/** The chips, and next/previous through the highlighted lines (shown by the script). */
function renderFilters(
  view: PageView,
  parts: TranscriptParts,
  index: ReturnType<typeof indexByMessage>,
): Raw | null {
  const counts = countLines(parts, index);
  const presentTypes = new Set(view.insights.map((i) => i.type));
  if (view.topics.length === 0 && presentTypes.size === 0) return null;
  return html`<div class="filters" data-js hidden>
    <p class="filters-label" id="filters-label">Highlight lines about</p>
    <div class="chips" role="group" aria-labelledby="filters-label">
      ${INSIGHT_GROUPS.filter((g) => presentTypes.has(g.type)).map((g) =>
        chip("insight", g.type, g.chip, counts.insights),
      )}
      ${view.topics.map((t) => chip("topic", t.id, t.text, counts.topics))}
    </div>
    <div class="filter-nav">
      <p class="filter-count" role="status"></p>
      <button type="button" class="control" data-action="filter-prev" hidden>Previous line</button>
      <button type="button" class="control" data-action="filter-next" hidden>Next line</button>
    </div>
  </div>`;
}

function renderSearch(): Raw {
  // prettier-ignore
  return html`<form class="search" role="search" data-js hidden>
    <label for="search-input">Search the transcript</label>
    <input id="search-input" type="search" dir="auto" autocomplete="off" placeholder="Search the transcript" />
    <span class="search-count" id="search-count" role="status" aria-live="polite"></span>
    <button type="button" class="control" data-action="search-prev" aria-label="Previous match">
      Previous
    </button>
    <button type="button" class="control" data-action="search-next" aria-label="Next match">
      Next
    </button>
  </form>`;
}

function renderChapter(chapter: PageTopic, parts: TranscriptParts): Raw {
  const details = [
    chapter.offset !== null && formatOffset(chapter.offset),
    chapter.share !== null && formatShare(chapter.share),
  ].filter((detail) => detail !== false);
  return html`<li>
    ${gotoLink(chapter.messageIds, parts, chapter.text)}
    ${details.length > 0 && html`<span class="item-meta">${details.join(" · ")}</span>`}
  </li>`;
}

/** The chapters as an outline that jumps to each; the script marks the one being read (aria-current). */
function renderOutline(view: PageView, parts: TranscriptParts): Raw | null {
  const chapters = view.topics.filter((t) => t.kind === "chapter");
  if (chapters.length === 0) return null;
  return html`<details class="outline">
    <summary>
      <span class="outline-label">Chapters</span>
      <span class="outline-current" data-js hidden></span>
    </summary>
    <nav class="outline-list" aria-label="Chapters">
      <ol>
        ${chapters.map((c) => renderChapter(c, parts))}
      </ol>
    </nav>
  </details>`;
}

/** Cleaned or verbatim text: two links (each at the part shown), so the switch works without the script. */
function renderTextMode(context: TranscriptContext, parts: TranscriptParts): Raw {
  const at = parts.current > 1 ? `part=${parts.current}` : "";
  const mode = (verbatim: boolean, label: string) =>
    html`<a
      href="${context.selfPath}${verbatim ? `?text=verbatim${at && `&${at}`}` : at && `?${at}`}"
      data-text-mode="${verbatim ? "verbatim" : "cleaned"}"
      ${verbatim === context.verbatim ? html`aria-current="page"` : ""}
      >${label}</a
    >`;
  return html`<nav class="text-mode" aria-label="Transcript text">
    ${mode(false, "Cleaned")} ${mode(true, "Verbatim")}
  </nav>`;
}

export function renderToolbar(
  view: PageView,
  context: TranscriptContext,
  parts: TranscriptParts,
  index: ReturnType<typeof indexByMessage>,
): Raw {
  return html`<div class="toolbar" id="toolbar">
    <div class="toolbar-row">
      ${renderOutline(view, parts)} ${renderTextMode(context, parts)}
      <a class="to-top" href="#top">Back to top</a>
    </div>
    <div class="toolbar-row">
      ${renderSearch()}
      <label class="only-matching" data-js hidden>
        <input type="checkbox" id="only-matching" /> Only matching lines
      </label>
    </div>
    ${renderFilters(view, parts, index)}
  </div>`;
}

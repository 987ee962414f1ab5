import { html, type Raw } from "./escape.ts";
import { gotoLink, type MessagesById } from "./render-parts.ts";
import type { indexByMessage } from "./render-transcript.ts";
import {
  formatOffset,
  formatShare,
  INSIGHT_GROUPS,
  type PageContext,
  type PageTopic,
  type PageView,
} from "./view-model.ts";

// The transcript's toolbar, which stays in view while the transcript scrolls (position: sticky): the
// chapter outline, cleaned or verbatim text, back to top, search and the filters.

/** A filter chip: a topic by its id, or an insight type, with how many lines it highlights. */
function chip(kind: "topic" | "insight", value: string, label: string, count: number): Raw {
  // Verbatim: the formatter would join these lines.
  // prettier-ignore
  return html`<button
    type="button"
    class="chip chip-${kind}"
    data-filter="${kind}:${value}"
    data-count="${count}"
    aria-pressed="false"
  >
    <bdi>${label}</bdi> <span class="chip-count">(${count})</span>
  </button>`;
}

/** Lines per filter value: per topic id and per insight type. */
function countLines(view: PageView, index: ReturnType<typeof indexByMessage>) {
  const topics = new Map<string, number>();
  const insights = new Map<string, number>();
  const add = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const message of view.messages) {
    for (const topic of index.topicsByMessage.get(message.id) ?? []) add(topics, topic);
    for (const type of index.insightsByMessage.get(message.id) ?? []) add(insights, type);
  }
  return { topics, insights };
}

/** The chips, and next/previous through the highlighted lines (shown by the script). */
function renderFilters(view: PageView, index: ReturnType<typeof indexByMessage>): Raw | null {
  const counts = countLines(view, index);
  const presentTypes = new Set(view.insights.map((i) => i.type));
  if (view.topics.length === 0 && presentTypes.size === 0) return null;
  return html`<div class="filters" data-js hidden>
    <p class="filters-label" id="filters-label">Highlight lines about</p>
    <div class="chips" role="group" aria-labelledby="filters-label">
      ${INSIGHT_GROUPS.filter((g) => presentTypes.has(g.type)).map((g) =>
        chip("insight", g.type, g.chip, counts.insights.get(g.type) ?? 0),
      )}
      ${view.topics.map((t) => chip("topic", t.id, t.text, counts.topics.get(t.id) ?? 0))}
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

function renderChapter(chapter: PageTopic, messagesById: MessagesById): Raw {
  const details = [
    chapter.offset !== null && formatOffset(chapter.offset),
    chapter.share !== null && formatShare(chapter.share),
  ].filter((detail) => detail !== false);
  return html`<li>
    ${gotoLink(chapter.messageIds, messagesById, chapter.text)}
    ${details.length > 0 && html`<span class="item-meta">${details.join(" · ")}</span>`}
  </li>`;
}

/** The chapters as an outline that jumps to each; the script marks the one being read (aria-current). */
function renderOutline(view: PageView): Raw | null {
  const chapters = view.topics.filter((t) => t.kind === "chapter");
  if (chapters.length === 0) return null;
  const messagesById = new Map(view.messages.map((m) => [m.id, m]));
  return html`<details class="outline">
    <summary>
      <span class="outline-label">Chapters</span>
      <span class="outline-current" data-js hidden></span>
    </summary>
    <nav class="outline-list" aria-label="Chapters">
      <ol>
        ${chapters.map((c) => renderChapter(c, messagesById))}
      </ol>
    </nav>
  </details>`;
}

/** Cleaned or verbatim text: two links, so the switch works without the script. */
function renderTextMode(context: PageContext): Raw {
  const mode = (verbatim: boolean, label: string) =>
    html`<a
      href="${context.selfPath}${verbatim ? "?text=verbatim" : ""}"
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
  context: PageContext,
  index: ReturnType<typeof indexByMessage>,
): Raw {
  return html`<div class="toolbar" id="toolbar">
    <div class="toolbar-row">
      ${renderOutline(view)} ${renderTextMode(context)}
      <a class="to-top" href="#top">Back to top</a>
    </div>
    <div class="toolbar-row">
      ${renderSearch()}
      <label class="only-matching" data-js hidden>
        <input type="checkbox" id="only-matching" /> Only matching lines
      </label>
    </div>
    ${renderFilters(view, index)}
  </div>`;
}

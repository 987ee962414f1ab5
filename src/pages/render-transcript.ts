import { formatOffset, INSIGHT_GROUPS, type PageMessage, type PageView } from "./view-model.ts";
import { html, raw, type Raw } from "./escape.ts";

// The transcript column: filter chips, search and the lines. A long meeting has thousands of lines, so a
// line carries only what the script needs to filter, search and seek (docs/PAGES.md).

/** Which topics and which insight types rest on each line, for the filter chips. */
function indexByMessage(view: PageView) {
  const topicsByMessage = new Map<string, string[]>();
  for (const topic of view.topics) {
    for (const id of topic.messageIds)
      topicsByMessage.set(id, [...(topicsByMessage.get(id) ?? []), topic.id]);
  }
  const insightsByMessage = new Map<string, Set<string>>();
  for (const insight of view.insights) {
    for (const id of insight.messageIds) {
      const types = insightsByMessage.get(id) ?? new Set<string>();
      types.add(insight.type);
      insightsByMessage.set(id, types);
    }
  }
  return { topicsByMessage, insightsByMessage };
}

/** One transcript line. Kept lean (a long meeting has thousands): its edit controls are added by the script. */
function renderMessage(
  message: PageMessage,
  topicsByMessage: Map<string, string[]>,
  insightsByMessage: Map<string, Set<string>>,
  hasMedia: boolean,
): Raw {
  const offset = message.offset;
  const topics = topicsByMessage.get(message.id);
  const insights = insightsByMessage.get(message.id);
  const attributes = [
    offset !== null && ` data-offset="${offset}"`,
    topics && html` data-topics="${topics.join(" ")}"`.html,
    insights && html` data-insights="${[...insights].join(" ")}"`.html,
  ]
    .filter(Boolean)
    .join("");
  const time =
    offset === null
      ? ""
      : html` <a
          class="time"
          href="#m-${message.id}"
          ${raw(hasMedia ? ` aria-label="Play from ${formatOffset(offset)}"` : "")}
          >${formatOffset(offset)}</a
        >`;
  const speaker =
    message.speakerId === null
      ? html`<span class="speaker">${message.speakerName ?? "Unknown speaker"}</span>`
      : html`<span class="speaker" data-member-name="${message.speakerId}"
          >${message.speakerName ?? "Unknown speaker"}</span
        >`;
  const badge = message.hidden
    ? html` <span class="badge">Hidden from the API and read-only links</span>`
    : "";
  return html`<li class="line${message.hidden ? " is-hidden" : ""}" id="m-${message.id}" ${raw(attributes)}>
    <div class="line-head">${speaker}${time}${badge}</div>
    <p class="line-text">${message.text}</p>
  </li>`;
}

/** A filter chip: a topic by its id, or an insight type. */
function chip(kind: "topic" | "insight", value: string, label: string): Raw {
  // Verbatim, like renderPage's template: the formatter would join these lines.
  // prettier-ignore
  return html`<button
    type="button"
    class="chip chip-${kind}"
    data-filter="${kind}:${value}"
    aria-pressed="false"
  >
    ${label}
  </button>`;
}

/** The chips that highlight the lines of a topic or an insight type (shown by the script). */
function renderFilters(view: PageView, presentTypes: Set<string>): Raw {
  return html`<div class="filters" data-js hidden>
    <p class="filters-label" id="filters-label">Highlight lines about</p>
    <div class="chips" role="group" aria-labelledby="filters-label">
      ${INSIGHT_GROUPS.filter((g) => presentTypes.has(g.type)).map((g) => chip("insight", g.type, g.chip))}
      ${view.topics.map((t) => chip("topic", t.id, t.text))}
    </div>
    <p class="filter-count" role="status"></p>
  </div>`;
}

function renderSearch(): Raw {
  // prettier-ignore
  return html`<form class="search" role="search" data-js hidden>
    <label for="search-input">Search the transcript</label>
    <input id="search-input" type="search" autocomplete="off" />
    <span class="search-count" id="search-count" role="status" aria-live="polite"></span>
    <button type="button" class="control" data-action="search-prev" aria-label="Previous match">
      Previous
    </button>
    <button type="button" class="control" data-action="search-next" aria-label="Next match">
      Next
    </button>
  </form>`;
}

/** The transcript section; `hasMedia` makes each line's time a "play from here" control. */
export function renderTranscript(view: PageView, hasMedia: boolean): Raw {
  const { messages } = view;
  const { topicsByMessage, insightsByMessage } = indexByMessage(view);
  const presentTypes = new Set(view.insights.map((i) => i.type));
  return html`<section
    class="card col-transcript"
    id="transcript"
    aria-labelledby="transcript-heading"
    tabindex="-1"
  >
    <h2 id="transcript-heading">Transcript</h2>
    ${(view.topics.length > 0 || presentTypes.size > 0) && renderFilters(view, presentTypes)}
    ${renderSearch()}
    ${
      messages.length > 0
        ? html`<ol class="lines">
            ${messages.map((m) => renderMessage(m, topicsByMessage, insightsByMessage, hasMedia))}
          </ol>`
        : html`<p class="empty">This conversation has no messages.</p>`
    }
  </section>`;
}

import { html, raw, type Raw } from "../escape.ts";
import { formatOffset } from "../view-model.ts";
import { renderConsolePage, type ConsoleFrame } from "./layout.ts";
import type { ConsoleSearch } from "./view-model.ts";

const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

/** The console's page of a conversation, opened at a line: the line and those around it, marked. */
export const lineAddress = (conversationId: string, messageId: string) =>
  `/console/conversations/${conversationId}?line=${encodeURIComponent(messageId)}#m-${messageId}`;

/** The snippet is search-snippet.ts's HTML, never text from elsewhere: the line escaped, then the matched words in <mark>. */
const snippetOf = (hit: { snippet: string }): Raw => raw(hit.snippet);

function group({ conversation, hits }: ConsoleSearch["groups"][number]): Raw {
  return html`<section class="card wide search-group" aria-labelledby="c-${conversation.id}">
    <h2 id="c-${conversation.id}">
      <a href="/console/conversations/${conversation.id}">${conversation.name}</a>
    </h2>
    <p class="muted">
      <time datetime="${conversation.startTime}">${day.format(new Date(conversation.startTime))}</time> ·
      ${hits.length === 1 ? "1 line" : `${hits.length} lines`}
    </p>
    <ol class="hits">
      ${hits.map(
        (hit) =>
          html`<li>
            <a href="${lineAddress(conversation.id, hit.messageId)}">
              <span class="hit-who"
                >${hit.timeOffset !== null && html`<span class="hit-time">${formatOffset(hit.timeOffset)}</span> `}${
                  hit.speakerName ?? "Unknown speaker"
                }</span
              >
              <span class="snippet">${snippetOf(hit)}</span>
            </a>
          </li>`,
      )}
    </ol>
  </section>`;
}

/**
 * Search across the app's conversations: the box (GET /v1/search's language), then the hits grouped by
 * conversation, each opening the conversation's page at its line; a refused search shows the API's message.
 */
export function renderSearch(frame: ConsoleFrame, search: ConsoleSearch | null): string {
  const q = search?.q ?? "";
  const error = search?.error ?? null;
  const more =
    search?.nextCursor &&
    html`<nav class="pages" aria-label="Pages">
      <a rel="next" href="/console/search?${new URLSearchParams({ q, cursor: search.nextCursor }).toString()}"
        >More results</a
      >
    </nav>`;
  const results =
    search &&
    !error &&
    (search.groups.length === 0
      ? html`<p role="status">No line of your conversations matches “${q}”.</p>`
      : html`<p role="status" class="muted">
            Lines matching “${q}”, most relevant first, grouped by conversation.
          </p>
          ${search.groups.map(group)} ${more}`);
  return renderConsolePage({
    title: "Search",
    frame,
    body: html`<form method="get" action="/console/search" class="search" role="search">
        <label for="search">Search all conversations</label>
        <p class="field-hint" id="search-hint">
          Words (all must match), "a phrase", budg* for words starting so, OR between two, -word to leave one
          out.
        </p>
        <input
          id="search"
          name="q"
          type="search"
          value="${q}"
          maxlength="500"
          aria-describedby="search-hint${error ? " search-error" : ""}"
          ${error ? html`aria-invalid="true"` : ""}
        />
        <button type="submit">Search</button>
        ${error && html`<p class="field-error" id="search-error" role="alert">${error}</p>`}
      </form>
      ${results}`,
  });
}

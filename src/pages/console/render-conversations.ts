import { html, type Raw } from "../escape.ts";
import { renderConsolePage, type ConsoleAssets } from "./layout.ts";
import type { ConversationListItem, ConversationListPage, JobState } from "./view-model.ts";

const started = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

const JOB_STATES: Record<JobState, string> = {
  scheduled: "Waiting",
  in_progress: "Processing",
  completed: "Completed",
  failed: "Failed",
};

const ANALYSED_BY = { llm: "Analysed (language model)", local: "Analysed (local)" };

function row(conversation: ConversationListItem): Raw {
  const { jobState } = conversation;
  return html`<tr>
    <th scope="row">${conversation.name}</th>
    <td>
      <time datetime="${conversation.startTime}" data-local="date-time"
        >${started.format(new Date(conversation.startTime))} UTC</time
      >
    </td>
    <td>${conversation.memberNames.join(", ") || "None yet"}</td>
    <td>
      <span class="state state-${jobState ?? "none"}">${jobState ? JOB_STATES[jobState] : "No job"}</span>
    </td>
    <td>${conversation.analysedBy ? ANALYSED_BY[conversation.analysedBy] : "Not analysed yet"}</td>
    <td class="row-actions">
      <a
        href="/console/conversations/${conversation.id}/links/new"
        aria-label="Create a link to ${conversation.name}"
        >Create link</a
      >
      <a href="/console/conversations/${conversation.id}/delete" aria-label="Delete ${conversation.name}"
        >Delete</a
      >
    </td>
  </tr>`;
}

function pageLink(page: number, search: string, text: string, rel: string): Raw {
  const query = new URLSearchParams({ ...(search && { q: search }), page: String(page) });
  return html`<a rel="${rel}" href="/console/conversations?${query.toString()}">${text}</a>`;
}

/** The app's conversations, newest first, with a search by name and previous/next pages. */
export function renderConversations(
  assets: ConsoleAssets,
  listed: ConversationListPage,
  search: string,
): string {
  const table = html`<table class="conversations">
    <caption class="visually-hidden">
      Conversations, newest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">Started</th>
        <th scope="col">Members</th>
        <th scope="col">Job</th>
        <th scope="col">Analysis</th>
        <th scope="col"><span class="visually-hidden">Actions</span></th>
      </tr>
    </thead>
    <tbody>
      ${listed.conversations.map(row)}
    </tbody>
  </table>`;
  const empty = search
    ? html`<p>No conversation's name contains “${search}”.</p>`
    : html`<p>No conversations yet. <a href="/console/import">Import a transcript</a>.</p>`;
  return renderConsolePage({
    title: "Conversations",
    assets,
    signedIn: true,
    body: html`<form method="get" action="/console/conversations" class="search" role="search">
        <label for="search">Search by name</label>
        <input id="search" name="q" type="search" value="${search}" maxlength="200" />
        <button type="submit">Search</button>
      </form>
      ${listed.conversations.length > 0 ? table : empty}
      <nav class="pages" aria-label="Pages">
        ${listed.page > 1 && pageLink(listed.page - 1, search, "Newer", "prev")}
        ${listed.hasNext && pageLink(listed.page + 1, search, "Older", "next")}
      </nav>`,
  });
}

/** Asks before deleting: a form of its own, so it works without the script. */
export function renderDeleteConfirmation(
  assets: ConsoleAssets,
  conversation: { id: string; name: string },
): string {
  return renderConsolePage({
    title: "Delete this conversation?",
    assets,
    signedIn: true,
    body: html`<div class="card">
      <p>
        “<strong>${conversation.name}</strong>” will be deleted with its messages, its analysis and every
        summary link to it. This cannot be undone.
      </p>
      <form method="post" action="/console/conversations/${conversation.id}/delete" class="actions">
        <button type="submit" class="danger">Delete</button>
        <a href="/console/conversations">Cancel</a>
      </form>
    </div>`,
  });
}

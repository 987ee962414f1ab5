import { html, type Raw } from "../escape.ts";
import { isUnnamedSpeaker } from "../../media/align.ts";
import { formatOffset } from "../view-model.ts";
import { renderConsolePage, type ConsoleFrame } from "./layout.ts";
import { linksTable } from "./render-links.ts";
import type {
  ConsoleLine,
  ConversationListItem,
  ConversationListPage,
  ConversationOverview,
  JobState,
  VoiceSaveResult,
  ConsoleMember,
} from "./view-model.ts";

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

/** A cell a phone leaves out (the conversation's own page shows it), so the row's actions stay on the screen. */
const WIDE = html`class="wide-only"`;

const startedAt = (iso: string): Raw =>
  html`<time datetime="${iso}" data-local="date-time">${started.format(new Date(iso))} UTC</time>`;
/** The latest job's state; a failed one says why (`Failed: no speech was recognised in the media`). */
const jobBadge = (jobState: JobState | null, jobMessage: string | null): Raw =>
  html`<span class="state state-${jobState ?? "none"}"
    >${jobState ? JOB_STATES[jobState] : "No job"}${
      jobState === "failed" && jobMessage !== null && `: ${jobMessage}`
    }</span
  >`;
/**
 * Who speaks: the members, as GET …/members lists them, and "Unknown speaker" for lines that name no one, as the
 * page labels them (a recording transcribed without diarization or channel names has no member).
 */
const speakers = ({ memberNames, unnamedSpeaker }: { memberNames: string[]; unnamedSpeaker: boolean }) =>
  [...memberNames, ...(unnamedSpeaker ? ["Unknown speaker"] : [])].join(", ") || "None yet";
const analysis = (analysedBy: ConversationListItem["analysedBy"]) =>
  analysedBy ? ANALYSED_BY[analysedBy] : "Not analysed yet";

function row(conversation: ConversationListItem): Raw {
  return html`<tr>
    <th scope="row"><a href="/console/conversations/${conversation.id}">${conversation.name}</a></th>
    <td ${WIDE}>${startedAt(conversation.startTime)}</td>
    <td ${WIDE}>${speakers(conversation)}</td>
    <td>${jobBadge(conversation.jobState, conversation.jobMessage)}</td>
    <td ${WIDE}>${analysis(conversation.analysedBy)}</td>
    <td class="row-actions">
      <a href="/console/conversations/${conversation.id}/links/new"
        >Create link<span class="visually-hidden"> to ${conversation.name}</span></a
      >
      <a href="/console/conversations/${conversation.id}/delete"
        >Delete<span class="visually-hidden"> ${conversation.name}</span></a
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
  frame: ConsoleFrame,
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
        <th scope="col" ${WIDE}>Started</th>
        <th scope="col" ${WIDE}>Members</th>
        <th scope="col">Job</th>
        <th scope="col" ${WIDE}>Analysis</th>
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
    frame,
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
  frame: ConsoleFrame,
  conversation: { id: string; name: string },
): string {
  return renderConsolePage({
    title: "Delete this conversation?",
    frame,
    body: html`<div class="card">
      <p>
        “<strong>${conversation.name}</strong>” will be deleted with its messages, its analysis and every
        summary link to it. This cannot be undone.
      </p>
      <form method="post" action="/console/conversations/${conversation.id}/delete" class="actions">
        <button type="submit" class="danger">Delete</button>
        <a href="/console/conversations/${conversation.id}">Cancel</a>
      </form>
    </div>`,
  });
}

/** What a voice action just did, naming the member: saved, refined, confirmed, undone, or the API's refusal. */
function voiceSaved(result: VoiceSaveResult, overview: ConversationOverview): Raw {
  const name = overview.members.find((member) => member.id === result.memberId)?.name ?? "this member";
  if (result.outcome === "refused") {
    return html`<p class="notice refused" role="alert">
      The voice of ${name} was not changed: ${result.message}
    </p>`;
  }
  if (result.outcome === "undone") {
    return html`<p class="notice" role="status">
      ${name} is no longer named by voice, and that voice will not be suggested for them again.
    </p>`;
  }
  const did = {
    saved: `Saved the voice of ${name}.`,
    refined: `Refined the voice of ${name}.`,
    confirmed: `Confirmed: ${name}. The voice learned from this recording.`,
  }[result.outcome];
  return html`<p class="notice" role="status">
    ${did} <a href="/console/voices/${result.voiceId ?? ""}">See the voice</a>
  </p>`;
}

/** A form of one button posting the member's id (and more `fields`) to one of the conversation's voice actions. */
function memberAction(
  overview: ConversationOverview,
  member: ConsoleMember,
  action: string,
  label: Raw,
  fields: Record<string, string> = {},
): Raw {
  return html`<form
    method="post"
    action="/console/conversations/${overview.id}/voices${action}"
    class="voice-action"
  >
    <input type="hidden" name="memberId" value="${member.id}" />
    ${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}
    <button type="submit" class="plain">${label}</button>
  </form>`;
}

const score = (value: number) => value.toFixed(2);

/**
 * The members: one a voice named is marked so, with a way to undo it; one a voice only sounds like says whose, with
 * ways to confirm or reject it; and where voices can be saved, each named member has "Save this voice".
 */
function membersWithVoices(overview: ConversationOverview): Raw {
  return html`<ul class="members">
    ${overview.members.map(
      (member) =>
        html`<li>
          <span class="member-name">${member.name}</span>
          ${
            member.voice &&
            html`<span class="voice-mark" title="raw cosine similarity ${score(member.voice.score)}"
                >named by voice</span
              >
              ${memberAction(overview, member, "/undo", html`Not ${member.name}? Undo<span class="visually-hidden"> the voice's name</span>`)}`
          }
          ${
            member.suggestedVoice &&
            html`<span
                class="voice-mark suggested"
                title="raw cosine similarity ${score(member.suggestedVoice.score)}"
                >sounds like ${member.suggestedVoice.name}</span
              >
              ${memberAction(
                overview,
                member,
                "/confirm",
                html`Yes, ${member.suggestedVoice.name}<span class="visually-hidden">
                    is ${member.name}</span
                  >`,
                { voiceId: member.suggestedVoice.id },
              )}
              ${memberAction(overview, member, "/undo", html`No<span class="visually-hidden">, ${member.name} is not ${member.suggestedVoice.name}</span>`)}`
          }
          ${
            overview.voicesSavable &&
            !isUnnamedSpeaker(member.name) &&
            memberAction(
              overview,
              member,
              "",
              html`Save this voice<span class="visually-hidden"> of ${member.name}</span>`,
            )
          }
        </li>`,
    )}
    ${overview.unnamedSpeaker && html`<li>Unknown speaker</li>`}
  </ul>`;
}

/** The line a search hit opened the page at, marked, with the lines around it, each at its own anchor. */
function excerpt(lines: ConsoleLine[]): Raw {
  return html`<section class="card wide" aria-labelledby="excerpt-heading">
    <h2 id="excerpt-heading">From the transcript</h2>
    <ol class="excerpt">
      ${lines.map(
        (line) =>
          html`<li id="m-${line.id}" ${line.current ? html`class="current" aria-current="true"` : ""}>
            <span class="hit-who"
              >${line.offset !== null && html`<span class="hit-time">${formatOffset(line.offset)}</span> `}${
                line.speakerName ?? "Unknown speaker"
              }</span
            >
            <span>${line.text}</span>
          </li>`,
      )}
    </ol>
  </section>`;
}

/**
 * One conversation: when and who, where its job and analysis stand, what the analysis found (summary,
 * topics, how many insights), and its links, with the ways to create one and to delete the conversation; opened
 * from a search hit, the hit's line among the lines around it first. Where voices can be saved, each
 * named member has "Save this voice"; `saved` is what saving one just did.
 */
export function renderConversation(
  frame: ConsoleFrame,
  overview: ConversationOverview,
  saved?: VoiceSaveResult,
): string {
  const base = `/console/conversations/${overview.id}`;
  const analysed = overview.analysedBy !== null;
  const voiced = overview.members.some((member) => member.voice || member.suggestedVoice);
  const members =
    (overview.voicesSavable || voiced) && overview.members.length > 0
      ? membersWithVoices(overview)
      : speakers(overview);
  const found = html`${
      overview.summary.length > 0 &&
      html`<h3>Summary</h3>
        <ul class="summary">
          ${overview.summary.map((item) => html`<li>${item}</li>`)}
        </ul>`
    }
    ${
      overview.topics.length > 0 &&
      html`<h3>Topics</h3>
        <ul class="chips">
          ${overview.topics.map((topic) => html`<li>${topic}</li>`)}
        </ul>`
    }
    <p>${overview.insightCounts.map(({ label, count }) => `${label}: ${count}`).join(" · ")}</p>`;
  return renderConsolePage({
    title: overview.name,
    frame,
    body: html`${saved && voiceSaved(saved, overview)}
      <div class="actions page-actions">
        <a class="button" href="${base}/links/new">Create link</a>
        <a href="${base}/delete">Delete this conversation…</a>
      </div>
      ${overview.excerpt && excerpt(overview.excerpt)}
      <div class="card wide">
        <dl class="facts">
          <dt>Started</dt>
          <dd>${startedAt(overview.startTime)}</dd>
          <dt>Members</dt>
          <dd>${members}</dd>
          <dt>Lines</dt>
          <dd>${overview.lineCount.toLocaleString("en-GB")}</dd>
          <dt>Job</dt>
          <dd>${jobBadge(overview.jobState, overview.jobMessage)}</dd>
          <dt>Analysis</dt>
          <dd>${analysis(overview.analysedBy)}</dd>
        </dl>
      </div>
      <section class="card wide" aria-labelledby="analysis-heading">
        <h2 id="analysis-heading">What the analysis found</h2>
        ${
          analysed
            ? found
            : overview.jobState === "failed"
              ? html`<p>Not analysed: its job failed (${overview.jobMessage ?? "see the job"}).</p>`
              : html`<p>Not analysed yet: the summary appears here when its job has completed.</p>`
        }
      </section>
      <section aria-labelledby="links-heading">
        <h2 id="links-heading">Links (${overview.links.length})</h2>
        ${
          overview.links.length > 0
            ? linksTable(overview.links, false)
            : html`<p>No links to this conversation yet. <a href="${base}/links/new">Create one</a>.</p>`
        }
      </section>
      <p><a href="/console/conversations">Back to the conversations</a></p>`,
  });
}

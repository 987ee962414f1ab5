import { html, raw, safeHttpUrl, safeMediaUrl, type Raw } from "./escape.ts";
import { initials } from "./initials.ts";
import { talkShare } from "./talk-share.ts";
import { editButton, gotoLink, memberName } from "./render-parts.ts";
import type { TranscriptParts } from "./transcript-parts.ts";
import {
  formatOffset,
  formatShare,
  INSIGHT_GROUPS,
  noSummary,
  TOP_INSIGHTS,
  type PageAttendee,
  type PageInsight,
  type PageTopic,
  type PageView,
} from "./view-model.ts";

// The overview column: the media, attendees, summary, insights and topics sections, each a function of
// the view (and of whether the link may edit).

/** Sound files by their extension: given as a video's URL they still play as audio, not as a black box. */
const SOUND_FILE = /\.(?:aac|flac|m4a|mp3|oga|ogg|opus|wav|weba)$/i;

/** The element that plays a page's media: a video page's file plays as audio when it is a sound file. */
function playerTag(view: PageView, url: string | null): "video" | "audio" {
  const sound = url !== null && SOUND_FILE.test(new URL(url, "http://page.invalid").pathname);
  return view.kind === "video-summary" && !sound ? "video" : "audio";
}

/**
 * The conversation's recordings for the script to play as one timeline (page.ts), when there are several: each
 * one's URL and place in the transcript's time, as JSON in `data-recordings`.
 */
function recordingsAttribute(view: PageView): string {
  const recordings = view.recordings.filter((recording) => safeMediaUrl(recording.url) !== null);
  if (recordings.length < 2) return "";
  return html` data-recordings="${JSON.stringify(recordings)}"`.html;
}

/**
 * The player of a video or audio page, or a note when its media cannot play; nothing on a text page. Where
 * the media is sound only (an audio page, a sound file given as a video, or a video the script finds has no
 * picture), the script shows who is speaking beside it, as Symbl's player did; following playback is
 * offered only when the lines have times to follow.
 */
export function renderMedia(view: PageView): Raw | null {
  if (view.kind === "verbose-text-summary") return null;
  const url = safeMediaUrl(view.mediaUrl);
  const tag = playerTag(view, url);
  const timed = view.messages.some((m) => m.offset !== null);
  const placeholder = html`<p class="media-placeholder" ${url ? raw("hidden") : ""}>
    The ${tag === "video" ? "video" : "recording"} is not available. The summary and transcript are below.
  </p>`;
  return html`<section class="card media" aria-labelledby="media-heading">
    <h2 id="media-heading" class="visually-hidden">${tag === "video" ? "Video" : "Audio"}</h2>
    ${
      url &&
      raw(
        `<${tag} id="player" class="player" controls preload="metadata" playsinline src="${html`${url}`.html}"` +
          `${recordingsAttribute(view)}>Your browser cannot play this ${tag}.</${tag}>`,
      )
    }
    ${placeholder}
    ${
      url &&
      timed &&
      html`<div class="media-bar">
        <p class="now-speaking" hidden>
          <span class="avatar avatar-initials" aria-hidden="true"></span>
          <span class="now-speaking-text"
            ><span class="now-speaking-label">Now speaking: </span
            ><strong class="now-speaking-name" dir="auto"></strong
          ></span>
        </p>
        <div class="follow" data-js hidden>
          <button type="button" class="control" id="follow-toggle" aria-pressed="true">
            Following playback
          </button>
        </div>
      </div>`
    }
  </section>`;
}

function renderAttendee(attendee: PageAttendee, share: number | undefined, editable: boolean): Raw {
  const avatar = safeHttpUrl(attendee.avatarUrl);
  return html`<li class="attendee" data-member-id="${attendee.id}">
    ${
      avatar
        ? html`<img class="avatar" src="${avatar}" alt="" width="32" height="32" loading="lazy" />`
        : html`<span class="avatar avatar-initials" aria-hidden="true">${initials(attendee.name)}</span>`
    }
    <span class="attendee-name" data-member-name="${attendee.id}" dir="auto">${attendee.name}</span>
    ${
      share !== undefined &&
      html`<span class="talk-share">${formatShare(share)}</span>
        <meter class="talk-bar" min="0" max="1" value="${share.toFixed(3)}" aria-hidden="true"></meter>`
    }
    ${editable && editButton("rename-member", `Rename speaker ${attendee.name}`, "Rename")}
  </li>`;
}

/** The attendees, each in their colour (theme.ts) with their share of the talk, by time or by words. */
export function renderAttendees(view: PageView, editable: boolean): Raw {
  const { by, shares } = talkShare(view.messages.filter((m) => !m.hidden));
  return html`<section class="card" id="attendees" aria-labelledby="attendees-heading">
    <h2 id="attendees-heading">Attendees</h2>
    ${
      view.attendees.length > 0
        ? html`${
              shares.size > 0 &&
              html`<p class="talk-note">
                Share of the talk, by ${by === "time" ? "speaking time" : "words"}
              </p>`
            }
            <ul class="attendees">
              ${view.attendees.map((a) => renderAttendee(a, shares.get(a.id), editable))}
            </ul>`
        : html`<p class="empty">
            ${view.live ? "Attendees are listed when the meeting ends." : "No attendees were recorded."}
          </p>`
    }
  </section>`;
}

/** The decisions, first in the summary: each a sentence that states one, linked to its line. */
function renderDecisions(view: PageView, parts: TranscriptParts): Raw | null {
  if (view.decisions.length === 0) return null;
  return html`<div class="decisions">
    <h3 id="decisions-heading">Decisions</h3>
    <ul aria-labelledby="decisions-heading">
      ${view.decisions.map((item) => html`<li>${gotoLink(item.messageIds, parts, item.text)}</li>`)}
    </ul>
  </div>`;
}

export function renderSummary(view: PageView, parts: TranscriptParts): Raw {
  return html`<section class="card" id="summary" aria-labelledby="summary-heading">
    <h2 id="summary-heading">Summary</h2>
    ${renderDecisions(view, parts)}
    ${
      view.summary.length > 0
        ? html`<div class="summary">
            ${view.summary.map((item) => html`<p>${gotoLink(item.messageIds, parts, item.text)}</p>`)}
          </div>`
        : html`<p class="empty">${noSummary(view)}</p>`
    }
  </section>`;
}

const dueTimeFormat = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/**
 * A deadline: a day (the analysis gives a day as its 00:00 UTC) as that date, which no time zone moves; a
 * stated time of day as that instant in UTC, which the script writes in the viewer's zone.
 */
function renderDue(dueBy: string): Raw {
  const day = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.0+)?Z$/.exec(dueBy)?.[1];
  if (day !== undefined) return html`<time datetime="${day}">${day}</time>`;
  const when = new Date(dueBy);
  if (Number.isNaN(when.getTime())) return html`${dueBy}`;
  return html`<time datetime="${dueBy}" data-local="date-time">${dueTimeFormat.format(when)} UTC</time>`;
}

function renderInsight(
  insight: PageInsight,
  parts: TranscriptParts,
  editable: boolean,
  dismissed = false,
): Raw {
  const details = [
    insight.speakerName !== null &&
      html`<span>said by ${memberName(insight.speakerId, insight.speakerName)}</span>`,
    insight.assigneeName !== null &&
      html`<span>for ${memberName(insight.assigneeId, insight.assigneeName)}</span>`,
    insight.dueBy !== null && html`<span>due ${renderDue(insight.dueBy)}</span>`,
  ].filter(Boolean);
  return html`<li class="insight" id="i-${insight.id}" data-insight-id="${insight.id}">
    ${gotoLink(insight.messageIds, parts, insight.text)}
    ${details.length > 0 && html`<span class="item-meta">${details}</span>`}
    ${
      editable &&
      html`<span class="controls">
        ${
          dismissed
            ? editButton("restore-insight", "Restore this insight", "Restore")
            : html`${editButton("edit-insight", "Edit this insight")}
              ${editButton("dismiss-insight", "Dismiss this insight", "Dismiss")}`
        }
      </span>`
    }
  </li>`;
}

/**
 * One type's insights: the first few, the rest behind "Show all" (a <details>, so it opens without the
 * script), and on an editable link the dismissed ones, to restore.
 */
function renderInsightGroup(
  group: (typeof INSIGHT_GROUPS)[number],
  view: PageView,
  parts: TranscriptParts,
  editable: boolean,
): Raw {
  const items = view.insights.filter((i) => i.type === group.type);
  const dismissed = editable ? view.dismissedInsights.filter((i) => i.type === group.type) : [];
  const list = (insights: PageInsight[]) =>
    html`<ul class="items">
      ${insights.map((i) => renderInsight(i, parts, editable))}
    </ul>`;
  return html`<div class="insight-group" id="${group.anchor}" data-group="${group.type}">
    <h3>${group.label}</h3>
    ${items.length === 0 && html`<p class="empty">No ${group.label.toLowerCase()} were found.</p>`}
    ${items.length > 0 && list(items.slice(0, TOP_INSIGHTS))}
    ${
      items.length > TOP_INSIGHTS &&
      html`<details class="more">
        <summary class="control">Show all <span class="count">(${items.length})</span></summary>
        ${list(items.slice(TOP_INSIGHTS))}
      </details>`
    }
    ${
      editable &&
      html`<details class="dismissed" ${dismissed.length === 0 ? raw("hidden") : ""}>
        <summary class="control">Dismissed <span class="count">(${dismissed.length})</span></summary>
        <ul class="items">
          ${dismissed.map((i) => renderInsight(i, parts, editable, true))}
        </ul>
      </details>`
    }
  </div>`;
}

export function renderInsights(view: PageView, parts: TranscriptParts, editable: boolean): Raw {
  const any = view.insights.length > 0 || (editable && view.dismissedInsights.length > 0);
  return html`<section class="card" id="insights" aria-labelledby="insights-heading">
    <h2 id="insights-heading">Insights</h2>
    ${
      !any &&
      html`<p class="empty">
        ${view.live ? "Action items, follow-ups and questions come when the meeting ends." : "No action items, follow-ups or questions were found."}
      </p>`
    }
    ${any && INSIGHT_GROUPS.map((group) => renderInsightGroup(group, view, parts, editable))}
  </section>`;
}

function renderChapter(chapter: PageTopic, parts: TranscriptParts): Raw {
  const details = [
    chapter.offset !== null &&
      html`<span
        >starts at
        <time datetime="PT${Math.floor(chapter.offset)}S">${formatOffset(chapter.offset)}</time></span
      >`,
    chapter.share !== null && html`<span>${formatShare(chapter.share)} of the meeting</span>`,
  ].filter(Boolean);
  return html`<li class="chapter">
    ${gotoLink(chapter.messageIds, parts, chapter.text)}
    ${details.length > 0 && html`<span class="item-meta">${details}</span>`}
  </li>`;
}

/** The chapters in order (start, share, link to the first line), then the key phrases. */
export function renderTopics(view: PageView, parts: TranscriptParts): Raw {
  const chapters = view.topics.filter((t) => t.kind === "chapter");
  const phrases = view.topics.filter((t) => t.kind === "phrase");
  return html`<section class="card" id="topics" aria-labelledby="topics-heading">
    <h2 id="topics-heading">Topics</h2>
    ${
      chapters.length > 0 &&
      html`<h3 id="chapters-heading">Chapters</h3>
        <ol class="items chapters" aria-labelledby="chapters-heading">
          ${chapters.map((c) => renderChapter(c, parts))}
        </ol>`
    }
    ${
      phrases.length > 0 &&
      html`${chapters.length > 0 && html`<h3 id="phrases-heading">Key phrases</h3>`}
        <ul class="items topics" ${chapters.length > 0 ? raw(`aria-labelledby="phrases-heading"`) : ""}>
          ${phrases.map((t) => html`<li>${gotoLink(t.messageIds, parts, t.text)}</li>`)}
        </ul>`
    }
    ${
      view.topics.length === 0 &&
      html`<p class="empty">${view.live ? "Topics come when the meeting ends." : "No topics were found."}</p>`
    }
  </section>`;
}

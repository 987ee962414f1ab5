import { speakerAnalytics, type SpeakerAnalytics } from "../analysis/speaker-analytics.ts";
import {
  countedLines,
  Placements,
  timelineOf,
  trackerSummaries,
  type Timeline,
  type TrackerSummary,
} from "./analytics-timeline.ts";
import { html, type Raw } from "./escape.ts";
import { renderMedia } from "./render-overview.ts";
import { gotoLink, lineLinkAttributes } from "./render-parts.ts";
import { renderTranscript } from "./render-transcript.ts";
import type { TranscriptParts } from "./transcript-parts.ts";
import {
  durationSeconds,
  formatDuration,
  formatOffset,
  formatShare,
  type PageContext,
  type PageView,
} from "./view-model.ts";

// The audio-summary page, Symbl's "Trackers & Analytics" view: the player, who spoke when, talk-time
// shares and pace, tracker hits and the transcript (docs/PAGES.md).

/** A link that jumps to a line and plays from its time (the script's data-goto and data-seek). */
function seekLink(
  parts: TranscriptParts,
  messageId: string,
  seconds: number,
  className: string,
  content: Raw | string,
): Raw {
  return html`<a class="${className}" ${lineLinkAttributes(messageId, parts, seconds)}>${content}</a>`;
}

function renderTimeline(
  timeline: Timeline,
  trackers: TrackerSummary[],
  at: Placements,
  parts: TranscriptParts,
): Raw {
  const span = (start: number, end: number) => `${formatOffset(start)} to ${formatOffset(end)}`;
  // A speaker's lane carries data-member-id, which gives it the speaker's colour (theme.ts).
  const row = (id: string, label: string, items: Raw[], memberId = "") =>
    html`<div class="tl-row" ${memberId && html`data-member-id="${memberId}"`}>
      <span class="tl-label" id="${id}" dir="auto">${label}</span>
      <ol class="tl-track" aria-labelledby="${id}">
        ${items}
      </ol>
    </div>`;
  const hidden = (text: string) => html`<span class="visually-hidden">${text}</span>`;
  // A link placed along its row: a band from start to end, or (end null) a marker at start.
  const placed = (messageId: string, start: number, end: number | null, linkClass: string, content: Raw) =>
    html`<li class="tl-item ${end === null ? "tl-marker " : ""}${at.place(start, end ?? undefined)}">
      ${seekLink(parts, messageId, start, linkClass, content)}
    </li>`;
  const hits = trackers.flatMap((t) =>
    t.hits.flatMap((hit) => (hit.offset === null ? [] : [{ ...hit, offset: hit.offset }])),
  );
  const seconds = [0, 0.25, 0.5, 0.75, 1].map((share) => share * timeline.span);
  return html`<div class="timeline">
      ${
        timeline.chapters.length > 0 &&
        row(
          "tl-chapters",
          "Chapters",
          timeline.chapters.map((c) =>
            placed(
              c.messageId,
              c.start,
              c.end,
              "tl-chapter",
              html`${c.text}${hidden(`, from ${formatOffset(c.start)}`)}`,
            ),
          ),
        )
      }
      ${timeline.lanes.map((lane, i) =>
        row(
          `tl-lane-${i}`,
          lane.name,
          lane.segments.map((s) =>
            placed(s.messageId, s.start, s.end, "tl-segment", hidden(span(s.start, s.end))),
          ),
          lane.id,
        ),
      )}
      ${
        hits.length > 0 &&
        row(
          "tl-trackers",
          "Trackers",
          hits.map((hit) =>
            placed(
              hit.messageId,
              hit.offset,
              null,
              "tl-hit",
              hidden(`${hit.tracker} at ${formatOffset(hit.offset)}`),
            ),
          ),
        )
      }
      <div class="tl-row tl-axis" aria-hidden="true">
        <span class="tl-label"></span>
        <div class="tl-track">
          ${seconds.map((s, i) => html`<span class="tl-tick tl-tick-${i}">${formatOffset(s)}</span>`)}
        </div>
      </div>
    </div>
    <details class="tl-table">
      <summary>The timeline as a table</summary>
      <table>
        <caption class="visually-hidden">
          Who spoke when
        </caption>
        <thead>
          <tr>
            <th scope="col">Speaker</th>
            <th scope="col">Start</th>
            <th scope="col">End</th>
          </tr>
        </thead>
        <tbody>
          ${timeline.lanes
            .flatMap((lane) => lane.segments.map((segment) => ({ lane, segment })))
            .sort((a, b) => a.segment.start - b.segment.start)
            .map(
              ({ lane, segment }) =>
                html`<tr>
                  <th scope="row" dir="auto">${lane.name}</th>
                  <td>
                    ${seekLink(parts, segment.messageId, segment.start, "goto", formatOffset(segment.start))}
                  </td>
                  <td>${formatOffset(segment.end)}</td>
                </tr>`,
            )}
        </tbody>
      </table>
    </details>`;
}

function renderWhoSpokeWhen(
  timeline: Timeline | null,
  trackers: TrackerSummary[],
  at: Placements,
  parts: TranscriptParts,
): Raw {
  return html`<section class="card analytics-timeline" id="timeline" aria-labelledby="timeline-heading">
    <h2 id="timeline-heading">Who spoke when</h2>
    ${
      timeline
        ? html`<p class="hint">One lane per speaker; choose a stretch of talk to play from there.</p>
            ${renderTimeline(timeline, trackers, at, parts)}`
        : html`<p class="empty">This conversation's lines have no times, so there is no timeline.</p>`
    }
  </section>`;
}

/** Talk time, its share and words per minute per speaker; word shares when the lines have no times. */
function renderSpeakers(analytics: SpeakerAnalytics, at: Placements): Raw {
  const timed = analytics.metrics.length > 0;
  const words = analytics.members.reduce((sum, m) => sum + m.words, 0);
  const metric = (type: string) => analytics.metrics.find((m) => m.type === type);
  const share = (value: number) =>
    html`<span class="share-value">${formatShare(value)}</span
      ><span class="share-bar" aria-hidden="true"><span class="${at.bar(value)}"></span></span>`;
  const rows = analytics.members.map((m) => {
    const talk = m.talkTime;
    return html`<tr data-member-id="${m.id}">
      <th scope="row" dir="auto">${m.name}</th>
      ${
        timed
          ? html`<td>${talk ? formatDuration(talk.seconds) : "–"}</td>
              <td class="share-cell">${talk ? share(talk.percentage / 100) : "–"}</td>
              <td>${m.pace ? m.pace.wpm : "–"}</td>`
          : ""
      }
      <td>${m.words}</td>
      ${!timed && html`<td class="share-cell">${share(words > 0 ? m.words / words : 0)}</td>`}
    </tr>`;
  });
  const totals = (["total_talk_time", "total_silence", "total_overlap"] as const).flatMap((type) => {
    const found = metric(type);
    const label = { total_talk_time: "Talk", total_silence: "Silence", total_overlap: "Overlap" }[type];
    return found
      ? [
          html`<div>
            <dt>${label}</dt>
            <dd>${formatDuration(found.seconds)}</dd>
          </div>`,
        ]
      : [];
  });
  return html`<section class="card analytics-speakers" id="talk-time" aria-labelledby="speakers-heading">
    <h2 id="speakers-heading">Talk time</h2>
    ${
      !timed &&
      html`<p class="empty">
        Talk time needs each line's start and end; each speaker's share of the words is shown instead.
      </p>`
    }
    ${totals.length > 0 && html`<dl class="totals">${totals}</dl>`}
    <table>
      <thead>
        <tr>
          <th scope="col">Speaker</th>
          ${
            timed
              ? html`<th scope="col">Talk time</th>
                  <th scope="col">Share</th>
                  <th scope="col">Words per minute</th>`
              : ""
          }
          <th scope="col">Words</th>
          ${!timed && html`<th scope="col">Share of words</th>`}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </section>`;
}

/** How much of a line a tracker hit quotes: the link jumps to the whole line. */
const QUOTE_LENGTH = 120;

function renderTrackers(view: PageView, trackers: TrackerSummary[], parts: TranscriptParts): Raw {
  const lineLabel = (id: string) => {
    const line = parts.message(id);
    const time = line?.offset == null ? "" : `${formatOffset(line.offset)} · `;
    const text = line?.text ?? "";
    const quoted = text.length > QUOTE_LENGTH ? `${text.slice(0, QUOTE_LENGTH).trimEnd()}…` : text;
    return `${time}${line?.speakerName ?? "Unknown speaker"}: ${quoted}`;
  };
  const body =
    view.trackers.length === 0
      ? html`<p class="empty">This app has no trackers.</p>`
      : trackers.length === 0
        ? html`<p class="empty">None of the app's trackers is mentioned.</p>`
        : html`<ul class="items">
            ${trackers.map(
              (t) =>
                html`<li>
                  <h3>
                    <bdi>${t.name}</bdi>
                    <span class="count">(${t.hits.length} ${t.hits.length === 1 ? "line" : "lines"})</span>
                  </h3>
                  <p class="item-meta">${t.phrases.join(", ")}</p>
                  <ul class="hit-lines">
                    ${t.hits.map((hit) => html`<li>${gotoLink([hit.messageId], parts, lineLabel(hit.messageId))}</li>`)}
                  </ul>
                </li>`,
            )}
          </ul>`;
  return html`<section class="card analytics-trackers" id="trackers" aria-labelledby="trackers-heading">
    <h2 id="trackers-heading">Trackers</h2>
    ${body}
  </section>`;
}

/** The phone bar's links to the analytics page's sections. */
const ANALYTICS_JUMPS: [string, string][] = [
  ["#timeline", "Timeline"],
  ["#talk-time", "Talk time"],
  ["#trackers", "Trackers"],
  ["#transcript", "Transcript"],
];

/**
 * The analytics page's main content, the rules that place its timeline (for the nonce'd <style>) and the
 * phone bar's links to its sections.
 */
export function renderAnalytics(
  view: PageView,
  context: PageContext,
  parts: TranscriptParts,
  hasMedia: boolean,
): { main: Raw; css: string; jumps: [string, string][] } {
  const timeline = timelineOf(view);
  const at = new Placements(timeline?.span ?? 1);
  const analytics = speakerAnalytics({
    members: view.attendees.map(({ id, name }) => ({ id, name })),
    lines: countedLines(view).map((m) => ({
      id: m.id,
      memberId: m.speakerId,
      text: m.text,
      start: m.offset,
      end: m.endOffset,
    })),
    conversationEnd: durationSeconds(view),
  });
  const trackers = trackerSummaries(view);
  // prettier-ignore
  const main = html`<div class="analytics">
    ${renderMedia(view)}
    ${renderWhoSpokeWhen(timeline, trackers, at, parts)}
    <div class="analytics-columns">
      <div class="analytics-figures">
        ${renderSpeakers(analytics, at)}
        ${renderTrackers(view, trackers, parts)}
      </div>
      ${renderTranscript(view, context, parts, hasMedia)}
    </div>
  </div>`;
  return { main, css: at.rules.join(""), jumps: ANALYTICS_JUMPS };
}

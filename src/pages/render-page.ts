import { html, raw, safeHttpUrl, safeMediaUrl, type Raw } from "./escape.ts";
import { renderAnalytics } from "./render-analytics.ts";
import {
  renderAttendees,
  renderInsights,
  renderMedia,
  renderSummary,
  renderTopics,
} from "./render-overview.ts";
import { editButton } from "./render-parts.ts";
import { renderTranscript } from "./render-transcript.ts";
import { themeCss } from "./theme.ts";
import {
  formatDuration,
  knownDuration,
  pageLanguage,
  type PageContext,
  type PageView,
  withoutHiddenLines,
} from "./view-model.ts";

/** The head tags every Recap page starts with: the link is a credential, so no indexing and no referrer. */
export const PAGE_HEAD_META = html`<meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <meta name="robots" content="noindex, nofollow" />
  <meta name="referrer" content="no-referrer" />`;

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });
const timeFormat = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

/** `extraCss`: the analytics page's placements of its timeline (render-analytics.ts). */
function renderHead(view: PageView, context: PageContext, extraCss = ""): Raw {
  const favicon = safeHttpUrl(view.branding.favicon);
  return html`<head>
    ${PAGE_HEAD_META}
    <title>${view.title} · Summary</title>
    ${favicon && html`<link rel="icon" href="${favicon}" />`}
    ${context.stylesheetUrl && html`<link rel="stylesheet" href="${context.stylesheetUrl}" />`}
    ${context.fontStylesheetUrl && html`<link rel="stylesheet" href="${context.fontStylesheetUrl}" />`}
    <style nonce="${context.styleNonce}">
      ${raw(themeCss(view) + extraCss)}
    </style>
    ${context.scriptUrl && html`<script src="${context.scriptUrl}" defer></script>`}
  </head>`;
}

/** The title, the date and length when the meeting's times give them, and the share buttons (shown by the script). */
function renderHeader(view: PageView, editable: boolean): Raw {
  const start = new Date(view.startTime);
  const dated = view.dated && !Number.isNaN(start.getTime());
  const duration = knownDuration(view);
  const logo = safeHttpUrl(view.branding.logo);
  const facts = [
    dated &&
      html`<time class="date" datetime="${view.startTime}" data-local="date"
        >${dateFormat.format(start)}</time
      >`,
    dated &&
      html`<time class="start" datetime="${view.startTime}" data-local="time"
        >${timeFormat.format(start)} UTC</time
      >`,
    duration !== null && html`<span class="duration">${formatDuration(duration)}</span>`,
  ].filter((fact): fact is Raw => fact !== false);
  return html`<header class="page-header">
    ${logo && html`<img class="logo" src="${logo}" alt="Logo" height="40" />`}
    <div class="heading">
      <h1 id="title"><span data-field="title" dir="auto">${view.title}</span></h1>
      ${editable && editButton("rename-conversation", "Rename this conversation", "Rename")}
      ${
        facts.length > 0 &&
        html`<p class="meta">
          ${facts.map((fact, i) => html`${i > 0 && html`<span aria-hidden="true">·</span>`}${fact}`)}
        </p>`
      }
    </div>
    ${
      !view.hideShareButton &&
      html`<div class="share" data-js hidden>
        <button type="button" class="control" data-action="copy-link">Copy link</button>
        <button type="button" class="control" data-action="copy-transcript">Copy transcript</button>
      </div>`
    }
  </header>`;
}

/** Downloads of the page under the same link (docs/PAGES.md, "Take it with you"); captions only when timed. */
function renderFooter(view: PageView, context: PageContext): Raw {
  const exported = (format: string, label: string) =>
    html`<li><a href="${context.selfPath}/export.${format}" download>${label}</a></li>`;
  const timed = view.messages.some((m) => m.offset !== null);
  return html`<footer class="page-footer">
    <h2 id="downloads-heading">Take it with you</h2>
    <ul class="downloads" aria-labelledby="downloads-heading">
      ${exported("md", "Markdown")} ${exported("txt", "Plain text")}
      ${timed && html`${exported("vtt", "Captions (WebVTT)")} ${exported("srt", "Captions (SRT)")}`}
      ${exported("json", "JSON")}
    </ul>
  </footer>`;
}

/**
 * The switch into edit mode: an editable link reads like a read-only one until it is on (docs/PAGES.md,
 * "Editing through a link").
 */
function renderEditMode(): Raw {
  return html`<div class="edit-mode" data-js hidden>
    <button type="button" class="control" id="edit-toggle" aria-pressed="false">Edit this summary</button>
  </div>`;
}

/**
 * Links to each section, one tap away on a phone, where the bar stays at the top (page.css); plain anchors,
 * so they work without the script.
 */
function renderJumps(view: PageView, pageJumps?: [string, string][]): Raw {
  const hasChapters = view.topics.some((t) => t.kind === "chapter");
  const jumps: [string, string][] = pageJumps ?? [
    ["#summary", "Summary"],
    ["#insights", "Action items"],
    ["#topics", hasChapters ? "Chapters" : "Topics"],
    ["#transcript", "Transcript"],
  ];
  return html`<nav class="jumps" aria-label="Sections">
    <ul>
      ${jumps.map(([href, label]) => html`<li><a href="${href}">${label}</a></li>`)}
    </ul>
  </nav>`;
}

/** Renders the whole summary page: it reads completely without the script, which only enhances it. */
export function renderPage(fullView: PageView, context: PageContext): Raw {
  const view = fullView.readOnly ? withoutHiddenLines(fullView) : fullView;
  const editable = !view.readOnly;
  const hasMedia = view.kind !== "verbose-text-summary" && safeMediaUrl(view.mediaUrl) !== null;

  const messagesById = new Map(view.messages.map((m) => [m.id, m]));
  // An audio-summary link opens the analytics view (Symbl's "Trackers & Analytics") in the same frame.
  const analytics = view.kind === "audio-summary" ? renderAnalytics(view, context, hasMedia) : null;
  // Verbatim: a line break between sections is the page's whitespace (escape.ts squeezes only indentation),
  // which the formatter would otherwise turn into spaces.
  // prettier-ignore
  const page = html`<!doctype html>
    <html lang="${pageLanguage(view)}">
      ${renderHead(view, context, analytics?.css)}
      <body class="kind-${view.kind}" data-editable="${editable ? "true" : "false"}">
        <a class="skip-link" href="#transcript">Skip to the transcript</a>
        ${renderHeader(view, editable)}
        ${renderJumps(view, analytics?.jumps)}
        <main id="main">
          ${editable && renderEditMode()}
          ${analytics ? analytics.main : html`<div class="layout">
            ${renderMedia(view)}
            <div class="col-overview">
              ${renderAttendees(view, editable)}
              ${renderSummary(view, messagesById)}
              ${renderInsights(view, messagesById, editable)}
              ${renderTopics(view, messagesById)}
            </div>
            ${renderTranscript(view, context, hasMedia)}
          </div>`}
        </main>
        ${renderFooter(view, context)}
        <div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
      </body>
    </html> `;
  return page;
}

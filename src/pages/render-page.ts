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
import { partMentions, renderTranscript, renderTranscriptPart } from "./render-transcript.ts";
import { TranscriptParts } from "./transcript-parts.ts";
import { themeCss } from "./theme.ts";
import {
  formatDuration,
  knownDuration,
  pageLanguage,
  type PageContext,
  type PageView,
  type TranscriptContext,
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
        view.live &&
        html`<p class="live" role="status">
          <span class="live-badge">Live</span>
          This meeting is being streamed: the lines so far are below, the summary comes when it ends.
          <a href="">Refresh</a>
        </p>`
      }
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

/** What the page shows of a view: a read-only link leaves hidden lines out. */
const shownView = (view: PageView) => (view.readOnly ? withoutHiddenLines(view) : view);
const hasMediaOf = (view: PageView) =>
  view.kind !== "verbose-text-summary" && safeMediaUrl(view.mediaUrl) !== null;
const partsOf = (view: PageView, context: TranscriptContext) =>
  new TranscriptParts(view.messages, context.part, context);

/**
 * Renders the whole summary page: it reads completely without the script, which only enhances it. A long
 * transcript shows the part `context.part` (transcript-parts.ts) and links to the others.
 */
export function renderPage(fullView: PageView, context: PageContext): Raw {
  const view = shownView(fullView);
  const editable = !view.readOnly;
  const hasMedia = hasMediaOf(view);
  const parts = partsOf(view, context);
  // An audio-summary link opens the analytics view (Symbl's "Trackers & Analytics") in the same frame.
  const analytics = view.kind === "audio-summary" ? renderAnalytics(view, context, parts, hasMedia) : null;
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
              ${renderSummary(view, parts)}
              ${renderInsights(view, parts, editable)}
              ${renderTopics(view, parts)}
            </div>
            ${renderTranscript(view, context, parts, hasMedia)}
          </div>`}
        </main>
        ${renderFooter(view, context)}
        <div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
      </body>
    </html> `;
  return page;
}

/** One part of a long transcript as the script asks for it: the lines the page shows there. */
export function renderPagePart(fullView: PageView, context: TranscriptContext): Raw {
  const view = shownView(fullView);
  return renderTranscriptPart(view, context, partsOf(view, context), hasMediaOf(view));
}

/** The parts the page's transcript is in, as `?part=` and the script's requests count them. */
export function pageParts(fullView: PageView, context: TranscriptContext): TranscriptParts {
  return partsOf(shownView(fullView), context);
}

/**
 * The page's transcript to search part by part (so a long one is searched without holding the event loop):
 * how many parts it has, the signature of the lines they are counted in, and whether a part mentions a
 * query (render-transcript.ts, partMentions).
 */
export function pageSearch(fullView: PageView, context: TranscriptContext) {
  const view = shownView(fullView);
  const parts = partsOf(view, context);
  return {
    parts: parts.count,
    signature: parts.signature,
    mentions: (part: number, query: string) => partMentions(view, context, parts, part, query),
  };
}

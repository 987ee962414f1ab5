import { contrastRatio, mix, palette, readableText } from "./colour.ts";
import { html, raw, safeHttpUrl, type Raw } from "./escape.ts";
import {
  durationSeconds,
  formatDuration,
  formatOffset,
  INSIGHT_GROUPS,
  type PageAttendee,
  type PageContext,
  type PageInsight,
  type PageMessage,
  type PageView,
  withoutHiddenLines,
} from "./view-model.ts";

/** The head tags every Recap page starts with: the link is a credential, so no indexing and no referrer. */
export const PAGE_HEAD_META = html`<meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <meta name="robots" content="noindex, nofollow" />
  <meta name="referrer" content="no-referrer" />`;

const DEFAULT_BACKGROUND = "#f5f6f8";
const DEFAULT_TOPIC = "#1d5fbf";
const DEFAULT_INSIGHT = "#7a3db8";
const FONT_FAMILY = /^[A-Za-z0-9][A-Za-z0-9 -]{0,63}$/;

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });
const timeFormat = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });

/** The Google Fonts css2 URL for a validated family name, or null when the name is not safe. */
export function fontStylesheetUrl(family: string | null): string | null {
  if (family === null || !FONT_FAMILY.test(family)) return null;
  return `https://fonts.googleapis.com/css2?family=${encodeURIComponent(family.trim()).replace(/%20/g, "+")}&display=swap`;
}

/** The page's custom properties; every value is a validated colour or font name, so it is safe in CSS. */
export function themeCss(view: PageView): string {
  const { branding } = view;
  const colours = palette(branding.background ?? DEFAULT_BACKGROUND);
  const topic = branding.topicsFilter ?? DEFAULT_TOPIC;
  const insight = branding.insightsFilter ?? DEFAULT_INSIGHT;
  const topicTint = mix(colours.surface, topic, 0.18);
  const insightTint = mix(colours.surface, insight, 0.18);
  const font =
    branding.fontFamily !== null && FONT_FAMILY.test(branding.fontFamily)
      ? `"${branding.fontFamily.trim()}", `
      : "";
  const variables: Record<string, string> = {
    "--bg": colours.background,
    "--text": colours.text,
    "--muted": colours.muted,
    "--surface": colours.surface,
    "--surface-text": colours.surfaceText,
    "--surface-muted": colours.surfaceMuted,
    "--border": colours.border,
    "--current": colours.current,
    "--current-text": readableText(colours.current),
    "--topic": topic,
    "--topic-text": readableText(topic),
    "--topic-tint": topicTint,
    "--topic-tint-text": readableText(topicTint),
    "--insight": insight,
    "--insight-text": readableText(insight),
    "--insight-tint": insightTint,
    "--insight-tint-text": readableText(insightTint),
    // A link or focus ring drawn in the brand colour only where it stays readable on the surface.
    "--accent": contrastRatio(topic, colours.surface) >= 4.5 ? topic : colours.surfaceText,
    "--font": `${font}system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`,
  };
  return `:root{${Object.entries(variables)
    .map(([name, value]) => `${name}:${value}`)
    .join(";")}}`;
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    parts.length > 1 ? [parts[0]![0], parts[parts.length - 1]![0]] : [name.trim()[0], name.trim()[1]];
  return letters
    .filter((l): l is string => l !== undefined)
    .join("")
    .toUpperCase();
}

function editButton(action: string, label: string, text = "Edit"): Raw {
  return html`<button type="button" class="control" data-action="${action}" aria-label="${label}" hidden>
    ${text}
  </button>`;
}

function renderAttendee(attendee: PageAttendee, editable: boolean): Raw {
  const avatar = safeHttpUrl(attendee.avatarUrl);
  return html`<li class="attendee" data-member-id="${attendee.id}">
    ${
      avatar
        ? html`<img class="avatar" src="${avatar}" alt="" width="32" height="32" loading="lazy" />`
        : html`<span class="avatar avatar-initials" aria-hidden="true">${initials(attendee.name)}</span>`
    }
    <span class="attendee-name" data-member-name="${attendee.id}">${attendee.name}</span>
    ${editable && editButton("rename-member", `Rename speaker ${attendee.name}`, "Rename")}
  </li>`;
}

function gotoLink(messageIds: string[], messagesById: Map<string, PageMessage>, text: string): Raw {
  const target = messageIds.find((id) => messagesById.has(id));
  if (!target) return html`<span class="item-text">${text}</span>`;
  const offset = messagesById.get(target)?.offset;
  return html`<a
    class="goto item-text"
    href="#m-${target}"
    data-goto="${target}"
    ${offset !== null && offset !== undefined ? raw(`data-seek="${offset}"`) : ""}
    >${text}</a
  >`;
}

/** A member's name the page script renames in place (data-member-name); a non-member's name as is. */
function memberName(id: string | null, name: string): Raw {
  return id === null
    ? html`<strong>${name}</strong>`
    : html`<strong data-member-name="${id}">${name}</strong>`;
}

function renderInsight(insight: PageInsight, messagesById: Map<string, PageMessage>, editable: boolean): Raw {
  const details = [
    insight.speakerName !== null &&
      html`<span>said by ${memberName(insight.speakerId, insight.speakerName)}</span>`,
    insight.assigneeName !== null &&
      html`<span>for ${memberName(insight.assigneeId, insight.assigneeName)}</span>`,
    insight.dueBy !== null &&
      html`<span>due <time datetime="${insight.dueBy}">${insight.dueBy.slice(0, 10)}</time></span>`,
  ].filter(Boolean);
  return html`<li class="insight" id="i-${insight.id}" data-insight-id="${insight.id}">
    ${gotoLink(insight.messageIds, messagesById, insight.text)}
    ${details.length > 0 && html`<span class="item-meta">${details}</span>`}
    ${
      editable &&
      html`<span class="controls">
        ${editButton("edit-insight", "Edit this insight")}
        ${editButton("dismiss-insight", "Dismiss this insight", "Dismiss")}
      </span>`
    }
  </li>`;
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

function renderMedia(view: PageView): Raw | null {
  if (view.kind === "verbose-text-summary") return null;
  const tag = view.kind === "video-summary" ? "video" : "audio";
  const url = safeHttpUrl(view.mediaUrl);
  const placeholder = html`<p class="media-placeholder" ${url ? raw("hidden") : ""}>
    The ${tag === "video" ? "video" : "recording"} is not available. The summary and transcript are below.
  </p>`;
  return html`<section class="card media" aria-labelledby="media-heading">
    <h2 id="media-heading" class="visually-hidden">${tag === "video" ? "Video" : "Audio"}</h2>
    ${
      url &&
      raw(
        `<${tag} id="player" class="player" controls preload="metadata" playsinline src="${html`${url}`.html}">` +
          `Your browser cannot play this ${tag}.</${tag}>`,
      )
    }
    ${placeholder}
    ${
      url &&
      html`<div class="follow" data-js hidden>
        <button type="button" class="control" id="follow-toggle" aria-pressed="true">
          Following playback
        </button>
      </div>`
    }
  </section>`;
}

/** Renders the whole summary page: it reads completely without the script, which only enhances it. */
export function renderPage(fullView: PageView, context: PageContext): string {
  const view = fullView.readOnly ? withoutHiddenLines(fullView) : fullView;
  const editable = !view.readOnly;
  const hasMedia = view.kind !== "verbose-text-summary" && safeHttpUrl(view.mediaUrl) !== null;
  const messages = view.messages;
  const messagesById = new Map(messages.map((m) => [m.id, m]));

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

  const start = new Date(view.startTime);
  const validStart = !Number.isNaN(start.getTime());
  const duration = durationSeconds(view);
  const logo = safeHttpUrl(view.branding.logo);
  const favicon = safeHttpUrl(view.branding.favicon);
  const font = fontStylesheetUrl(view.branding.fontFamily);
  const presentTypes = new Set(view.insights.map((i) => i.type));

  const page = html`<!doctype html>
    <html lang="en">
      <head>
        ${PAGE_HEAD_META}
        <title>${view.title} · Summary</title>
        ${favicon && html`<link rel="icon" href="${favicon}" />`}
        ${context.stylesheetUrl && html`<link rel="stylesheet" href="${context.stylesheetUrl}" />`}
        ${font && html`<link rel="stylesheet" href="${font}" />`}
        <style nonce="${context.styleNonce}">
          ${raw(themeCss(view))}
        </style>
        ${context.scriptUrl && html`<script src="${context.scriptUrl}" defer></script>`}
      </head>
      <body class="kind-${view.kind}" data-editable="${editable ? "true" : "false"}">
        <a class="skip-link" href="#transcript">Skip to the transcript</a>
        <header class="page-header">
          ${logo && html`<img class="logo" src="${logo}" alt="Logo" height="40" />`}
          <div class="heading">
            <h1 id="title"><span data-field="title">${view.title}</span></h1>
            ${editable && editButton("rename-conversation", "Rename this conversation", "Rename")}
            <p class="meta">
              ${
                validStart &&
                html`<time class="date" datetime="${view.startTime}">${dateFormat.format(start)}</time>
                  <span aria-hidden="true">·</span>
                  <time class="start" datetime="${view.startTime}">${timeFormat.format(start)} UTC</time>
                  <span aria-hidden="true">·</span>`
              }
              <span class="duration">${formatDuration(duration)}</span>
            </p>
          </div>
          ${
            !view.hideShareButton &&
            html`<div class="share" data-js hidden>
              <button type="button" class="control" data-action="copy-link">Copy link</button>
              <button type="button" class="control" data-action="copy-transcript">Copy transcript</button>
            </div>`
          }
        </header>
        <main id="main">
          <div class="layout">
            <div class="col-overview">
              ${renderMedia(view)}
              <section class="card" aria-labelledby="attendees-heading">
                <h2 id="attendees-heading">Attendees</h2>
                ${
                  view.attendees.length > 0
                    ? html`<ul class="attendees">
                        ${view.attendees.map((a) => renderAttendee(a, editable))}
                      </ul>`
                    : html`<p class="empty">No attendees were recorded.</p>`
                }
              </section>
              <section class="card" id="summary" aria-labelledby="summary-heading">
                <h2 id="summary-heading">Summary</h2>
                ${
                  view.summary.length > 0
                    ? html`<div class="summary">
                        ${view.summary.map(
                          (item) => html`<p>${gotoLink(item.messageIds, messagesById, item.text)}</p>`,
                        )}
                      </div>`
                    : html`<p class="empty">No summary was found for this conversation.</p>`
                }
              </section>
              <section class="card" id="insights" aria-labelledby="insights-heading">
                <h2 id="insights-heading">Insights</h2>
                ${view.insights.length === 0 && html`<p class="empty">No action items, follow-ups or questions were found.</p>`}
                ${
                  view.insights.length > 0 &&
                  INSIGHT_GROUPS.map((group) => {
                    const items = view.insights.filter((i) => i.type === group.type);
                    return html`<div class="insight-group" data-group="${group.type}">
                      <h3>${group.label}</h3>
                      ${
                        items.length > 0
                          ? html`<ul class="items">
                              ${items.map((i) => renderInsight(i, messagesById, editable))}
                            </ul>`
                          : html`<p class="empty">No ${group.label.toLowerCase()} were found.</p>`
                      }
                    </div>`;
                  })
                }
              </section>
              <section class="card" id="topics" aria-labelledby="topics-heading">
                <h2 id="topics-heading">Topics</h2>
                ${
                  view.topics.length > 0
                    ? html`<ul class="items topics">
                        ${view.topics.map(
                          (t) => html`<li>${gotoLink(t.messageIds, messagesById, t.text)}</li>`,
                        )}
                      </ul>`
                    : html`<p class="empty">No topics were found.</p>`
                }
              </section>
            </div>
            <section
              class="card col-transcript"
              id="transcript"
              aria-labelledby="transcript-heading"
              tabindex="-1"
            >
              <h2 id="transcript-heading">Transcript</h2>
              ${
                (view.topics.length > 0 || presentTypes.size > 0) &&
                html`<div class="filters" data-js hidden>
                  <p class="filters-label" id="filters-label">Highlight lines about</p>
                  <div class="chips" role="group" aria-labelledby="filters-label">
                    ${INSIGHT_GROUPS.filter((g) => presentTypes.has(g.type)).map(
                      (g) =>
                        html`<button
                          type="button"
                          class="chip chip-insight"
                          data-filter="insight:${g.type}"
                          aria-pressed="false"
                        >
                          ${g.chip}
                        </button>`,
                    )}
                    ${view.topics.map(
                      (t) =>
                        html`<button
                          type="button"
                          class="chip chip-topic"
                          data-filter="topic:${t.id}"
                          aria-pressed="false"
                        >
                          ${t.text}
                        </button>`,
                    )}
                  </div>
                  <p class="filter-count" role="status"></p>
                </div>`
              }
              <form class="search" role="search" data-js hidden>
                <label for="search-input">Search the transcript</label>
                <input id="search-input" type="search" autocomplete="off" />
                <span class="search-count" id="search-count" role="status" aria-live="polite"></span>
                <button type="button" class="control" data-action="search-prev" aria-label="Previous match">
                  Previous
                </button>
                <button type="button" class="control" data-action="search-next" aria-label="Next match">
                  Next
                </button>
              </form>
              ${
                messages.length > 0
                  ? html`<ol class="lines">
                      ${messages.map((m) => renderMessage(m, topicsByMessage, insightsByMessage, hasMedia))}
                    </ol>`
                  : html`<p class="empty">This conversation has no messages.</p>`
              }
            </section>
          </div>
        </main>
        <footer class="page-footer">
          <p>
            This page is also available as <a href="${context.selfPath}.md">Markdown</a> and
            <a href="${context.selfPath}.json">JSON</a>.
          </p>
        </footer>
        <div id="status" class="visually-hidden" role="status" aria-live="polite"></div>
      </body>
    </html> `;
  return page.html;
}

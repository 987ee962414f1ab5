import { LRUCache } from "lru-cache";
import { formatOffset, type PageContext, type PageMessage, type PageView } from "./view-model.ts";
import { html, raw, Raw } from "./escape.ts";
import { readingText } from "./reading-text.ts";
import { renderToolbar } from "./render-toolbar.ts";

// The transcript column: the toolbar and the lines. A long meeting has thousands of lines, so a line
// carries only what the script needs to filter, search, seek and edit (docs/PAGES.md).

/** Which topics and which insight types rest on each line, for the filters. */
export function indexByMessage(view: PageView) {
  const topicsByMessage = new Map<string, string[]>();
  for (const topic of view.topics) {
    for (const id of topic.messageIds) {
      const topics = topicsByMessage.get(id);
      if (topics === undefined) topicsByMessage.set(id, [topic.id]);
      else topics.push(topic.id);
    }
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

interface LineOptions {
  hasMedia: boolean;
  editable: boolean;
  /** The text shown: the stored text, or its readable form. */
  shown: string;
  /** The line goes on from the same speaker's previous line, so it shows no speaker heading of its own. */
  continued: boolean;
  /** The ids of the topics and the insight types resting on the line, space-separated, for the filters. */
  topics: string | undefined;
  insights: string | undefined;
}

/** One transcript line. Kept lean (a long meeting has thousands): its edit controls are added by the script. */
function renderMessage(message: PageMessage, options: LineOptions): Raw {
  const { offset } = message;
  const { shown, topics, insights } = options;
  const classes = [
    "line",
    message.hidden && "is-hidden",
    options.continued && "is-continued",
    shown === "" && "is-sound",
  ].filter(Boolean);
  const attributes = [
    offset !== null && ` data-offset="${offset}"`,
    topics && html` data-topics="${topics}"`.html,
    insights && html` data-insights="${insights}"`.html,
    // The stored text, for the editor, where the page shows another.
    options.editable && shown !== message.text && html` data-text="${message.text}"`.html,
  ]
    .filter(Boolean)
    .join("");
  const time =
    offset === null
      ? ""
      : html` <a
          class="time"
          href="#m-${message.id}"
          ${raw(options.hasMedia ? ` aria-label="Play from ${formatOffset(offset)}"` : "")}
          >${formatOffset(offset)}</a
        >`;
  const name = message.speakerName ?? "Unknown speaker";
  const speaker =
    message.speakerId === null
      ? html`<span class="speaker" dir="auto">${name}</span>`
      : html`<span class="speaker" data-member-name="${message.speakerId}" dir="auto">${name}</span>`;
  const badge = message.hidden
    ? html` <span class="badge">Hidden from the API and read-only links</span>`
    : "";
  return html`<li class="${classes.join(" ")}" id="m-${message.id}" ${raw(attributes)}>
    <div class="line-head">${speaker}${time}${badge}</div>
    <p class="line-text" dir="auto">${shown}</p>
  </li>`;
}

const speakerKey = (m: PageMessage) => m.speakerId ?? m.speakerName ?? "";

/** How many lines are kept, as reading text and as HTML (a few MB at most): more than the longest meetings have. */
const LINES_KEPT = 20_000;
const readingTexts = new LRUCache<string, string>({ max: LINES_KEPT });

/** A line's HTML and everything it was made from. */
interface KeptLine {
  message: PageMessage;
  options: LineOptions;
  html: Raw;
}
const lineHtml = new LRUCache<string, KeptLine>({ max: LINES_KEPT });

/** Whether `line` was made from what `message` and `options` would make it from now (media and editing: its key). */
function madeFrom(line: KeptLine, message: PageMessage, options: LineOptions): boolean {
  const was = line.message;
  const wasOptions = line.options;
  return (
    was.text === message.text &&
    was.speakerId === message.speakerId &&
    was.speakerName === message.speakerName &&
    was.offset === message.offset &&
    was.hidden === message.hidden &&
    wasOptions.shown === options.shown &&
    wasOptions.continued === options.continued &&
    wasOptions.topics === options.topics &&
    wasOptions.insights === options.insights
  );
}

/**
 * A line's HTML, kept from the last render of that line where nothing it shows has changed: a page is
 * rendered again after each edit, and all its lines but the edited one render as before, so the first
 * render after a change neither cleans nor renders every line again. Lines are kept by id (and by the
 * two settings that tell one link's page from another's), least recently used out first, and compared
 * part by part: a key joining the parts would copy each line's text on every render.
 */
function keptLine(
  message: PageMessage,
  index: ReturnType<typeof indexByMessage>,
  options: Omit<LineOptions, "topics" | "insights">,
): Raw {
  const insightTypes = index.insightsByMessage.get(message.id);
  // Spelled out, not spread: spreading here made re-rendering a kept page twice as slow.
  const made: LineOptions = {
    hasMedia: options.hasMedia,
    editable: options.editable,
    shown: options.shown,
    continued: options.continued,
    topics: index.topicsByMessage.get(message.id)?.join(" "),
    insights: insightTypes && [...insightTypes].join(" "),
  };
  const key = `${options.editable ? "e" : "r"}${options.hasMedia ? "m" : "t"}${message.id}`;
  const line = lineHtml.get(key);
  if (line !== undefined && madeFrom(line, message, made)) return line.html;
  const rendered = Raw.ofBytes(renderMessage(message, made).bytes);
  lineHtml.set(key, { options: made, message, html: rendered });
  return rendered;
}

/** The text as the page reads it, kept by the stored text. */
function readingTextOf(text: string): string {
  let shown = readingTexts.get(text);
  if (shown === undefined) {
    shown = readingText(text);
    readingTexts.set(text, shown);
  }
  return shown;
}

/** The transcript section; `hasMedia` makes each line's time a "play from here" control. */
export function renderTranscript(view: PageView, context: PageContext, hasMedia: boolean): Raw {
  const { messages } = view;
  const index = indexByMessage(view);
  const editable = !view.readOnly;
  const texts = messages.map((m) => (context.verbatim ? m.text : readingTextOf(m.text)));
  let previous: PageMessage | undefined;
  return html`<section
    class="card col-transcript"
    id="transcript"
    aria-labelledby="transcript-heading"
    tabindex="-1"
  >
    <h2 id="transcript-heading">Transcript</h2>
    ${renderToolbar(view, context, index)}
    ${
      messages.length > 0
        ? html`<ol class="lines" aria-labelledby="transcript-heading">
            ${messages.map((m, i) => {
              const shown = texts[i] ?? "";
              // A line of marks only ("{vocalsound}") is left out of the cleaned text, so it does not part a
              // speaker's lines.
              const continued = previous !== undefined && speakerKey(previous) === speakerKey(m);
              if (shown !== "") previous = m;
              return keptLine(m, index, { hasMedia, editable, shown, continued });
            })}
          </ol>`
        : html`<p class="empty">This conversation has no messages.</p>`
    }
  </section>`;
}

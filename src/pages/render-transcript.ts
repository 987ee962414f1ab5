import { LRUCache } from "lru-cache";
import { formatOffset, type PageMessage, type PageView, type TranscriptContext } from "./view-model.ts";
import { html, raw, Raw } from "./escape.ts";
import { readingText } from "./reading-text.ts";
import { renderToolbar } from "./render-toolbar.ts";
import type { TranscriptParts } from "./transcript-parts.ts";

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

/** The text a line shows: as stored, or cleaned for reading (kept). */
const shownText = (message: PageMessage, context: TranscriptContext) =>
  context.verbatim ? message.text : readingTextOf(message.text);

/** The lines of one part of the transcript (the whole of it when it is not in parts). */
function renderPartLines(
  view: PageView,
  context: TranscriptContext,
  parts: TranscriptParts,
  index: ReturnType<typeof indexByMessage>,
  hasMedia: boolean,
  part: number,
): Raw[] {
  const { messages } = view;
  const editable = !view.readOnly;
  const [start, end] = parts.range(part);
  // The last line before the part that shows any text: its speaker's next line goes on under their name. A
  // line of marks only ("{vocalsound}") is left out of the cleaned text, so it does not part a speaker's lines.
  let previous: PageMessage | undefined;
  for (let i = start - 1; i >= 0 && previous === undefined; i--) {
    const message = messages[i];
    if (message !== undefined && shownText(message, context) !== "") previous = message;
  }
  const lines: Raw[] = [];
  for (let i = start; i < end; i++) {
    const message = messages[i];
    if (message === undefined) continue;
    const shown = shownText(message, context);
    const continued = previous !== undefined && speakerKey(previous) === speakerKey(message);
    if (shown !== "") previous = message;
    lines.push(keptLine(message, index, { hasMedia, editable, shown, continued }));
  }
  return lines;
}

/** Where another part's lines go: a link to that part's page, which the script replaces with its lines. */
function renderPartLink(parts: TranscriptParts, part: number): Raw {
  return html`<li class="part" data-part="${part}">
    <a class="part-link" href="${parts.pageOf(part)}">${parts.label(part)}</a>
  </li>`;
}

/**
 * What the script needs of a transcript in parts: the part shown, how many there are, each part's start
 * (for a time to play from), and which lines they are parts of (their signature).
 */
function partsAttributes(context: TranscriptContext, parts: TranscriptParts, part = parts.current): Raw {
  if (parts.whole) return raw("");
  const starts = Array.from({ length: parts.count }, (_, i) => parts.startOf(i + 1) ?? "-").join(" ");
  return html`data-part="${part}" data-parts="${parts.count}" data-part-starts="${starts}"
  data-version="${parts.signature}"`;
}

/**
 * The transcript section; `hasMedia` makes each line's time a "play from here" control. A long transcript
 * shows the part asked for, and a link to each other part in its place.
 */
export function renderTranscript(
  view: PageView,
  context: TranscriptContext,
  parts: TranscriptParts,
  hasMedia: boolean,
): Raw {
  const index = indexByMessage(view);
  return html`<section
    class="card col-transcript"
    id="transcript"
    aria-labelledby="transcript-heading"
    tabindex="-1"
  >
    <h2 id="transcript-heading">Transcript</h2>
    ${renderToolbar(view, context, parts, index)}
    ${
      view.messages.length > 0
        ? html`<ol class="lines" aria-labelledby="transcript-heading" ${partsAttributes(context, parts)}>
            ${Array.from({ length: parts.count }, (_, i) =>
              i + 1 === parts.current
                ? renderPartLines(view, context, parts, index, hasMedia, i + 1)
                : renderPartLink(parts, i + 1),
            )}
          </ol>`
        : html`<p class="empty">This conversation has no messages.</p>`
    }
  </section>`;
}

/** One part of a long transcript as the script asks for it: its lines in a list that says which part they are. */
export function renderTranscriptPart(
  view: PageView,
  context: TranscriptContext,
  parts: TranscriptParts,
  hasMedia: boolean,
): Raw {
  return html`<ol class="lines" ${partsAttributes(context, parts)}>
    ${renderPartLines(view, context, parts, indexByMessage(view), hasMedia, parts.current)}
  </ol>`;
}

/**
 * Whether a part holds a line whose text as shown contains `query`, ignoring case, as the script's search
 * marks them: it loads the parts that do, then marks every match.
 */
export function partMentions(
  view: PageView,
  context: TranscriptContext,
  parts: TranscriptParts,
  part: number,
  query: string,
): boolean {
  const wanted = query.toLowerCase();
  const [start, end] = parts.range(part);
  for (let i = start; i < end; i++) {
    const message = view.messages[i];
    if (message !== undefined && shownText(message, context).toLowerCase().includes(wanted)) return true;
  }
  return false;
}

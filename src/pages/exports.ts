import { formatOffset, INSIGHT_GROUPS, type PageView, whenLine, withoutHiddenLines } from "./view-model.ts";

// What a viewer takes away from a page besides its Markdown and JSON: plain text and the transcript as
// captions. Captions are written here rather than by a library: the writers on npm are unmaintained or do not
// escape cue text, and the two formats need only a time format and an escape.

/** A caption cue: one timed transcript line. */
export interface CaptionCue {
  id: string;
  start: number;
  end: number;
  speaker: string;
  text: string;
}

/** When a line's end is not stored: about 0.4 s a word, from 1 to 10 s. */
const estimatedLength = (text: string) => Math.min(10, Math.max(1, text.split(/\s+/).length * 0.4));

/**
 * The timed lines a read-only viewer sees, in time order, each ending when it ends (or by an estimate) but
 * never after the next line starts. Untimed lines have no cue; a transcript without times has none at all.
 */
export function captionCues(fullView: Pick<PageView, "messages">): CaptionCue[] {
  const timed = fullView.messages
    .filter((m) => !m.hidden && m.offset !== null)
    .sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0));
  return timed.map((m, index) => {
    const start = m.offset ?? 0;
    const next = timed[index + 1]?.offset ?? Infinity;
    const stated =
      m.endOffset !== null && m.endOffset > start ? m.endOffset : start + estimatedLength(m.text);
    const end = next > start ? Math.min(stated, next) : stated;
    return {
      id: m.id,
      start,
      end,
      speaker: m.speakerName ?? "Unknown speaker",
      text: m.text.replace(/\s+/g, " ").trim(),
    };
  });
}

/** 01:02:03.450 (WebVTT) or 01:02:03,450 (SRT). */
export function cueTime(seconds: number, separator: "." | ","): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** Cue text as WebVTT reads it: `&`, `<` and `>` escaped, so no text becomes a tag or ends a cue. */
const vttText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** How captions are written: with each cue's speaker (the default) or its text alone. */
export interface CaptionOptions {
  speakers?: boolean;
}

/** The transcript as WebVTT captions, each cue naming its speaker in a voice span. */
export function cuesToWebVtt(cues: CaptionCue[], { speakers = true }: CaptionOptions = {}): string {
  const blocks = cues.map(
    (cue) =>
      `${cue.id}\n${cueTime(cue.start, ".")} --> ${cueTime(cue.end, ".")}\n` +
      `${speakers ? `<v ${vttText(cue.speaker)}>` : ""}${vttText(cue.text)}`,
  );
  return ["WEBVTT", ...blocks].join("\n\n") + "\n";
}

/** The transcript as SRT captions ("Speaker: text"), numbered from 1. */
export function cuesToSrt(cues: CaptionCue[], { speakers = true }: CaptionOptions = {}): string {
  return cues
    .map(
      (cue, index) =>
        `${index + 1}\n${cueTime(cue.start, ",")} --> ${cueTime(cue.end, ",")}\n` +
        `${speakers ? `${cue.speaker}: ` : ""}${cue.text}\n`,
    )
    .join("\n");
}

/** The page's content as plain text: what a read-only viewer sees, hidden lines left out. */
export function pageToText(fullView: PageView): string {
  const view = withoutHiddenLines(fullView);
  const when = whenLine(view);
  const out: string[] = [view.title, ...(when !== null ? [when] : []), ""];
  if (view.attendees.length > 0) out.push(`Attendees: ${view.attendees.map((a) => a.name).join(", ")}`, "");
  out.push("Summary", "");
  if (view.decisions.length > 0) out.push("Decisions", "", ...view.decisions.map((d) => `- ${d.text}`), "");
  out.push(...(view.summary.length === 0 ? ["No summary was found."] : view.summary.map((s) => s.text)), "");
  for (const group of INSIGHT_GROUPS) {
    const items = view.insights.filter((i) => i.type === group.type);
    if (items.length === 0) continue;
    out.push(group.label, "");
    for (const item of items) {
      const who = [
        ...(item.speakerName !== null ? [`said by ${item.speakerName}`] : []),
        ...(item.assigneeName !== null ? [`for ${item.assigneeName}`] : []),
      ];
      out.push(`- ${item.text}${who.length > 0 ? ` (${who.join(", ")})` : ""}`);
    }
    out.push("");
  }
  if (view.topics.length > 0) out.push("Topics", "", ...view.topics.map((t) => `- ${t.text}`), "");
  out.push("Transcript", "");
  for (const m of view.messages) {
    const time = m.offset === null ? "" : `[${formatOffset(m.offset)}] `;
    out.push(`${time}${m.speakerName ?? "Unknown speaker"}: ${m.text}`);
  }
  return out.join("\n") + "\n";
}

/** A file name for a download of the conversation: its title in ASCII letters, digits and hyphens. */
export function downloadName(title: string, extension: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return `${slug || "conversation"}.${extension}`;
}

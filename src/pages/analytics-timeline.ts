import { durationSeconds, type PageMessage, type PageView } from "./view-model.ts";

// The analytics page's timeline as plain data: who spoke when, chapters and tracker hits, each placed as a
// share of the meeting's length (docs/PAGES.md, "The analytics page").

/** A stretch of one speaker's consecutive lines, from its first line's start to its last line's end. */
export interface TalkSegment {
  messageId: string;
  start: number;
  end: number;
}

export interface SpeakerLane {
  id: string;
  name: string;
  segments: TalkSegment[];
}

export interface ChapterBand {
  text: string;
  messageId: string;
  start: number;
  end: number;
}

export interface TrackerHit {
  tracker: string;
  messageId: string;
  offset: number | null;
}

export interface TrackerSummary {
  name: string;
  /** The phrases of the tracker that were said. */
  phrases: string[];
  hits: TrackerHit[];
}

export interface Timeline {
  /** Seconds the timeline spans: the meeting's length, or its last line's end when later. */
  span: number;
  lanes: SpeakerLane[];
  chapters: ChapterBand[];
}

/** The lines the analytics count: the visible ones (an editable link shows hidden lines, marked). */
export const countedLines = (view: PageView): PageMessage[] => view.messages.filter((m) => !m.hidden);

/** A line's end: its own, else the next line's start, else one second on (so it is never empty). */
function endOf(line: PageMessage & { offset: number }, next: PageMessage | undefined): number {
  if (line.endOffset !== null && line.endOffset > line.offset) return line.endOffset;
  if (next?.offset != null && next.offset > line.offset) return next.offset;
  return line.offset + 1;
}

/** The timeline of a page whose lines have times; null when none has one. */
export function timelineOf(view: PageView): Timeline | null {
  const timed = countedLines(view)
    .filter((m): m is PageMessage & { offset: number } => m.offset !== null)
    .sort((a, b) => a.offset - b.offset);
  if (timed.length === 0) return null;
  const lanes = new Map<string, SpeakerLane>(
    view.attendees.map((a) => [a.id, { id: a.id, name: a.name, segments: [] }]),
  );
  let previous = null as { speaker: string; segment: TalkSegment } | null;
  for (const [i, line] of timed.entries()) {
    const speaker = line.speakerId ?? "";
    const end = endOf(line, timed[i + 1]);
    if (previous?.speaker === speaker) {
      previous.segment.end = Math.max(previous.segment.end, end);
      continue;
    }
    const lane = lanes.get(speaker) ?? {
      id: speaker,
      name: line.speakerName ?? "Unknown speaker",
      segments: [],
    };
    lanes.set(speaker, lane);
    const segment = { messageId: line.id, start: line.offset, end };
    lane.segments.push(segment);
    previous = { speaker, segment };
  }
  const span = Math.max(
    durationSeconds(view),
    ...[...lanes.values()].flatMap((l) => l.segments.map((s) => s.end)),
  );
  const starts = view.topics.flatMap((topic) => {
    const first = topic.messageIds[0];
    return topic.kind === "chapter" && topic.offset !== null && first !== undefined
      ? [{ text: topic.text, messageId: first, start: topic.offset }]
      : [];
  });
  const chapters = starts.map((chapter, i) => ({ ...chapter, end: starts[i + 1]?.start ?? span }));
  return { span, lanes: [...lanes.values()].filter((lane) => lane.segments.length > 0), chapters };
}

/** Each of the app's trackers that is mentioned, with the lines it is mentioned in, in the lines' order. */
export function trackerSummaries(view: PageView): TrackerSummary[] {
  const lines = countedLines(view);
  const offsetOf = new Map(lines.map((line) => [line.id, line.offset]));
  const order = new Map(lines.map((line, i) => [line.id, i]));
  return view.trackerMatches.map((tracker) => {
    const ids = [...new Set(tracker.matches.flatMap((match) => match.messageRefs.map((ref) => ref.id)))];
    ids.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    return {
      name: tracker.name,
      phrases: tracker.matches.map((match) => match.value),
      hits: ids.map((id) => ({ tracker: tracker.name, messageId: id, offset: offsetOf.get(id) ?? null })),
    };
  });
}

/**
 * The page's per-element rules: the CSP allows no style attributes, so each placed element gets a class
 * whose `left` (and `width`), as shares of the timeline, the page's nonce'd <style> sets.
 */
export class Placements {
  readonly rules: string[] = [];
  constructor(private readonly span: number) {}

  private percent(seconds: number): string {
    return `${((Math.min(Math.max(seconds, 0), this.span) / this.span) * 100).toFixed(3)}%`;
  }

  /** A class that places an element from `start` to `end` (or only at `start`). */
  place(start: number, end?: number): string {
    const name = `at-${this.rules.length}`;
    const width = end === undefined ? "" : `;width:${this.percent(end - start)}`;
    this.rules.push(`.${name}{left:${this.percent(start)}${width}}`);
    return name;
  }

  /** A class that sets a bar's width to a share (0..1). */
  bar(share: number): string {
    const name = `at-${this.rules.length}`;
    this.rules.push(`.${name}{width:${(Math.min(Math.max(share, 0), 1) * 100).toFixed(1)}%}`);
    return name;
  }
}

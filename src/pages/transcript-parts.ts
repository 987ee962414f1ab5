import { createHash } from "node:crypto";
import { formatOffset, type PageMessage } from "./view-model.ts";

// A long transcript is sent in parts (docs/PAGES.md, "A very long meeting"): the page holds one part's lines
// and a link to each other part in its place, which the script replaces with the part's lines as the reader
// comes near it, or asks for, and which is the part's own page without the script.

/** Lines in each part of a transcript sent in parts. */
export const PART_LINES = 1000;
/** The longest transcript sent whole: a long meeting of about two hours. */
export const WHOLE_UP_TO = 1500;

/** How many parts a transcript of `lines` lines is sent in. */
export function partCount(lines: number): number {
  return lines <= WHOLE_UP_TO ? 1 : Math.ceil(lines / PART_LINES);
}

/**
 * The page's transcript as parts: which part each line is in, the part the page shows, and the address of
 * a line or a part from the page (its anchor when the line is on it, else the part's page and the anchor).
 */
export class TranscriptParts {
  /** How many parts there are (1: the transcript is sent whole). */
  readonly count: number;
  /** The part the page shows, 1-based: the one asked for, within the parts there are. */
  readonly current: number;
  readonly #indexOf: Map<string, number>;

  constructor(
    readonly messages: readonly PageMessage[],
    requested: number | null,
    /** The link's own path segment and its text mode, which each part's page keeps. */
    private readonly page: { selfPath: string; verbatim: boolean },
  ) {
    this.count = partCount(messages.length);
    this.current = Math.min(Math.max(requested ?? 1, 1), this.count);
    this.#indexOf = new Map(messages.map((message, index) => [message.id, index]));
  }

  get whole(): boolean {
    return this.count === 1;
  }

  /**
   * Names the lines the parts are counted in, in order: the same as long as every part holds the same lines.
   * Edits to a line's text, names and the analysis keep it; a line added, or hidden on a read-only link,
   * changes it, and with it where each part begins.
   */
  get signature(): string {
    const ids = createHash("sha256");
    for (const message of this.messages) ids.update(`${message.id}\n`);
    return `${this.messages.length}.${ids.digest("base64url").slice(0, 16)}`;
  }

  /** The line with this id, when it is on the page (hidden lines are not on a read-only one). */
  message(id: string): PageMessage | undefined {
    const index = this.#indexOf.get(id);
    return index === undefined ? undefined : this.messages[index];
  }

  /** The part the line at `index` is in. */
  partAt(index: number): number {
    return this.whole ? 1 : Math.floor(index / PART_LINES) + 1;
  }

  /** The part a line is in, when it is on the page. */
  partOf(id: string): number | undefined {
    const index = this.#indexOf.get(id);
    return index === undefined ? undefined : this.partAt(index);
  }

  /** A part's lines, as the index of its first line and one past its last. */
  range(part: number): [number, number] {
    if (this.whole) return [0, this.messages.length];
    const start = (part - 1) * PART_LINES;
    return [start, Math.min(start + PART_LINES, this.messages.length)];
  }

  /** The time of a part's first timed line, when it has one. */
  startOf(part: number): number | null {
    const [start, end] = this.range(part);
    for (let i = start; i < end; i++) {
      const offset = this.messages[i]?.offset;
      if (offset !== null && offset !== undefined) return offset;
    }
    return null;
  }

  /** A part's own page: the link in its text mode, at that part. */
  pageOf(part: number): string {
    const query = [this.page.verbatim && "text=verbatim", part > 1 && `part=${part}`].filter(Boolean);
    return query.length === 0 ? this.page.selfPath : `${this.page.selfPath}?${query.join("&")}`;
  }

  /** The address of a line from the page: its anchor when its part is the one shown, else its part's page. */
  href(id: string): string {
    const part = this.partOf(id);
    return part === undefined || part === this.current ? `#m-${id}` : `${this.pageOf(part)}#m-${id}`;
  }

  /** What a link to a part says: "Part 3 of 17: lines 2,001–3,000, from 1:23:20". */
  label(part: number): string {
    const [start, end] = this.range(part);
    const from = this.startOf(part);
    const lines = `lines ${(start + 1).toLocaleString("en")}–${end.toLocaleString("en")}`;
    return `Part ${part} of ${this.count}: ${lines}${from === null ? "" : `, from ${formatOffset(from)}`}`;
  }
}

/** HTML escaping for the two contexts the templates use: element text and double-quoted attribute values. */
const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
  "`": "&#96;",
};
const SPECIAL = /[&<>"'`]/g;

/**
 * Escapes a value for element text or a double-quoted attribute. Copies the runs between special
 * characters rather than calling back per match: a long transcript page escapes thousands of lines.
 */
export function escapeHtml(value: string): string {
  SPECIAL.lastIndex = 0;
  let match = SPECIAL.exec(value);
  if (match === null) return value;
  let out = "";
  let from = 0;
  while (match !== null) {
    out += value.slice(from, match.index) + HTML_ESCAPES[match[0]];
    from = match.index + 1;
    match = SPECIAL.exec(value);
  }
  return out + value.slice(from);
}

/**
 * Returns the URL, normalised, only when it is absolute http(s); anything else (javascript:, data:,
 * relative) becomes null so it never reaches an href or src.
 */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The link's own stored recordings, as the summary page service names them (`recording.wav`, `recording-2.wav`). */
const OWN_RECORDING = /^\/s\/[\w-]+\/media\/recording(-[1-9][0-9]{0,5})?(\.[a-z0-9]{1,5})?$/;

/** A page's media: an absolute http(s) URL, or the link's own recording served by Recap; null for anything else. */
export function safeMediaUrl(value: string | null | undefined): string | null {
  return value && OWN_RECORDING.test(value) ? value : safeHttpUrl(value);
}

/**
 * Markup made by `html` or `raw`, held as its pieces and joined once, into UTF-8 bytes, when it is first read
 * (`bytes`, or `html` as their text). A page built by concatenating its templates was a rope of thousands
 * of pieces, and flattening and encoding it took longer than rendering it. Markup kept as bytes
 * (`Raw.ofBytes`, a transcript line) is copied into a page's bytes as it is, never decoded or encoded again
 * (docs/ARCHITECTURE.md, Performance).
 */
export class Raw {
  #bytes: Buffer | undefined;

  constructor(private readonly pieces: readonly (string | Raw)[]) {}

  /** Markup kept as its UTF-8 bytes. */
  static ofBytes(bytes: Buffer): Raw {
    const kept = new Raw([]);
    kept.#bytes = bytes;
    return kept;
  }

  /** The markup as UTF-8 bytes: the runs of text between pieces already made are encoded, those pieces copied. */
  get bytes(): Buffer {
    if (this.#bytes === undefined) {
      const chunks: Buffer[] = [];
      const text: string[] = [];
      this.#collect(chunks, text);
      if (text.length > 0) chunks.push(Buffer.from(text.join("")));
      const [only] = chunks;
      this.#bytes = chunks.length === 1 && only !== undefined ? only : Buffer.concat(chunks);
    }
    return this.#bytes;
  }

  /** The markup as a string. */
  get html(): string {
    return this.bytes.toString("utf8");
  }

  #collect(chunks: Buffer[], text: string[]): void {
    for (const piece of this.pieces) {
      if (typeof piece === "string") text.push(piece);
      else if (piece.#bytes === undefined) piece.#collect(chunks, text);
      else {
        if (text.length > 0) chunks.push(Buffer.from(text.join("")));
        chunks.push(piece.#bytes);
        text.length = 0;
      }
    }
  }
}
export const raw = (html: string): Raw => new Raw([html]);

type Part = string | number | Raw | null | undefined | false | readonly Part[];

function render(part: Part, out: (string | Raw)[]): void {
  if (part === null || part === undefined || part === false) return;
  if (part instanceof Raw) out.push(part);
  else if (typeof part === "string") out.push(escapeHtml(part));
  else if (typeof part === "number") out.push(String(part));
  else for (const item of part) render(item, out);
}

/**
 * The templates' own indentation is noise in the output (about half of a long transcript's bytes): each
 * template's static parts are squeezed once, a newline and its indentation becoming one newline, which
 * HTML treats as the same whitespace. User values are never touched.
 */
const squeezed = new WeakMap<TemplateStringsArray, string[]>();
function squeeze(strings: TemplateStringsArray): string[] {
  let parts = squeezed.get(strings);
  if (!parts) {
    parts = strings.map((part) => part.replace(/\n[ \t]*/g, "\n").replace(/\n{2,}/g, "\n"));
    squeezed.set(strings, parts);
  }
  return parts;
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Raw {
  const parts = squeeze(strings);
  const out: (string | Raw)[] = [parts[0] ?? ""];
  for (let i = 0; i < values.length; i++) {
    render(values[i], out);
    out.push(parts[i + 1] ?? "");
  }
  return new Raw(out);
}

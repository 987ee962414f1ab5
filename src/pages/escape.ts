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

/** Tagged template: interpolations are escaped unless wrapped in `raw()`. */
export class Raw {
  constructor(readonly html: string) {}
}
export const raw = (html: string): Raw => new Raw(html);

type Part = string | number | Raw | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return "";
  if (part instanceof Raw) return part.html;
  if (typeof part === "string") return escapeHtml(part);
  if (typeof part === "number") return String(part);
  let out = "";
  for (const item of part) out += render(item);
  return out;
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
  let out = parts[0] ?? "";
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (parts[i + 1] ?? "");
  return new Raw(out);
}

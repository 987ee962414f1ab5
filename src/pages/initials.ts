/** What a name's avatar shows without a picture: the page renders it, and the page script again after a rename. */

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** A text's first `count` user-perceived characters, so an emoji, a flag or a letter with its accents stays whole. */
function firstGraphemes(text: string, count: number): string {
  let taken = "";
  let left = count;
  for (const { segment } of graphemes.segment(text)) {
    if (left-- === 0) break;
    taken += segment;
  }
  return taken;
}

/**
 * The first character of the first and last words ("Ann Lee" → "AL"), or of a single word its first two
 * ("Zoë" → "ZO"), upper-cased; characters are graphemes ("🦄 Unicorn Team" → "🦄T").
 */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const [first, ...rest] = words;
  if (first === undefined) return "";
  const last = rest.at(-1);
  const letters =
    last === undefined ? firstGraphemes(first, 2) : firstGraphemes(first, 1) + firstGraphemes(last, 1);
  return letters.toUpperCase();
}

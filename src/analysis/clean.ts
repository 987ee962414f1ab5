/**
 * Transcript noise removal for analysis only: the stored transcript keeps what was said, the analysis
 * reads a cleaned copy (no annotation marks, fillers, stutters or tokenizer spacing).
 */

/** Annotation marks of the QMSum/AMI/ICSI transcripts: {vocalsound}, {disfmarker}, {gap}, {pause}, … */
const ANNOTATION = /\{[a-z_ ]+\}/gi;

/** Hesitations and back-channel sounds that carry no content. */
const FILLER =
  /(^|[\s,.;:!?"(])(?:u+m+|u+h+m*|u+h+-?h+u+h+|u+h+ - h+u+h+|m+-?h+m+|m+ - h+m+|m{2,}|h+m+|e+r+m+|e+h+|a+h+|o+h+)(?=[\s,.;:!?")]|$)/gi;

/** Word-splitting contractions left by the source tokenizer: "it 's", "do n't", "that 'll". */
const SPLIT_CONTRACTION = /(\w) (n't|'s|'ll|'re|'ve|'d|'m)\b/gi;

/** Short words that can legitimately precede a word starting with the same letters ("a ah", "in into"). */
const REAL_SHORT_WORDS = new Set([
  "a",
  "an",
  "i",
  "in",
  "is",
  "it",
  "at",
  "on",
  "to",
  "so",
  "no",
  "do",
  "be",
  "we",
  "he",
  "me",
  "my",
  "or",
  "of",
  "as",
  "if",
  "up",
  "us",
  "by",
  "go",
  "and",
  "the",
  "for",
  "you",
  "are",
  "not",
  "but",
  "can",
  "all",
  "any",
  "our",
  "one",
  "out",
  "how",
  "who",
  "now",
  "new",
  "was",
  "has",
  "had",
  "get",
  "see",
  "use",
  "two",
  "ten",
  "too",
  "then",
  "them",
  "there",
  "this",
  "that",
  "what",
  "with",
  "will",
  "some",
  "more",
  "also",
]);

/** Drops stutters: an immediately repeated word ("the the") and a cut-off prefix of the next word ("th the"). */
function removeStutters(text: string): string {
  const words = text.split(" ");
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    const next = words[i + 1];
    if (next !== undefined && /^[a-z']+$/i.test(word)) {
      const w = word.toLowerCase();
      const n = next.toLowerCase();
      if (w === n) continue;
      if (w.length <= 3 && n.length > w.length && n.startsWith(w) && !REAL_SHORT_WORDS.has(w)) continue;
    }
    kept.push(word);
  }
  return kept.join(" ");
}

/** Returns the text with transcript noise removed and punctuation attached; "" when nothing is left. */
export function cleanTranscriptText(text: string): string {
  let t = text.replace(ANNOTATION, " ").replace(/\s+/g, " ");
  t = t.replace(FILLER, "$1").replace(FILLER, "$1");
  t = t.replace(SPLIT_CONTRACTION, "$1$2");
  // "head - final" → "head-final"; "Mm - hmm" was handled as a filler above.
  t = t.replace(/(\w) - (\w)/g, "$1-$2");
  t = t.replace(/\s+/g, " ").trim();
  t = removeStutters(t);
  // Punctuation spacing from the source tokenizer, then punctuation left orphaned by removals.
  t = t.replace(/ ([,.;:!?%])/g, "$1");
  t = t.replace(/([,;:])(?:\s*[,;:])+/g, "$1");
  t = t.replace(/[,;:]\s*([.?!])/g, "$1");
  t = t.replace(/([.?!])(?:\s*[,.;:])+/g, "$1");
  t = t.replace(/^[\s,.;:!?'"-]+/, "");
  t = t.replace(/\s+/g, " ").trim();
  if (!/[a-z0-9]/i.test(t)) return "";
  // A removed opening filler can leave a lowercase sentence start; the source capitalises sentences.
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/**
 * What the source transcripts (QMSum/AMI/ICSI) write besides the words: annotation marks and tokenizer
 * spacing. Shared by the analysis's cleaning (clean.ts) and the page's display text (pages/reading-text.ts).
 */
import { unicodeWords } from "./unicode-words.ts";

/** Annotation marks: {vocalsound}, {disfmarker}, {gap}, {pause}, … */
export const ANNOTATION = /\{[a-z_ ]+\}/gi;

/** The mark of a speaker breaking off mid-sentence. */
export const INTERRUPTION = /\{disfmarker\}/gi;

/** Word-splitting contractions left by the source tokenizer: "it 's", "do n't", "that 'll". */
export const SPLIT_CONTRACTION = unicodeWords(/^(?:n't|'s|'ll|'re|'ve|'d|'m)(?!\w)/i);

/** Punctuation the source tokenizer writes as a word of its own (" ."), attached to the word before. */
export const ATTACHED_PUNCTUATION = new Set([",", ".", ";", ":", "!", "?", "%"]);

/** A quotation the source tokenizer wrote with spaced marks: ' say " form " here ' → ' say "form" here '. */
export const SPACED_QUOTATION = /"\s+([^"]*?)\s+"/g;
export const closeQuotation = (text: string) => text.replace(SPACED_QUOTATION, '"$1"');

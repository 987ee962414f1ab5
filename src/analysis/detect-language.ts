/**
 * Which language a conversation's lines are in, told by franc: read in the analysis worker only, apart from
 * language.ts, which the main process reads for notices without loading franc's trigram tables.
 */
import { francAll } from "franc";

/** How much of a conversation is read to tell its language: some 800 words, plenty for trigrams, and bounded. */
const SAMPLE_CHARS = 5_000;

/**
 * Latin-script text with fewer letters than this is too short for trigrams to tell English from its
 * neighbours ("I will look it up." reads as Low German); it is taken to be in the default language.
 */
const MIN_LATIN_LETTERS = 100;

/** English is chosen when its trigram score is at least this share of the best one (Scots and Low German score close to it). */
const ENGLISH_MARGIN = 0.9;

const LETTER = /\p{L}/u;
const LATIN_LETTER = /\p{Script=Latin}/u;

/** An ISO 639-3 code (franc's) as a BCP 47 tag with the language's most likely region, as Symbl wrote them: "spa" → "es-ES". */
function bcp47(iso6393: string): string {
  const locale = new Intl.Locale(Intl.getCanonicalLocales(iso6393)[0] ?? iso6393).maximize();
  return locale.region === undefined ? locale.language : `${locale.language}-${locale.region}`;
}

/**
 * The language of a conversation's lines as a BCP 47 tag ("en-US", "es-ES", "zh-CN", "ar-EG"), told by
 * franc's trigram and script models from the first SAMPLE_CHARS characters; null when the text is too
 * short to tell.
 */
export function detectLanguage(texts: readonly string[]): string | null {
  let sample = "";
  for (const text of texts) {
    if (sample.length >= SAMPLE_CHARS) break;
    sample += `${text}\n`;
  }
  sample = sample.slice(0, SAMPLE_CHARS);
  let letters = 0;
  let latin = 0;
  for (const char of sample) {
    if (!LETTER.test(char)) continue;
    letters++;
    if (LATIN_LETTER.test(char)) latin++;
  }
  if (letters === 0 || (latin * 2 >= letters && latin < MIN_LATIN_LETTERS)) return null;
  // Latin-script text is long enough by now; a line of another script is told by its script alone.
  const scores = francAll(sample, { minLength: 1 });
  const best = scores[0]?.[0];
  if (best === undefined || best === "und") return null;
  const english = scores.find(([code]) => code === "eng");
  return bcp47(english !== undefined && english[1] >= ENGLISH_MARGIN ? "eng" : best);
}

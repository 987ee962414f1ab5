/**
 * The language a conversation is in, and whether the analysis reads it. The analysis is English (wink's
 * English model, chrono's English parser, the English word lists of lexicon.ts): over any other language
 * it made an English template of foreign words ("The meeting was about the cliente, the antes del
 * viernes…"), so a conversation in another language gets a notice instead (docs/ANALYSIS.md, Language).
 */
import { francAll } from "franc";

/** What a conversation is taken to be in when its text is too short to tell: Symbl's default. */
export const DEFAULT_LANGUAGE_CODE = "en-US";

/** The language subtag of the one language the analysis reads. */
const ANALYSED_LANGUAGE = "en";

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
const languageNames = new Intl.DisplayNames(["en"], { type: "language" });

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

/** Whether the analysis reads the language of this BCP 47 tag (any English: "en-US", "en-GB", "en"). */
export function isAnalysedLanguage(languageCode: string): boolean {
  return languageCode.split("-")[0]?.toLowerCase() === ANALYSED_LANGUAGE;
}

/** What a reader is told when the analysis does not read the conversation's language; null when it does. */
export function languageNotice(languageCode: string): string | null {
  if (isAnalysedLanguage(languageCode)) return null;
  const language = languageCode.split("-")[0] ?? languageCode;
  const name = languageNames.of(language) ?? languageCode;
  return `This conversation is in ${name} (${languageCode}). Recap's analysis reads English only, so it has no summary, topics or insights.`;
}

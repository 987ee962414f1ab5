/**
 * The language a conversation is in, and whether the analysis reads it. The analysis is English (wink's
 * English model, chrono's English parser, the English word lists of lexicon.ts): over any other language
 * it made an English template of foreign words ("The meeting was about the cliente, the antes del
 * viernes…"), so a conversation in another language gets a notice instead (docs/ANALYSIS.md, Language).
 */

/** What a conversation is taken to be in when its text is too short to tell: Symbl's default. */
export const DEFAULT_LANGUAGE_CODE = "en-US";

/** The language subtag of the one language the analysis reads. */
const ANALYSED_LANGUAGE = "en";

const languageNames = new Intl.DisplayNames(["en"], { type: "language" });

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

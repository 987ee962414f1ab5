import type { RecognizedWord } from "../engine.ts";

export interface TimedTokens {
  tokens: string[];
  /** Each token's start in seconds from the utterance's first sample. */
  timestamps: number[];
  /** Each token's duration in seconds, where the model gives one; else empty. */
  durations: number[];
}

const BYTE_TOKEN = /^<0x([0-9A-F]{2})>$/;
const PUNCTUATION_ONLY = /^[\p{P}\p{S}]+$/u;
/** Scripts written without spaces: each token of them is a word of its own. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

interface WordUnderWay {
  bytes: number[];
  startSeconds: number;
  endSeconds: number | null;
}

/**
 * Merges a recogniser's tokens into words with times in milliseconds from the start of the input. A word begins
 * at a SentencePiece word-start piece (`▁`, which sherpa-onnx hands over as a leading space) or at a token of an
 * unspaced script; other pieces, punctuation and byte-fallback tokens (`<0xE2>`) continue the word before. A word
 * ends at its last token's end where the model gives durations (NeMo TDT), else where the next word begins, the
 * last one at the utterance's end. Without token timestamps (Whisper, Moonshine) there are no words.
 */
export function wordsFromTokens(
  timed: TimedTokens,
  utteranceStartMs: number,
  utteranceEndMs: number,
): RecognizedWord[] {
  const { tokens, timestamps, durations } = timed;
  if (tokens.length === 0 || timestamps.length !== tokens.length) return [];
  const hasDurations = durations.length === tokens.length;
  const words: WordUnderWay[] = [];
  tokens.forEach((raw, index) => {
    const spaced = raw.replaceAll("\u2581", " ");
    // punctuation belongs to the word before it, whatever space the model put between them
    const token = PUNCTUATION_ONLY.test(spaced.trim()) ? spaced.trim() : spaced;
    const start = timestamps[index] ?? 0;
    const end = hasDurations ? start + (durations[index] ?? 0) : null;
    const byte = BYTE_TOKEN.exec(token);
    const bytes = byte ? [Number.parseInt(byte[1] ?? "0", 16)] : [...new TextEncoder().encode(token)];
    const current = words.at(-1);
    const startsWord = current === undefined || (!byte && (token.startsWith(" ") || UNSPACED.test(token)));
    if (startsWord) words.push({ bytes, startSeconds: start, endSeconds: end });
    else {
      current.bytes.push(...bytes);
      if (end !== null) current.endSeconds = end;
    }
  });
  const decoder = new TextDecoder();
  const toMs = (seconds: number) => Math.round(utteranceStartMs + seconds * 1000);
  return words
    .map((word, index) => {
      const startMs = Math.min(toMs(word.startSeconds), utteranceEndMs);
      const next = words[index + 1];
      const endMs =
        word.endSeconds !== null
          ? toMs(word.endSeconds)
          : next !== undefined
            ? toMs(next.startSeconds)
            : utteranceEndMs;
      return {
        text: decoder.decode(Uint8Array.from(word.bytes)).trim(),
        startMs,
        endMs: Math.max(startMs, Math.min(endMs, utteranceEndMs)),
      };
    })
    .filter((word) => word.text !== "");
}

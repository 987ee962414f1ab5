/**
 * The real human voice the speech tests hold the real Silero VAD to: test/fixtures/media/jfk.wav (its README gives
 * the source), where its phrases are, and how near the VAD's utterances must come to them.
 */
import { join } from "node:path";

export const JFK = join(import.meta.dirname, "..", "fixtures", "media", "jfk.wav");

/** A stretch of speech put in a recording: what is said, and from when to when (seconds). */
export interface Speech {
  text: string;
  start: number;
  end: number;
}

/**
 * Where the voice is in jfk.wav (seconds), read from its energy in 10 ms frames: each phrase from the frame
 * that rises above −30 dBFS out of the room's −40 dBFS to the one that falls back (test/fixtures/media/README.md).
 * The crowd's noise rises under "country" (10.2 s) and runs to the end of the file, which both VADs hear as
 * the speech going on, so the last utterance ends with the recording.
 */
export const JFK_PHRASES: Speech[] = [
  { text: "And so, my fellow Americans,", start: 0.33, end: 2.11 },
  { text: "ask not", start: 3.29, end: 4.29 },
  { text: "what your country can do for you;", start: 5.41, end: 7.53 },
  { text: "ask what you can do for your country.", start: 8.19, end: 11.0 },
];

/**
 * How far an utterance's start and end may lie from its speech's (seconds), by the rate the audio was sent or
 * recorded at. Measured (docs/MEDIA.md, The VAD): within 170 ms at 16 and 48 kHz; at 8 kHz, telephone audio with
 * nothing above 4 kHz, v4 ended "ask not" 330 ms after it in a live stream and began espeak-ng's "Please" 270 ms
 * late.
 */
export const VAD_TOLERANCE_SECONDS = { 8_000: 0.35, 16_000: 0.2, 48_000: 0.2 } as const;

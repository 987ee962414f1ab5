/**
 * Real audio for the media tests, made by the tools a user has: sox for tones and silence, espeak-ng for a
 * voice; decodeAudio (src/media/ffmpeg.ts) decodes any of it to the 16 kHz mono float samples the engines take.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A stretch of the recording: a tone (Hz), a sentence spoken by espeak-ng (in its default voice unless `voice` names
 * one, such as "en+f2"), or silence.
 */
export type Part = { tone: number; seconds: number } | { say: string; voice?: string } | { silence: number };

const RATE = 44_100;

/**
 * Writes `parts` one after another to `path` (its extension picks the format: .flac, .wav, …) as a 44.1 kHz
 * stereo file, so decoding it exercises resampling and downmixing.
 */
export function writeRecording(path: string, parts: Part[]): void {
  const dir = mkdtempSync(join(tmpdir(), "recap-audio-"));
  try {
    const files = parts.map((part, index) => {
      const file = join(dir, `${index}.wav`);
      const format = ["-r", String(RATE), "-c", "2", "-b", "16"];
      if ("tone" in part) {
        execFileSync("sox", [
          "-n",
          ...format,
          file,
          "synth",
          String(part.seconds),
          "sine",
          String(part.tone),
          "vol",
          "0.5",
        ]);
      } else if ("silence" in part) {
        execFileSync("sox", ["-n", ...format, file, "trim", "0", String(part.silence)]);
      } else {
        const spoken = join(dir, `${index}-espeak.wav`);
        execFileSync("espeak-ng", [...(part.voice ? ["-v", part.voice] : []), "-w", spoken, part.say]);
        execFileSync("sox", [spoken, ...format, file]);
      }
      return file;
    });
    execFileSync("sox", [...files, path]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The duration of a recording in milliseconds, as sox reads it. */
export function durationMs(path: string): number {
  return Math.round(Number(execFileSync("soxi", ["-D", path], { encoding: "utf8" })) * 1000);
}

/** How long espeak-ng takes to say `text`, in milliseconds. */
export function spokenMs(text: string): number {
  const dir = mkdtempSync(join(tmpdir(), "recap-audio-"));
  try {
    const file = join(dir, "say.wav");
    execFileSync("espeak-ng", ["-w", file, text]);
    return durationMs(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Decodes a recording to the 16 kHz mono 16-bit WAV file a diarizer reads. */
export function writeWav16k(source: string, target: string): void {
  execFileSync("ffmpeg", [
    "-nostdin",
    "-v",
    "error",
    "-y",
    "-i",
    source,
    "-ac",
    "1",
    "-ar",
    "16000",
    "-c:a",
    "pcm_s16le",
    target,
  ]);
}

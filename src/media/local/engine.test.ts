import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { durationMs, spokenMs, writeRecording, type Part } from "../../../test/helpers/audio.ts";
import { decodeAudio, type FfmpegPaths } from "../ffmpeg.ts";
import { installEnergyVad, installToneRecogniser } from "../../../scripts/speech-models/models.ts";
import type { SpeechEngine } from "../engine.ts";
import { ModelNotInstalled } from "../model-store.ts";
import { createLocalEngine } from "./engine.ts";

/** ffmpeg as Debian installs it, on the PATH. */
const FFMPEG: FfmpegPaths = { ffmpegPath: "ffmpeg", ffprobePath: "ffprobe" };

/** One model frame (40 ms) and one VAD window (32 ms): how finely the generated models can place anything. */
const FRAME_MS = 40;
const WINDOW_MS = 32;

/** Where each part of a recording starts, in ms. */
function starts(parts: Part[]): number[] {
  let at = 0;
  return parts.map((part) => {
    const start = at;
    at += "tone" in part ? part.seconds * 1000 : "silence" in part ? part.silence * 1000 : spokenMs(part.say);
    return start;
  });
}

const options = () => ({ vocabulary: [], signal: new AbortController().signal });

describe("the local engine on generated models", () => {
  let dir: string;
  let engine: SpeechEngine;
  const tones: Part[] = [
    { silence: 0.5 },
    { tone: 300, seconds: 0.4 }, // ▁lo
    { silence: 0.2 },
    { tone: 1000, seconds: 0.3 }, // w
    { silence: 0.2 },
    { tone: 2000, seconds: 0.4 }, // ▁hi
    { silence: 1.0 }, // longer than the 500 ms pause that ends an utterance
    { tone: 2000, seconds: 0.4 }, // ▁hi
    { silence: 1.0 },
  ];
  let tonesFile: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "recap-local-engine-"));
    installEnergyVad(dir);
    installToneRecogniser(dir);
    tonesFile = join(dir, "tones.flac");
    writeRecording(tonesFile, tones);
    engine = await createLocalEngine({ modelsDir: dir, model: "tone-ctc" });
  });

  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("recognises each utterance's exact tokens, merged into words, with their times", async () => {
    const at = starts(tones);
    const segments = await engine.transcribe(decodeAudio(FFMPEG, tonesFile), options());

    expect(segments.map((s) => s.text)).toEqual(["low hi", "hi"]);
    const [first, second] = segments;
    expect(first?.words.map((w) => w.text)).toEqual(["low", "hi"]);
    expect(second?.words.map((w) => w.text)).toEqual(["hi"]);
    // each word starts within a model frame of its first tone; a CTC model gives no durations, so a word
    // ends where the next begins, and the last at the utterance's end, where its last tone stops
    const [low, hi] = first?.words ?? [];
    expect(Math.abs((low?.startMs ?? 0) - at[1]!)).toBeLessThanOrEqual(FRAME_MS);
    expect(low?.endMs).toBe(hi?.startMs);
    expect(Math.abs((hi?.startMs ?? 0) - at[5]!)).toBeLessThanOrEqual(FRAME_MS);
    expect(first?.startMs).toBe(low?.startMs);
    expect(first?.endMs).toBe(hi?.endMs);
    expect(first!.endMs - (at[5]! + 400)).toBeGreaterThanOrEqual(0);
    expect(first!.endMs - (at[5]! + 400)).toBeLessThanOrEqual(3 * WINDOW_MS);
    expect(Math.abs(second!.startMs - at[7]!)).toBeLessThanOrEqual(FRAME_MS);
    expect(second!.endMs - (at[7]! + 400)).toBeLessThanOrEqual(3 * WINDOW_MS);
  });

  it("cuts a spoken recording into its sentences", async () => {
    const speech: Part[] = [
      { silence: 0.5 },
      { say: "Hello there, this is the first sentence." },
      { silence: 1.5 },
      { say: "And here is another one." },
      { silence: 0.5 },
    ];
    const file = join(dir, "speech.flac");
    writeRecording(file, speech);
    const at = starts(speech);

    const segments = await engine.transcribe(decodeAudio(FFMPEG, file), options());

    // The generated recogniser hears tones, not words: what matters here is where the VAD cut. espeak-ng's
    // files begin and end with some silence of their own, so each utterance lies within its part.
    expect(segments).toHaveLength(2);
    segments.forEach((segment, index) => {
      const spoken = at[1 + 2 * index]!;
      const ended = at[2 + 2 * index]!;
      expect(segment.startMs).toBeGreaterThanOrEqual(spoken - WINDOW_MS);
      expect(segment.endMs).toBeLessThanOrEqual(ended + 3 * WINDOW_MS);
      expect(segment.endMs - segment.startMs).toBeGreaterThan((ended - spoken) / 2);
    });
  });

  it("reports progress up to the whole input", async () => {
    const progress: number[] = [];
    await engine.transcribe(decodeAudio(FFMPEG, tonesFile), {
      ...options(),
      onProgress: (ms) => progress.push(ms),
    });

    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(Math.abs(progress.at(-1)! - durationMs(tonesFile))).toBeLessThanOrEqual(1);
  });

  it("stops when the signal aborts, and refuses to start on an aborted one", async () => {
    const controller = new AbortController();
    let chunksRead = 0;
    async function* audio() {
      for await (const chunk of decodeAudio(FFMPEG, tonesFile)) {
        chunksRead++;
        yield chunk;
      }
    }
    const transcription = engine.transcribe(audio(), {
      vocabulary: [],
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(transcription).rejects.toMatchObject({ name: "AbortError" });
    expect(chunksRead).toBe(1);

    await expect(
      engine.transcribe(audio(), { vocabulary: [], signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("refuses a language its model does not know", async () => {
    await expect(
      engine.transcribe(decodeAudio(FFMPEG, tonesFile), { ...options(), languageCode: "de-DE" }),
    ).rejects.toThrow("the local model tone-ctc does not recognise de-DE");
  });

  it("names a model that is not installed, or whose files changed, before loading anything", async () => {
    await expect(createLocalEngine({ modelsDir: dir, model: "parakeet-tdt-0.6b-v2" })).rejects.toThrow(
      new ModelNotInstalled(
        `model parakeet-tdt-0.6b-v2 is not installed in ${dir} (run \`bin/recap models pull parakeet-tdt-0.6b-v2\`)`,
      ),
    );
    installToneRecogniser(dir, "truncated");
    truncateSync(join(dir, "truncated", "model.onnx"), 10);
    await expect(createLocalEngine({ modelsDir: dir, model: "truncated" })).rejects.toThrow(
      "model truncated: model.onnx is missing or changed since it was installed (pull it again with --force)",
    );
    installToneRecogniser(dir, "renamed");
    writeFileSync(join(dir, "renamed", "recap-model.json"), JSON.stringify({ name: "tone-ctc" }));
    await expect(createLocalEngine({ modelsDir: dir, model: "renamed" })).rejects.toThrow(
      "model renamed: recap-model.json is not a manifest Recap wrote (pull it again with --force)",
    );
    await expect(createLocalEngine({ modelsDir: dir, model: "silero-vad" })).rejects.toThrow(
      "model silero-vad is a vad, not a recogniser",
    );
  });

  it("refuses a VAD file changed in place rather than let sherpa-onnx abort the process on it", async () => {
    installEnergyVad(dir, "damaged-vad");
    const file = join(dir, "damaged-vad", "silero_vad.onnx");
    writeFileSync(file, Buffer.alloc(readFileSync(file).length, 1));
    await expect(
      createLocalEngine({ modelsDir: dir, model: "tone-ctc", vad: "damaged-vad" }),
    ).rejects.toThrow(
      "model damaged-vad: silero_vad.onnx is missing or changed since it was installed (pull it again with --force)",
    );
  });
});

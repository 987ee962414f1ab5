import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRecording, writeWav16k, type Part } from "../../../test/helpers/audio.ts";
import { installToneDiarization, VOICES } from "../../../scripts/speech-models/models.ts";
import type { Diarizer } from "../engine.ts";
import { createLocalDiarizer } from "./diarizer.ts";

/** One frame of the generated segmentation model. */
const FRAME_MS = 20;
const [LOW, HIGH] = VOICES;

describe("the local diarizer on generated models", () => {
  let dir: string;
  let diarizer: Diarizer;
  let conversation: string;
  // HIGH speaks first, so it is speaker 0
  const parts: Part[] = [
    { silence: 0.5 },
    { tone: HIGH, seconds: 2 },
    { silence: 0.5 },
    { tone: LOW, seconds: 2 },
    { silence: 0.5 },
    { tone: HIGH, seconds: 1.5 },
    { silence: 0.5 },
    { tone: LOW, seconds: 1.5 },
    { silence: 0.5 },
  ];
  const turns = [
    { speaker: 0, startMs: 500, endMs: 2500 },
    { speaker: 1, startMs: 3000, endMs: 5000 },
    { speaker: 0, startMs: 5500, endMs: 7000 },
    { speaker: 1, startMs: 7500, endMs: 9000 },
  ];
  const options = () => ({ signal: new AbortController().signal });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "recap-diarizer-"));
    const models = installToneDiarization(dir);
    diarizer = createLocalDiarizer({ modelsDir: dir, ...models });
    writeRecording(join(dir, "conversation.flac"), parts);
    conversation = join(dir, "conversation.wav");
    writeWav16k(join(dir, "conversation.flac"), conversation);
  });

  afterAll(async () => {
    await diarizer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("tells two voices apart, numbering speakers in order of appearance", async () => {
    const found = await diarizer.diarize(conversation, options());

    expect(found.map((turn) => turn.speaker)).toEqual(turns.map((turn) => turn.speaker));
    found.forEach((turn, index) => {
      expect(Math.abs(turn.startMs - turns[index]!.startMs)).toBeLessThanOrEqual(FRAME_MS);
      expect(Math.abs(turn.endMs - turns[index]!.endMs)).toBeLessThanOrEqual(FRAME_MS);
    });
  });

  it("makes as many speakers as the caller says there are", async () => {
    const found = await diarizer.diarize(conversation, { ...options(), speakerCount: 1 });
    expect(new Set(found.map((turn) => turn.speaker))).toEqual(new Set([0]));
    const again = await diarizer.diarize(conversation, { ...options(), speakerCount: 2 });
    expect(again.map((turn) => turn.speaker)).toEqual([0, 1, 0, 1]);
  });

  it("reports progress as a rising fraction ending at 1", async () => {
    const progress: number[] = [];
    await diarizer.diarize(conversation, { ...options(), onProgress: (fraction) => progress.push(fraction) });
    expect(progress.length).toBeGreaterThan(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
  });

  it("answers an abort at once, and diarizes again afterwards", async () => {
    await expect(diarizer.diarize(conversation, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    const controller = new AbortController();
    let progressCalls = 0;
    const aborted = diarizer.diarize(conversation, {
      signal: controller.signal,
      onProgress: () => {
        progressCalls++;
        controller.abort();
      },
    });
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    expect(await diarizer.diarize(conversation, options())).toHaveLength(turns.length);
    // the abandoned run went on to its end, without reporting to a caller who had left
    expect(progressCalls).toBe(1);
  });

  it("refuses a speaker count that is not a whole number from 1", async () => {
    await expect(diarizer.diarize(conversation, { ...options(), speakerCount: 0 })).rejects.toThrow(
      "speakerCount must be a whole number from 1 (got 0)",
    );
  });

  it("refuses a model file changed in place rather than let sherpa-onnx abort the process on it", () => {
    const other = mkdtempSync(join(tmpdir(), "recap-diarizer-damaged-"));
    try {
      const models = installToneDiarization(other);
      const file = join(other, models.embedding, "3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx");
      writeFileSync(file, Buffer.alloc(readFileSync(file).length, 1));
      expect(() => createLocalDiarizer({ modelsDir: other, ...models })).toThrow(
        "model campplus-en-voxceleb: 3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx is missing or changed since it was installed (pull it again with --force)",
      );
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("refuses a WAV file that is not at 16 kHz", async () => {
    const file = join(dir, "8k.wav");
    execFileSync("sox", [join(dir, "conversation.flac"), "-r", "8000", "-c", "1", file]);
    await expect(diarizer.diarize(file, options())).rejects.toThrow(
      `${file} is sampled at 8000 Hz; the diarizer takes 16000 Hz`,
    );
  });
});

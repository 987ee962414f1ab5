import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeRecording } from "../../test/helpers/audio.ts";
import { decodeAudio, type FfmpegPaths } from "./ffmpeg.ts";

/** ffmpeg as Debian installs it, on the PATH. */
const FFMPEG: FfmpegPaths = { ffmpegPath: "ffmpeg", ffprobePath: "ffprobe" };

const dir = mkdtempSync(join(tmpdir(), "recap-decode-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function all(path: string): Promise<Float32Array> {
  const chunks: Float32Array[] = [];
  for await (const chunk of decodeAudio(FFMPEG, path)) chunks.push(chunk);
  const samples = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    samples.set(chunk, at);
    at += chunk.length;
  }
  return samples;
}

describe("decodeAudio", () => {
  it("turns a 44.1 kHz stereo file into 16 kHz mono samples", async () => {
    const file = join(dir, "tone.flac");
    writeRecording(file, [{ silence: 0.5 }, { tone: 440, seconds: 1 }]);
    const samples = await all(file);
    expect(samples.length).toBe(24_000);
    const rms = (from: number, to: number) =>
      Math.sqrt(samples.subarray(from, to).reduce((sum, x) => sum + x * x, 0) / (to - from));
    expect(rms(0, 7_000)).toBeLessThan(1e-4);
    // both channels hold the sine at amplitude 0.5; ffmpeg mixes each in at -3 dB, so amplitude 0.5·√2, RMS 0.5
    expect(rms(9_000, 23_000)).toBeCloseTo(0.5, 2);
  });

  it("fails with ffmpeg's reason when the file is not audio", async () => {
    const file = join(dir, "not-audio.mp3");
    writeFileSync(file, "hello");
    await expect(all(file)).rejects.toThrow(`ffmpeg could not decode ${file}:`);
  });
});

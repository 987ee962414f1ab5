import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeEnergyVad } from "../../scripts/speech-models/models.ts";
import { SAMPLE_RATE } from "./engine.ts";
import { VadPool } from "./local/segmenter.ts";
import { quietestPause, vadPauseFinder, type PauseFinder } from "./pauses.ts";

const dir = mkdtempSync(join(tmpdir(), "recap-pauses-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 16 kHz audio from parts: a tone (a voice) or a pause, over a noise floor (a room) at `noise` amplitude. */
function audio(parts: ({ tone: number; seconds: number } | { pause: number })[], noise = 0): Float32Array {
  const total = parts.reduce((sum, part) => sum + ("tone" in part ? part.seconds : part.pause), 0);
  const samples = new Float32Array(Math.round(total * SAMPLE_RATE));
  let seed = 19;
  let at = 0;
  for (const part of parts) {
    const length = Math.round(("tone" in part ? part.seconds : part.pause) * SAMPLE_RATE);
    for (let i = 0; i < length; i++) {
      seed = (seed * 16_807) % 2_147_483_647;
      const floor = noise * (seed / 2_147_483_647 - 0.5);
      const voice = "tone" in part ? 0.5 * Math.sin((2 * Math.PI * part.tone * i) / SAMPLE_RATE) : 0;
      samples[at + i] = voice + floor;
    }
    at += length;
  }
  return samples;
}

const seconds = (sample: number) => sample / SAMPLE_RATE;

describe.each([
  ["the quietest stretch by energy", () => quietestPause],
  ["a VAD", () => vadPauseFinder(new VadPool({ vadModel: energyVad() }))],
])("a cut found by %s", (_name, finder: () => PauseFinder) => {
  const find = (samples: Float32Array, from: number, to: number) =>
    finder()(samples, from * SAMPLE_RATE, to * SAMPLE_RATE);

  it("falls in the middle of the pause between two utterances, in a quiet room or a noisy one", () => {
    for (const noise of [0, 0.01]) {
      const samples = audio(
        [{ tone: 440, seconds: 3 }, { pause: 0.8 }, { tone: 300, seconds: 2.2 }, { pause: 1 }],
        noise,
      );
      // The window: the 5 s before the part's end at 6 s.
      const cut = seconds(find(samples, 1, 6));
      expect(cut).toBeGreaterThan(3.2);
      expect(cut).toBeLessThan(3.6);
    }
  });

  it("takes the longest pause in the window", () => {
    const samples = audio([
      { tone: 440, seconds: 1 },
      { pause: 0.6 },
      { tone: 300, seconds: 1 },
      { pause: 1.5 },
      { tone: 440, seconds: 1.9 },
    ]);
    const cut = seconds(find(samples, 0, 6));
    expect(cut).toBeGreaterThan(2.6);
    expect(cut).toBeLessThan(4.1);
  });
});

it("quietestPause cuts speech without a pause at its quietest stretch", () => {
  const samples = audio([
    { tone: 440, seconds: 2 },
    { tone: 300, seconds: 0.3 },
    { tone: 440, seconds: 2 },
  ]);
  // a quieter word in the middle: the 300 Hz tone at a tenth of the level
  samples.subarray(2 * SAMPLE_RATE, 2.3 * SAMPLE_RATE).forEach((value, i, part) => (part[i] = value / 10));
  const cut = seconds(quietestPause(samples, 0, samples.length));
  expect(cut).toBeGreaterThan(2);
  expect(cut).toBeLessThan(2.3);
});

/** The generated energy VAD: the tones here are speech to it, as they would not be to Silero. */
let vadFile: string | null = null;
function energyVad(): string {
  if (vadFile === null) {
    vadFile = join(dir, "vad.onnx");
    writeEnergyVad(vadFile);
  }
  return vadFile;
}

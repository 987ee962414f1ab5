import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRecording, writeWav16k } from "../../../test/helpers/audio.ts";
import {
  installSpectralEmbedding,
  installToneDiarization,
  VOICES,
} from "../../../scripts/speech-models/models.ts";
import { SAMPLE_RATE } from "../engine.ts";
import { readWavSpans } from "../wav.ts";
import { createVoiceEmbedder, type VoiceEmbedder } from "./voice-embedding.ts";

const [LOW, HIGH] = VOICES;

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
};

describe("voice embeddings on the generated embedding model", () => {
  let dir: string;
  let embedder: VoiceEmbedder;
  let wav: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "recap-voice-"));
    installToneDiarization(dir);
    embedder = createVoiceEmbedder({ modelsDir: dir });
    // LOW 0–2 s, HIGH 2.5–4.5 s, LOW again 5–7 s.
    writeRecording(join(dir, "voices.flac"), [
      { tone: LOW, seconds: 2 },
      { silence: 0.5 },
      { tone: HIGH, seconds: 2 },
      { silence: 0.5 },
      { tone: LOW, seconds: 2 },
    ]);
    wav = join(dir, "voices.wav");
    writeWav16k(join(dir, "voices.flac"), wav);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const span = (startMs: number, endMs: number) => readWavSpans(wav, [{ startMs, endMs }], 60 * SAMPLE_RATE);

  it("names the installed model and its dimension", () => {
    expect(embedder.model).toBe("campplus-en-voxceleb");
    expect(embedder.dimension).toBe(VOICES.length);
  });

  it("gives two voices clearly different vectors, and one voice twice nearly the same", async () => {
    const low = embedder.embed(await span(100, 1900));
    const high = embedder.embed(await span(2600, 4400));
    const lowAgain = embedder.embed(await span(5100, 6900));

    expect(low).toHaveLength(embedder.dimension);
    expect(cosine(low, high)).toBeLessThan(0.2);
    expect(cosine(low, lowAgain)).toBeGreaterThan(0.99);
  });

  it("cuts only the spans asked for, up to the most samples asked for", async () => {
    const two = await readWavSpans(
      wav,
      [
        { startMs: 0, endMs: 1000 },
        { startMs: 5000, endMs: 5500 },
      ],
      60 * SAMPLE_RATE,
    );
    expect(two).toHaveLength(1.5 * SAMPLE_RATE);
    expect(await readWavSpans(wav, [{ startMs: 0, endMs: 7000 }], SAMPLE_RATE)).toHaveLength(SAMPLE_RATE);
  });
});

describe("voice embeddings on the generated spectral-envelope model", () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "recap-voice-"));
    installSpectralEmbedding(dir);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const said = (name: string, voice: string, sentence: string) => {
    writeRecording(join(dir, `${name}.flac`), [{ say: sentence, voice }]);
    writeWav16k(join(dir, `${name}.flac`), join(dir, `${name}.wav`));
    return readWavSpans(join(dir, `${name}.wav`), [{ startMs: 0, endMs: 60_000 }], 60 * SAMPLE_RATE);
  };

  it("scores two sentences of one espeak-ng voice higher than the same sentence in two voices", async () => {
    const embedder = createVoiceEmbedder({ modelsDir: dir });
    const first = "We should review the budget before the meeting on Thursday afternoon.";
    const second = "Please send me the latest report and the notes from yesterday's call.";
    const woman = embedder.embed(await said("woman", "en+f2", first));
    const womanAgain = embedder.embed(await said("woman-again", "en+f2", second));
    const man = embedder.embed(await said("man", "en+m3", first));

    expect(embedder.dimension).toBe(80);
    expect(cosine(woman, womanAgain)).toBeGreaterThan(cosine(woman, man) + 0.1);
  });
});

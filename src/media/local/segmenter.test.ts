import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeEnergyVad } from "../../../scripts/speech-models/models.ts";
import { VadPool, type SpeechSegmenter, type SpeechSegment } from "./segmenter.ts";

const dir = mkdtempSync(join(tmpdir(), "recap-segmenter-"));
const vadModel = join(dir, "vad.onnx");
writeEnergyVad(vadModel);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `seconds` of a 440 Hz tone, or of silence. */
function audio(parts: { tone?: boolean; seconds: number }[]): Float32Array {
  const samples = new Float32Array(parts.reduce((n, part) => n + part.seconds * 16_000, 0));
  let at = 0;
  for (const part of parts) {
    const length = part.seconds * 16_000;
    if (part.tone)
      for (let i = 0; i < length; i++) samples[at + i] = 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16_000);
    at += length;
  }
  return samples;
}

function run(segmenter: SpeechSegmenter, samples: Float32Array, chunk: number): SpeechSegment[] {
  const segments: SpeechSegment[] = [];
  for (let at = 0; at < samples.length; at += chunk)
    segments.push(...segmenter.push(samples.subarray(at, at + chunk)));
  return [...segments, ...segmenter.flush()];
}

const spans = (segments: SpeechSegment[]) =>
  segments.map(({ startSample, samples }) => [startSample / 16, (startSample + samples.length) / 16]);

describe("SpeechSegmenter", () => {
  it("gives the same utterances whatever size the chunks pushed into it", () => {
    const input = audio([
      { seconds: 1 },
      { tone: true, seconds: 2 },
      { seconds: 1 },
      { tone: true, seconds: 1 },
      { seconds: 0.5 },
    ]);
    const whole = spans(run(new VadPool({ vadModel }).segmenter(), input, input.length));
    expect(whole).toHaveLength(2);
    for (const chunk of [160, 1000, 4096])
      expect(spans(run(new VadPool({ vadModel }).segmenter(), input, chunk))).toEqual(whole);
  });

  it("returns each utterance as soon as the pause after it is long enough, and the open one on flush", () => {
    const segmenter = new VadPool({ vadModel, minSilenceMs: 300 }).segmenter();
    expect(segmenter.push(audio([{ seconds: 0.5 }, { tone: true, seconds: 1 }]))).toEqual([]);
    const ended = segmenter.push(audio([{ seconds: 0.5 }]));
    expect(ended).toHaveLength(1);
    expect(segmenter.push(audio([{ tone: true, seconds: 0.5 }]))).toEqual([]);
    const open = segmenter.flush();
    expect(open).toHaveLength(1);
    // the last tone ran from 2.0 s to the end of the input at 2.5 s; nothing is returned past the input's end
    expect(open[0]!.startSample + open[0]!.samples.length).toBe(2.5 * 16_000);
    expect(segmenter.processedMs).toBe(2500);
  });

  it("cuts speech that never pauses at the longest utterance, holding no more than that", () => {
    const segments = run(
      new VadPool({ vadModel, maxSegmentMs: 5000 }).segmenter(),
      audio([{ tone: true, seconds: 60 }]),
      16_000,
    );

    expect(segments.length).toBeGreaterThanOrEqual(12);
    for (const segment of segments) expect(segment.samples.length).toBeLessThanOrEqual(5 * 16_000);
    // contiguous: no speech lost between the cuts
    segments.slice(1).forEach((segment, i) => {
      const before = segments[i]!;
      expect(segment.startSample).toBe(before.startSample + before.samples.length);
    });
    expect(segments.at(-1)!.startSample + segments.at(-1)!.samples.length).toBe(60 * 16_000);
  });

  it("hears narrowband input through its view but hands back the samples pushed, in chunks of any size", () => {
    const input = audio([
      { seconds: 1 },
      { tone: true, seconds: 2 },
      { seconds: 1 },
      { tone: true, seconds: 20 },
      { seconds: 0.5 },
    ]);
    const pool = new VadPool({ vadModel, maxSegmentMs: 5000 });
    const wideband = spans(run(pool.segmenter(), input, 4096));
    for (const chunk of [160, 1000, 4096]) {
      const segments = run(pool.segmenter({ sourceSampleRate: 8_000 }), input, chunk);
      expect(spans(segments)).toEqual(wideband);
      const pushed = segments.every(({ startSample, samples }) =>
        samples.every((sample, i) => sample === input[startSample + i]),
      );
      expect(pushed).toBe(true);
    }
  });

  it("lends each VAD to one input at a time and reuses it once given back, with the same utterances as a new one", () => {
    const input = audio([
      { seconds: 0.5 },
      { tone: true, seconds: 1 },
      { seconds: 1 },
      { tone: true, seconds: 0.5 },
    ]);
    const pool = new VadPool({ vadModel });
    const first = pool.segmenter();
    const second = pool.segmenter();
    const fresh = spans(run(first, input, 1000));
    expect(fresh).toHaveLength(2);
    first.release();
    second.release();
    expect(pool.counts()).toEqual({ made: 2, idle: 2 });
    for (let i = 0; i < 50; i++) {
      const reused = pool.segmenter();
      // A VAD given back in the middle of an utterance starts the next input afresh.
      reused.push(input.subarray(0, 16_000));
      reused.release();
      const again = pool.segmenter();
      expect(spans(run(again, input, 1000))).toEqual(fresh);
      again.release();
    }
    expect(pool.counts()).toEqual({ made: 2, idle: 2 });
    expect(() => first.push(input)).toThrow(/released/);
  });
});

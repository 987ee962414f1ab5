/**
 * Where to cut a recording that goes to a speech server in parts (remote-engine.ts): in a pause near the part's
 * end, so no utterance is split between two requests (docs/MEDIA.md, Remote engines).
 */
import { SAMPLE_RATE } from "./engine.ts";
import type { SegmenterInput, SpeechSegment, VadPool } from "./local/segmenter.ts";

/** A sample index in [from, to] of `samples` to cut at. */
export type PauseFinder = (samples: Float32Array, from: number, to: number) => number;

/** Energy is read in 20 ms frames, and a pause is looked for as a 200 ms stretch of them. */
const FRAME = SAMPLE_RATE / 50;
const STRETCH_FRAMES = 10;
/** Mean square under which a frame counts as silent however quiet the rest is (about −70 dBFS). */
const SILENT_FLOOR = 1e-7;

/**
 * The middle of the longest quiet run in [from, to], needing no model. A 200 ms stretch is quiet when its energy
 * is at most twice the quietest stretch's (or all but silent); of equally long runs the latest wins, so parts stay
 * long. In speech without a pause this is the quietest gap between words.
 */
export function quietestPause(samples: Float32Array, from: number, to: number): number {
  const frames = Math.floor((to - from) / FRAME);
  if (frames < STRETCH_FRAMES) return to;
  const energy = new Float64Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    let sum = 0;
    for (let i = from + frame * FRAME; i < from + (frame + 1) * FRAME; i++) sum += (samples[i] ?? 0) ** 2;
    energy[frame] = sum / FRAME;
  }
  const stretches = new Float64Array(frames - STRETCH_FRAMES + 1);
  let sum = 0;
  for (let frame = 0; frame < frames; frame++) {
    sum += energy[frame] ?? 0;
    if (frame >= STRETCH_FRAMES) sum -= energy[frame - STRETCH_FRAMES] ?? 0;
    if (frame >= STRETCH_FRAMES - 1) stretches[frame - STRETCH_FRAMES + 1] = sum;
  }
  const quiet = Math.max(2 * Math.min(...stretches), SILENT_FLOOR * STRETCH_FRAMES);
  let best = { start: 0, length: 0 };
  let start = -1;
  for (let stretch = 0; stretch <= stretches.length; stretch++) {
    if (stretch < stretches.length && (stretches[stretch] ?? 0) <= quiet) {
      if (start < 0) start = stretch;
      continue;
    }
    if (start >= 0 && stretch - start >= best.length) best = { start, length: stretch - start };
    start = -1;
  }
  // The run's stretches span from its first stretch's start to its last one's end.
  const middle = ((best.start + best.start + best.length - 1 + STRETCH_FRAMES) / 2) * FRAME;
  return from + Math.round(middle);
}

/**
 * A finder on the VADs of `pool` (told of the input's source rate, for narrowband audio) that cuts in the middle of the longest pause the VAD hears in the window (of
 * equals the latest), and where it hears speech throughout, at the quietest stretch.
 */
export function vadPauseFinder(pool: VadPool, input: SegmenterInput = {}): PauseFinder {
  return (samples, from, to) => {
    const segmenter = pool.segmenter(input);
    let speech: SpeechSegment[];
    try {
      speech = [...segmenter.push(samples.subarray(from, to)), ...segmenter.flush()];
    } finally {
      segmenter.release();
    }
    let best = { start: 0, length: 0 };
    let at = 0;
    for (const { startSample, samples: heard } of [
      ...speech,
      { startSample: to - from, samples: new Float32Array(0) },
    ]) {
      if (startSample - at >= best.length) best = { start: at, length: startSample - at };
      at = Math.max(at, startSample + heard.length);
    }
    if (best.length < STRETCH_FRAMES * FRAME) return quietestPause(samples, from, to);
    return from + best.start + Math.round(best.length / 2);
  };
}

import { SAMPLE_RATE } from "../engine.ts";
import { sherpaOnnx, type Vad } from "./sherpa.ts";

/** One stretch of speech: its first sample's index in the whole input, and its samples. */
export interface SpeechSegment {
  startSample: number;
  samples: Float32Array;
}

export interface SegmenterOptions {
  /** The Silero VAD model file. */
  vadModel: string;
  /** Speech probability above which a window is speech. */
  threshold?: number;
  /** Silence that ends an utterance. */
  minSilenceMs?: number;
  /** Speech shorter than this is not an utterance. */
  minSpeechMs?: number;
  /** An utterance is cut here even while speech goes on: what a recogniser takes at once, and what is held. */
  maxSegmentMs?: number;
}

/** Silero's window at 16 kHz: sherpa-onnx's VAD must be fed exactly this many samples at a time. */
const WINDOW = 512;

/**
 * Cuts 16 kHz mono audio into utterances with sherpa-onnx's Silero VAD, as it arrives: `push` takes a chunk of
 * any length and returns the utterances that ended in it, `flush` the one still open at the end of the input.
 * It holds at most one utterance (capped at `maxSegmentMs`) and less than one window besides, so a recording
 * of any length, or a live stream, goes through in bounded memory. The VAD runs on the calling thread, one
 * 32 ms window at a time: Silero is a small LSTM, but its cost per window was not measured here on the real
 * model, only on the generated one.
 */
export class SpeechSegmenter {
  private readonly vad: Vad;
  private readonly maxSegmentSamples: number;
  /** How far before the window that detects speech sherpa-onnx starts the utterance (two windows and the minimum). */
  private readonly preRollSamples: number;
  private remainder = new Float32Array(0);
  /** Samples handed to the VAD so far (whole windows). */
  private fed = 0;
  /** Samples pushed by the caller so far. */
  private received = 0;
  /** Where the utterance under way began (at the earliest) or was last cut, while the VAD hears speech. */
  private openSince: number | null = null;

  constructor(options: SegmenterOptions) {
    const maxSegmentMs = options.maxSegmentMs ?? 30_000;
    const minSpeechMs = options.minSpeechMs ?? 250;
    this.maxSegmentSamples = Math.round((maxSegmentMs * SAMPLE_RATE) / 1000);
    this.preRollSamples = 2 * WINDOW + Math.round((minSpeechMs * SAMPLE_RATE) / 1000);
    const { sherpa } = sherpaOnnx();
    this.vad = new sherpa.Vad(
      {
        sileroVad: {
          model: options.vadModel,
          threshold: options.threshold ?? 0.5,
          minSilenceDuration: (options.minSilenceMs ?? 500) / 1000,
          minSpeechDuration: minSpeechMs / 1000,
          // sherpa's own soft limit: past it the VAD ends an utterance at a shorter pause
          maxSpeechDuration: (maxSegmentMs * 2) / 3 / 1000,
          windowSize: WINDOW,
        },
        sampleRate: SAMPLE_RATE,
        numThreads: 1,
        debug: 0,
      },
      maxSegmentMs / 1000 + 5,
    );
  }

  /** How much of the input has been pushed, in milliseconds. */
  get processedMs(): number {
    return (this.received * 1000) / SAMPLE_RATE;
  }

  /** Where the utterance under way began (a sample index of the whole input), or null between utterances. */
  get openSinceSample(): number | null {
    return this.openSince;
  }

  /** Takes the next samples; returns the utterances that ended within them, in order. */
  push(chunk: Float32Array): SpeechSegment[] {
    this.received += chunk.length;
    const input = new Float32Array(this.remainder.length + chunk.length);
    input.set(this.remainder);
    input.set(chunk, this.remainder.length);
    const segments: SpeechSegment[] = [];
    let offset = 0;
    for (; offset + WINDOW <= input.length; offset += WINDOW) {
      this.feed(input.subarray(offset, offset + WINDOW), segments);
    }
    this.remainder = input.slice(offset);
    return segments;
  }

  /** Ends the input: returns the utterance still open, if any. */
  flush(): SpeechSegment[] {
    const segments: SpeechSegment[] = [];
    if (this.remainder.length > 0) {
      const last = new Float32Array(WINDOW);
      last.set(this.remainder);
      this.remainder = new Float32Array(0);
      this.feed(last, segments);
    }
    this.vad.flush();
    this.drain(segments);
    this.openSince = null;
    return segments;
  }

  private feed(window: Float32Array, segments: SpeechSegment[]): void {
    this.vad.acceptWaveform(window);
    this.fed += WINDOW;
    if (!this.vad.isDetected()) this.openSince = null;
    else if (this.openSince === null) this.openSince = Math.max(0, this.fed - this.preRollSamples);
    else if (this.fed + WINDOW - this.openSince > this.maxSegmentSamples) {
      // The next window would pass the longest utterance: cut here; the VAD carries on with the speech that follows.
      this.vad.flush();
      this.openSince = this.fed;
    }
    this.drain(segments);
  }

  private drain(segments: SpeechSegment[]): void {
    while (!this.vad.isEmpty()) {
      const { start, samples } = this.vad.front(false);
      this.vad.pop();
      // The last window may be padding past the end of the input.
      const length = Math.min(samples.length, this.received - start);
      if (length > 0) segments.push({ startSample: start, samples: samples.subarray(0, length) });
    }
  }
}

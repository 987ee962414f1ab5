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
 * The VADs of one engine, lent to one segmenter at a time. sherpa-onnx-node's Vad has no way to free its native
 * part (a Silero session and a buffer of the longest utterance): it goes only when V8 happens to finalise the
 * small JavaScript wrapper, so a VAD per input grew a server by about a megabyte per live stream, for good.
 * A VAD given back is reset and lent again, so the VADs made are the most inputs (live streams and recordings)
 * segmented at once, not every input there ever was.
 */
export class VadPool {
  private readonly idle: Vad[] = [];
  private made = 0;

  constructor(private readonly options: SegmenterOptions) {}

  /** A segmenter on an idle VAD, or on a new one when every VAD is lent; release it when its input is done. */
  segmenter(): SpeechSegmenter {
    return new SpeechSegmenter(this.options, this.idle.pop() ?? this.make(), (vad) => {
      vad.reset();
      this.idle.push(vad);
    });
  }

  /** The VADs made so far, and how many of them are not lent now. */
  counts(): { made: number; idle: number } {
    return { made: this.made, idle: this.idle.length };
  }

  private make(): Vad {
    const maxSegmentMs = this.options.maxSegmentMs ?? 30_000;
    const { sherpa } = sherpaOnnx();
    const vad = new sherpa.Vad(
      {
        sileroVad: {
          model: this.options.vadModel,
          threshold: this.options.threshold ?? 0.5,
          minSilenceDuration: (this.options.minSilenceMs ?? 500) / 1000,
          minSpeechDuration: (this.options.minSpeechMs ?? 250) / 1000,
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
    this.made += 1;
    return vad;
  }
}

/**
 * Cuts 16 kHz mono audio into utterances with sherpa-onnx's Silero VAD, as it arrives: `push` takes a chunk of
 * any length and returns the utterances that ended in it, `flush` the one still open at the end of the input.
 * It holds at most one utterance (capped at `maxSegmentMs`) and less than one window besides, so a recording
 * of any length, or a live stream, goes through in bounded memory. The VAD runs on the calling thread, one
 * 32 ms window at a time: Silero is a small LSTM, but its cost per window was not measured here on the real
 * model, only on the generated one. Made by a VadPool; `release` gives its VAD back once the input is done.
 */
export class SpeechSegmenter {
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

  constructor(
    options: SegmenterOptions,
    private vad: Vad | null,
    private readonly giveBack: (vad: Vad) => void,
  ) {
    const maxSegmentMs = options.maxSegmentMs ?? 30_000;
    const minSpeechMs = options.minSpeechMs ?? 250;
    this.maxSegmentSamples = Math.round((maxSegmentMs * SAMPLE_RATE) / 1000);
    this.preRollSamples = 2 * WINDOW + Math.round((minSpeechMs * SAMPLE_RATE) / 1000);
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
    this.detector().flush();
    this.drain(segments);
    this.openSince = null;
    return segments;
  }

  /** Gives the VAD back to its pool: the segmenter takes no more input. Safe to call more than once. */
  release(): void {
    if (this.vad === null) return;
    const vad = this.vad;
    this.vad = null;
    this.giveBack(vad);
  }

  private detector(): Vad {
    if (this.vad === null) throw new Error("the segmenter was released: its VAD serves another input");
    return this.vad;
  }

  private feed(window: Float32Array, segments: SpeechSegment[]): void {
    this.detector().acceptWaveform(window);
    this.fed += WINDOW;
    if (!this.detector().isDetected()) this.openSince = null;
    else if (this.openSince === null) this.openSince = Math.max(0, this.fed - this.preRollSamples);
    else if (this.fed + WINDOW - this.openSince > this.maxSegmentSamples) {
      // The next window would pass the longest utterance: cut here; the VAD carries on with the speech that follows.
      this.detector().flush();
      this.openSince = this.fed;
    }
    this.drain(segments);
  }

  private drain(segments: SpeechSegment[]): void {
    while (!this.detector().isEmpty()) {
      const { start, samples } = this.detector().front(false);
      this.detector().pop();
      // The last window may be padding past the end of the input.
      const length = Math.min(samples.length, this.received - start);
      if (length > 0) segments.push({ startSample: start, samples: samples.subarray(0, length) });
    }
  }
}

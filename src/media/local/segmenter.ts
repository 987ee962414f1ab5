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

/** What a segmenter is told of its input. */
export interface SegmenterInput {
  /**
   * The rate the audio was recorded or sent at, before it was resampled to 16 kHz (a recording's probed rate, a
   * live stream's declared one). Below 16 kHz the VAD is given the narrowband view of the audio (NarrowbandInput).
   */
  sourceSampleRate?: number;
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
  segmenter(input: SegmenterInput = {}): SpeechSegmenter {
    const narrowband = (input.sourceSampleRate ?? SAMPLE_RATE) < SAMPLE_RATE;
    return new SpeechSegmenter(
      this.options,
      this.idle.pop() ?? this.make(),
      (vad) => {
        vad.reset();
        this.idle.push(vad);
      },
      narrowband ? new NarrowbandInput() : null,
    );
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
 * On narrowband input the VAD hears NarrowbandInput's view, and the utterances are cut from the audio pushed.
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
    private readonly narrowband: NarrowbandInput | null = null,
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
    const heard = this.narrowband?.hear(chunk) ?? chunk;
    const input = new Float32Array(this.remainder.length + heard.length);
    input.set(this.remainder);
    input.set(heard, this.remainder.length);
    const segments: SpeechSegment[] = [];
    let offset = 0;
    for (; offset + WINDOW <= input.length; offset += WINDOW) {
      this.feed(input.subarray(offset, offset + WINDOW), segments);
    }
    this.remainder = input.slice(offset);
    // sherpa-onnx starts an utterance the pre-roll before the window that heard it, and with v5 up to 640 samples
    // earlier (it runs a window behind the samples fed, on windows 64 samples longer): two windows cover it.
    this.narrowband?.forget((this.openSince ?? this.fed) - this.preRollSamples - 2 * WINDOW);
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
      if (length <= 0) continue;
      segments.push({
        startSample: start,
        samples: this.narrowband?.pushed(start, length) ?? samples.subarray(0, length),
      });
    }
  }
}

/**
 * Narrowband audio (recorded or sent below 16 kHz) as the VAD is given it. Resampled to 16 kHz by ffmpeg, such
 * audio has nothing above half its own rate, and Silero's 16 kHz model barely hears it as speech (8 kHz JFK lost
 * whole phrases); sherpa-onnx 1.13.8 runs Silero at 16 kHz only (any other rate exits the process). So the VAD
 * hears the audio's even samples joined by straight lines, whose images above 4 kHz it hears as speech, as it
 * hears a live LINEAR16 stream resampled by linear interpolation (docs/MEDIA.md, The VAD). The view is one sample
 * late: an odd sample repeats the even sample before it, an even one is the mean of that sample and itself. The
 * chunks pushed are kept as they are (not copied) from where an utterance could begin, and utterances cut from them.
 */
class NarrowbandInput {
  private received = 0;
  private lastEven = 0;
  /** The audio pushed that an utterance could still take: chunks and the sample index each starts at. */
  private kept: { start: number; samples: Float32Array }[] = [];

  /** The VAD's view of the next chunk. */
  hear(chunk: Float32Array): Float32Array {
    this.kept.push({ start: this.received, samples: chunk });
    const view = new Float32Array(chunk.length);
    for (let i = 0; i < chunk.length; i++) {
      if ((this.received + i) % 2 === 1) view[i] = this.lastEven;
      else {
        view[i] = (this.lastEven + chunk[i]!) / 2;
        this.lastEven = chunk[i]!;
      }
    }
    this.received += chunk.length;
    return view;
  }

  /** `length` samples of the audio pushed, from the sample index `start`. */
  pushed(start: number, length: number): Float32Array {
    const out = new Float32Array(length);
    for (const { start: at, samples } of this.kept) {
      const from = Math.max(start, at);
      const to = Math.min(start + length, at + samples.length);
      if (from < to) out.set(samples.subarray(from - at, to - at), from - start);
    }
    return out;
  }

  /** Drops the chunks that end before the sample index `sample`. */
  forget(sample: number): void {
    while (this.kept.length > 0 && this.kept[0]!.start + this.kept[0]!.samples.length <= sample) {
      this.kept.shift();
    }
  }
}

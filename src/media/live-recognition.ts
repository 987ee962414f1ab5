/**
 * A live stream recognised utterance by utterance, on any engine (docs/LIVE.md): the VAD cuts utterances as
 * frames arrive and each is recognised as a final, in order; while an utterance is open its samples so far are
 * recognised again after every `interimEveryMs` of new audio, for the interim results. The local engine
 * decodes each on its recogniser, a remote one sends each to its server as one request.
 */
import {
  SAMPLE_RATE,
  type LiveRecognition,
  type LiveRecognitionOptions,
  type RecognizedSegment,
} from "./engine.ts";
import type { SpeechSegment, SpeechSegmenter } from "./local/segmenter.ts";

/** Recognises one utterance; null when nothing was said in it. Aborted by `signal` when no longer wanted. */
export type UtteranceRecognizer = (
  segment: SpeechSegment,
  signal: AbortSignal,
  purpose: "interim" | "final",
) => Promise<RecognizedSegment | null>;

/** The default of RECAP_LIVE_INTERIM_SECONDS. */
export const DEFAULT_INTERIM_EVERY_MS = 500;

/**
 * One stream's recognition. One recognition runs at a time: an interim in flight when an utterance ends is
 * abandoned (its result would come after the final) before the final is recognised, and a push resolves only
 * once the finals it ended are reported, so a caller that waits for each push holds the audio behind a slow
 * recogniser within its own bounds. It keeps the samples of the utterance under way (at most the segmenter's
 * longest utterance) and a second before it. A final that fails fails the push (or end) that reported it, and
 * the stream with it: an end after that only gives the segmenter's VAD back.
 */
export class UtteranceLiveRecognition implements LiveRecognition {
  private readonly interimEvery: number;
  /** Recent input as received: chunks and the sample index each starts at. */
  private recent: { start: number; samples: Float32Array }[] = [];
  private received = 0;
  private lastInterimAt = 0;
  /** The interim in flight: aborted as soon as a final is due, so its result is never reported after the final. */
  private interim: { controller: AbortController; done: Promise<void> } | null = null;
  private failed = false;

  constructor(
    private readonly segmenter: SpeechSegmenter,
    private readonly recognise: UtteranceRecognizer,
    private readonly options: LiveRecognitionOptions,
  ) {
    this.interimEvery = Math.round(
      ((options.interimEveryMs ?? DEFAULT_INTERIM_EVERY_MS) * SAMPLE_RATE) / 1000,
    );
  }

  async push(chunk: Float32Array): Promise<void> {
    if (this.failed) return;
    this.recent.push({ start: this.received, samples: chunk });
    this.received += chunk.length;
    await this.report(this.segmenter.push(chunk));
    const open = this.segmenter.openSinceSample;
    this.forget(open ?? this.received - SAMPLE_RATE);
    if (
      open !== null &&
      this.interimEvery > 0 &&
      this.interim === null &&
      this.received - this.lastInterimAt >= this.interimEvery
    ) {
      this.lastInterimAt = this.received;
      this.recogniseInterim(open);
    }
  }

  async end(): Promise<void> {
    try {
      if (!this.failed) await this.report(this.segmenter.flush());
    } finally {
      await this.abandonInterim();
      this.recent = [];
      this.segmenter.release();
    }
  }

  private async report(finished: SpeechSegment[]): Promise<void> {
    for (const segment of finished) {
      await this.abandonInterim();
      let recognised: RecognizedSegment | null;
      try {
        recognised = await this.recognise(segment, new AbortController().signal, "final");
      } catch (error) {
        this.failed = true;
        throw error;
      }
      if (recognised !== null) await this.options.onFinal(recognised);
    }
  }

  private recogniseInterim(since: number): void {
    const samples = this.samplesSince(since);
    if (samples.length === 0) return;
    const controller = new AbortController();
    const done = this.recognise({ startSample: since, samples }, controller.signal, "interim")
      .then((recognised) => {
        if (recognised !== null && !controller.signal.aborted) {
          this.options.onInterim(recognised);
        }
      })
      // An interim that fails is only not shown: the same samples are recognised again for the final, whose
      // failure ends the stream with its error.
      .catch(() => undefined)
      .finally(() => {
        if (this.interim?.controller === controller) this.interim = null;
      });
    this.interim = { controller, done };
  }

  private async abandonInterim(): Promise<void> {
    const interim = this.interim;
    if (interim === null) return;
    interim.controller.abort();
    await interim.done;
  }

  /** Drops the chunks that end before `sample`. */
  private forget(sample: number): void {
    while (this.recent.length > 0) {
      const first = this.recent[0]!;
      if (first.start + first.samples.length > sample) break;
      this.recent.shift();
    }
  }

  private samplesSince(sample: number): Float32Array {
    const from = Math.max(sample, this.recent[0]?.start ?? sample);
    const out = new Float32Array(Math.max(0, this.received - from));
    for (const { start, samples } of this.recent) {
      const skip = Math.max(0, from - start);
      if (skip < samples.length) out.set(samples.subarray(skip), start + skip - from);
    }
    return out;
  }
}

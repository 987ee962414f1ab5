import { SAMPLE_RATE } from "./engine.ts";

/**
 * The speech of one live stream kept for its speaker's voice (docs/VOICES.md, Enrolment from a live stream): the
 * last `recentSeconds` of 16 kHz audio, in a ring, so that each final utterance, once recognised, can be copied
 * from it; and those utterances, up to `keepSeconds`. Bounded whatever the stream's length: a few MiB a stream.
 */
export class SpeechKeeper {
  private readonly recent: Float32Array;
  /** Samples pushed since the stream's start: where the ring's newest sample is in the stream. */
  private pushed = 0;
  private readonly kept: Float32Array;
  private keptLength = 0;

  constructor(recentSeconds = 30, keepSeconds = 60) {
    this.recent = new Float32Array(recentSeconds * SAMPLE_RATE);
    this.kept = new Float32Array(keepSeconds * SAMPLE_RATE);
  }

  /** The stream's next 16 kHz samples. */
  push(chunk: Float32Array): void {
    const size = this.recent.length;
    const from = Math.max(0, chunk.length - size);
    for (let i = from; i < chunk.length; i++) this.recent[(this.pushed + i) % size] = chunk[i] ?? 0;
    this.pushed += chunk.length;
  }

  /** Keeps the stream's audio from `startMs` to `endMs` (an utterance), as much of it as the ring still holds. */
  keep(startMs: number, endMs: number): void {
    const size = this.recent.length;
    const oldest = Math.max(0, this.pushed - size);
    const start = Math.max(oldest, Math.round((startMs * SAMPLE_RATE) / 1000));
    const end = Math.min(this.pushed, Math.round((endMs * SAMPLE_RATE) / 1000));
    for (let at = start; at < end && this.keptLength < this.kept.length; at++) {
      this.kept[this.keptLength++] = this.recent[at % size] ?? 0;
    }
  }

  /** The utterances kept, in order, joined. */
  speech(): Float32Array {
    return this.kept.subarray(0, this.keptLength);
  }
}

import { Piscina } from "piscina";
import { invalid } from "../../errors.ts";
import { workerModule } from "../../worker-module.ts";
import type { TranscriptCue } from "./transcript.ts";
import type { ParseOutcome } from "./transcript-worker.ts";

export interface TranscriptParser {
  /** Parses WebVTT or SRT into cues; throws `invalid` for a file with no readable cue. */
  parse(source: string): Promise<TranscriptCue[]>;
  close(): Promise<void>;
}

/**
 * A TranscriptParser that parses in a worker thread, so a large upload (the body limit may be hundreds of
 * megabytes) never holds the event loop. The thread starts on the first import and stops when idle; it is
 * separate from the analysis worker so an import never waits behind a long analysis.
 */
export function createTranscriptParser(): TranscriptParser {
  const pool = new Piscina<string, ParseOutcome>({
    ...workerModule("transcript-worker", import.meta.url),
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 30_000,
  });
  return {
    async parse(source) {
      const outcome = await pool.run(source);
      if ("refused" in outcome) throw invalid(outcome.refused);
      return outcome.cues;
    },
    async close() {
      await pool.close();
      await pool.destroy();
    },
  };
}

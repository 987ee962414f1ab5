import { Piscina } from "piscina";
import { workerModule } from "../worker-module.ts";
import type { FoundEntity } from "./entities.ts";
import type { FoundIntent, IntentLine } from "./intents.ts";
import type { AnalyticsInput, SpeakerAnalytics } from "./speaker-analytics.ts";
import type { DetectedTrackers } from "./trackers.ts";
import type { AnalysisInput, AnalysisResult, Analyzer, EntitiesInput, TrackersInput } from "./types.ts";

export interface AnalyzerOptions {
  /** Worker threads; default 1 (analysis is CPU-bound and the request path needs the other core). */
  threads?: number;
}

/**
 * An Analyzer that runs analyzeConversation (and findEntities, detectTrackers, findIntents and
 * speakerAnalytics, for requests) in piscina worker threads, off the event loop.
 * The worker is TypeScript run through tsx from src/ (tests, CLI), compiled JavaScript under `npm start`
 * (workerModule). Each thread loads the NLP model once (~100 ms, ~50 MB) and keeps it until the thread has been idle
 * for ten seconds.
 * analyze() rejects when the worker throws or after close().
 */
export function createAnalyzer(options: AnalyzerOptions = {}): Analyzer {
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const pool = new Piscina<unknown, unknown>({
    ...workerModule("worker", import.meta.url),
    // No thread until the first analysis, and none ten seconds after the last: an idle thread holds the
    // model (about 100 MB of the server's resident memory once it has analysed a long meeting), and
    // loading it again costs the next job about 100 ms, small beside an analysis.
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 10_000,
  });
  let closed = false;
  return {
    async analyze(input: AnalysisInput): Promise<AnalysisResult> {
      if (closed) throw new Error("analyzer is closed");
      return (await pool.run(input)) as AnalysisResult;
    },
    async findEntities(input: EntitiesInput): Promise<FoundEntity[]> {
      if (closed) throw new Error("analyzer is closed");
      // worker.ts's named export `entities`.
      return (await pool.run(input, { name: "entities" })) as FoundEntity[];
    },
    async detectTrackers(input: TrackersInput): Promise<DetectedTrackers> {
      if (closed) throw new Error("analyzer is closed");
      return (await pool.run(input, { name: "trackers" })) as DetectedTrackers;
    },
    async findIntents(lines: IntentLine[]): Promise<FoundIntent[]> {
      if (closed) throw new Error("analyzer is closed");
      return (await pool.run(lines, { name: "intents" })) as FoundIntent[];
    },
    async speakerAnalytics(input: AnalyticsInput): Promise<SpeakerAnalytics> {
      if (closed) throw new Error("analyzer is closed");
      return (await pool.run(input, { name: "analytics" })) as SpeakerAnalytics;
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await pool.close();
      await pool.destroy();
    },
  };
}

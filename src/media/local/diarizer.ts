import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { SAMPLE_RATE, type Diarizer, type SpeakerTurn } from "../engine.ts";
import { DEFAULT_MODELS } from "../models.ts";
import { ModelNotInstalled, readInstalledModel } from "../model-store.ts";
import { unlessAborted } from "./abortable.ts";
import { sherpaOnnx } from "./sherpa.ts";

export interface LocalDiarizerOptions {
  /** RECAP_MODELS_DIR. */
  modelsDir: string;
  /** The installed segmentation model's name; the catalogue's default otherwise. */
  segmentation?: string;
  /** The installed speaker-embedding model's name; the catalogue's default otherwise. */
  embedding?: string;
  /** Cosine distance under which two stretches are one speaker, when the speaker count is not known. */
  threshold?: number;
  numThreads?: number;
}

/**
 * The file of an installed segmentation or embedding model, its digests verified (sherpa-onnx's synchronous
 * loaders abort the process on a file that is not a model). Throws ModelNotInstalled.
 */
export function modelFile(modelsDir: string, name: string, kind: "segmentation" | "embedding"): string {
  const model = readInstalledModel(modelsDir, name, { verifyDigests: true });
  const file = model.files.model;
  if (model.kind !== kind || file === undefined)
    throw new ModelNotInstalled(`model ${name} is not a ${kind} model`);
  return join(model.dir, file);
}

/** Speakers numbered from 0 in order of first appearance; turns in time order, times in ms. */
export function speakerTurns(segments: { start: number; end: number; speaker: number }[]): SpeakerTurn[] {
  const numbers = new Map<number, number>();
  return [...segments]
    .sort((a, b) => a.start - b.start || a.end - b.end)
    .map(({ start, end, speaker }) => {
      if (!numbers.has(speaker)) numbers.set(speaker, numbers.size);
      return {
        speaker: numbers.get(speaker) ?? 0,
        startMs: Math.round(start * 1000),
        endMs: Math.round(end * 1000),
      };
    });
}

/**
 * The local diarizer: sherpa-onnx's offline speaker diarization (pyannote segmentation, speaker embeddings,
 * clustering into `speakerCount` speakers when the caller knows it, else by `threshold`), run on a libuv worker
 * thread by the addon's `offlineSpeakerDiarizationProcessAsync`. It needs the whole recording at once: a 16 kHz
 * WAV file of N hours takes about N × 230 MB as samples, and the addon copies them once more. Calls are served
 * one at a time, since the clustering setting belongs to the shared model. Loads the models now.
 * @throws ModelNotInstalled when a model is not installed or is of the wrong kind
 */
export function createLocalDiarizer(options: LocalDiarizerOptions): Diarizer {
  const segmentation = options.segmentation ?? DEFAULT_MODELS.segmentation;
  const embedding = options.embedding ?? DEFAULT_MODELS.embedding;
  const threshold = options.threshold ?? 0.5;
  const numThreads = options.numThreads ?? Math.min(4, availableParallelism());
  const { sherpa, addon } = sherpaOnnx();
  const diarization = new sherpa.OfflineSpeakerDiarization({
    segmentation: {
      pyannote: { model: modelFile(options.modelsDir, segmentation, "segmentation") },
      numThreads,
    },
    embedding: { model: modelFile(options.modelsDir, embedding, "embedding"), numThreads },
    clustering: { numClusters: -1, threshold },
    minDurationOn: 0.2,
    minDurationOff: 0.5,
  });
  /** Settles when the addon has finished every run asked for so far: the next run starts after that. */
  let idle: Promise<void> = Promise.resolve();

  /** Reads the file and starts the run; the run's promise is wrapped so that it is not awaited here. */
  const start = async (
    wavPath: string,
    speakerCount: number | undefined,
    signal: AbortSignal,
    onProgress?: (fraction: number) => void,
  ) => {
    signal.throwIfAborted();
    if (speakerCount !== undefined && !(Number.isInteger(speakerCount) && speakerCount >= 1)) {
      throw new Error(`speakerCount must be a whole number from 1 (got ${speakerCount})`);
    }
    const wave = addon.readWaveFromBinary(await readFile(wavPath), false);
    if (wave.sampleRate !== SAMPLE_RATE) {
      throw new Error(`${wavPath} is sampled at ${wave.sampleRate} Hz; the diarizer takes ${SAMPLE_RATE} Hz`);
    }
    signal.throwIfAborted();
    diarization.setConfig({ clustering: { numClusters: speakerCount ?? -1, threshold } });
    const processing = addon.offlineSpeakerDiarizationProcessAsync(
      diarization.handle,
      wave.samples,
      (done, total) => {
        if (!signal.aborted) onProgress?.(total > 0 ? done / total : 1);
      },
    );
    return { processing };
  };

  return {
    description: `local ${segmentation} + ${embedding}`,

    async diarize(wavPath, { speakerCount, signal, onProgress }) {
      const started = idle.then(() => start(wavPath, speakerCount, signal, onProgress));
      const ignore = () => undefined;
      idle = started.then(({ processing }) => processing.then(ignore, ignore), ignore);
      const { processing } = await started;
      // The addon cannot stop a run: an abort answers at once, and the run finishes unseen before the next.
      const segments = await unlessAborted(processing, signal);
      onProgress?.(1);
      return speakerTurns(segments);
    },

    async close() {
      await idle;
    },
  };
}

import { availableParallelism } from "node:os";
import { SAMPLE_RATE } from "../engine.ts";
import { DEFAULT_MODELS } from "../models.ts";
import { modelFile } from "./diarizer.ts";
import { sherpaOnnx } from "./sherpa.ts";

/** Computes speaker embeddings from 16 kHz mono samples on the local speaker-embedding model. */
export interface VoiceEmbedder {
  /** The installed embedding model's name, stored with every vector it computes. */
  readonly model: string;
  /** The length of its vectors. */
  readonly dimension: number;
  /**
   * The speaker embedding of the samples, computed on the calling thread (a model like CAM++ takes a few tens of
   * milliseconds per minute of speech). Throws when the samples are too short for the model to compute one.
   */
  embed(samples: Float32Array): Float32Array;
}

/**
 * The local voice embedder: sherpa-onnx's SpeakerEmbeddingExtractor on the installed embedding model (the
 * catalogue's default unless `model` names another), the same model the diarizer uses. Nothing leaves the machine.
 * Loads the model now.
 * @throws ModelNotInstalled when the model is not installed, is damaged or is not an embedding model
 */
export function createVoiceEmbedder(options: {
  modelsDir: string;
  model?: string;
  numThreads?: number;
}): VoiceEmbedder {
  const model = options.model ?? DEFAULT_MODELS.embedding;
  const { sherpa } = sherpaOnnx();
  const extractor = new sherpa.SpeakerEmbeddingExtractor({
    model: modelFile(options.modelsDir, model, "embedding"),
    numThreads: options.numThreads ?? Math.min(2, availableParallelism()),
  });
  return {
    model,
    dimension: extractor.dim,
    embed(samples) {
      const stream = extractor.createStream();
      stream.acceptWaveform({ samples, sampleRate: SAMPLE_RATE });
      stream.inputFinished();
      if (!extractor.isReady(stream)) {
        throw new Error(`${model} needs more than ${samples.length} samples to compute an embedding`);
      }
      return extractor.compute(stream, false);
    },
  };
}

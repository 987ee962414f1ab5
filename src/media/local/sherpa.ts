/**
 * Typed access to the parts of sherpa-onnx-node (a CommonJS native addon without TypeScript types) that the
 * local engine and diarizer use. The shapes follow the addon's own JSDoc (types.js) for version 1.13.8.
 */
import { createRequire } from "node:module";

export interface RecognizerResult {
  text: string;
  /** Each token's start, in seconds from the start of the decoded audio. */
  timestamps: number[];
  /** Each token's duration in seconds, for the models that give one (NeMo TDT); empty otherwise. */
  durations: number[];
  tokens: string[];
}

export interface OfflineStream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
}

export interface OfflineRecognizer {
  createStream(): OfflineStream;
  /** Decodes on a libuv worker thread, off the event loop. */
  decodeAsync(stream: OfflineStream): Promise<RecognizerResult>;
}

export interface SileroVadConfig {
  model: string;
  threshold: number;
  minSilenceDuration: number;
  minSpeechDuration: number;
  maxSpeechDuration: number;
  windowSize: number;
}

export interface Vad {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  isDetected(): boolean;
  front(enableExternalBuffer?: boolean): { start: number; samples: Float32Array };
  pop(): void;
  flush(): void;
  /** Empties the buffer and the detector's state: the VAD is as new (sample positions start from 0 again). */
  reset(): void;
}

export interface SpeakerDiarizationSegment {
  start: number;
  end: number;
  speaker: number;
}

export interface OfflineSpeakerDiarizationConfig {
  segmentation: { pyannote: { model: string }; numThreads: number };
  embedding: { model: string; numThreads: number };
  clustering: { numClusters: number; threshold: number };
  minDurationOn: number;
  minDurationOff: number;
}

export interface OfflineSpeakerDiarization {
  readonly handle: unknown;
  readonly sampleRate: number;
  setConfig(config: { clustering: { numClusters: number; threshold: number } }): void;
}

/** A stream of samples whose speaker embedding is computed once the input is finished. */
export interface EmbeddingStream {
  acceptWaveform(wave: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}

export interface SpeakerEmbeddingExtractor {
  /** The length of the embeddings it computes (the model's `output_dim`). */
  readonly dim: number;
  createStream(): EmbeddingStream;
  /** Whether the stream holds enough samples for an embedding. */
  isReady(stream: EmbeddingStream): boolean;
  /** Computes on the calling thread; `enableExternalBuffer` false copies the result into a JavaScript buffer. */
  compute(stream: EmbeddingStream, enableExternalBuffer?: boolean): Float32Array;
}

interface SherpaOnnx {
  OfflineRecognizer: { createAsync(config: object): Promise<OfflineRecognizer> };
  Vad: new (config: object, bufferSizeInSeconds: number) => Vad;
  OfflineSpeakerDiarization: new (config: OfflineSpeakerDiarizationConfig) => OfflineSpeakerDiarization;
  SpeakerEmbeddingExtractor: new (config: { model: string; numThreads: number }) => SpeakerEmbeddingExtractor;
  readWaveFromBinary(
    data: Uint8Array,
    enableExternalBuffer?: boolean,
  ): { samples: Float32Array; sampleRate: number };
  version: string;
}

interface Addon {
  /** Parses a WAV file's bytes (any PCM format) into float samples. */
  readWaveFromBinary(
    data: Uint8Array,
    enableExternalBuffer?: boolean,
  ): { samples: Float32Array; sampleRate: number };
  /** Runs on a libuv worker thread; `progress(done, total)` is called on the event loop after each chunk. */
  offlineSpeakerDiarizationProcessAsync(
    handle: unknown,
    samples: Float32Array,
    progress: (processedChunks: number, totalChunks: number) => void,
  ): Promise<SpeakerDiarizationSegment[]>;
}

const require = createRequire(import.meta.url);

/** Loads the addon on first use (require caches it), so processes that never transcribe never map onnxruntime. */
export function sherpaOnnx(): { sherpa: SherpaOnnx; addon: Addon } {
  return {
    sherpa: require("sherpa-onnx-node") as SherpaOnnx,
    // The async diarization call is exported by the native addon but not wrapped by the package's class.
    addon: require("sherpa-onnx-node/addon.js") as Addon,
  };
}

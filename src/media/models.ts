/**
 * The speech models Recap knows: where each is published (k2-fsa/sherpa-onnx's GitHub releases), the SHA-256
 * and size of the published file, the files the local engine loads from it, and what it is good for. Every
 * entry is pinned: `recap models pull` refuses a download whose digest or size differs (docs/MEDIA.md).
 */

export type ModelKind = "recogniser" | "vad" | "segmentation" | "embedding";

/** How sherpa-onnx loads a recogniser, and so which files it needs. */
export type RecogniserFamily = "moonshine" | "whisper" | "nemo-transducer" | "zipformer-ctc";

/** The release tags of k2-fsa/sherpa-onnx the models are published under (the misspelling is upstream's). */
export type Release = "asr-models" | "speaker-segmentation-models" | "speaker-recongition-models";

export interface ModelDownload {
  release: Release;
  /** The asset's file name: a `.tar.bz2` archive or a single `.onnx` file. */
  file: string;
  sha256: string;
  bytes: number;
}

export interface CatalogueEntry {
  name: string;
  kind: ModelKind;
  /** Set for recognisers. */
  family?: RecogniserFamily;
  download: ModelDownload;
  /** The one directory a `.tar.bz2` archive unpacks to; absent for a single file. */
  archiveRoot?: string;
  /** What the engine loads, by role (`encoder`, `tokens`, `model`, …), relative to the installed directory. */
  files: Record<string, string>;
  licence: string;
  /** ISO 639-1 codes of the languages it recognises; empty for models that do not depend on language. */
  languages: string[];
  /** Whether it recognises incrementally as audio arrives (a streaming model), rather than whole utterances. */
  streaming: boolean;
  /** Whether it gives token timestamps, so the engine can time each word. */
  wordTimings: boolean;
  /** Open ASR Leaderboard word error rates (%): the mean over its English sets, and AMI (meetings) alone. */
  publishedWer?: { mean: number; ami: number };
  note: string;
}

/** Where the releases are published; `recap models pull` takes another base (a mirror) from RECAP_MODELS_MIRROR. */
export const OFFICIAL_BASE_URL = "https://github.com/k2-fsa/sherpa-onnx/releases/download";

const PARAKEET_V3_LANGUAGES = [
  "bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "hr", "hu", "it",
  "lt", "lv", "mt", "nl", "pl", "pt", "ro", "ru", "sk", "sl", "sv", "uk",
]; // prettier-ignore

const transducerFiles = {
  encoder: "encoder.int8.onnx",
  decoder: "decoder.int8.onnx",
  joiner: "joiner.int8.onnx",
  tokens: "tokens.txt",
};
const moonshineFiles = {
  preprocessor: "preprocess.onnx",
  encoder: "encode.int8.onnx",
  uncachedDecoder: "uncached_decode.int8.onnx",
  cachedDecoder: "cached_decode.int8.onnx",
  tokens: "tokens.txt",
};
const whisperFiles = (size: string) => ({
  encoder: `${size}-encoder.int8.onnx`,
  decoder: `${size}-decoder.int8.onnx`,
  tokens: `${size}-tokens.txt`,
});

export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    name: "parakeet-tdt-0.6b-v2",
    kind: "recogniser",
    family: "nemo-transducer",
    download: {
      release: "asr-models",
      file: "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2",
      sha256: "157c157bc51155e03e37d2466522a3a737dd9c72bb25f36eb18912964161e1ad",
      bytes: 482_468_385,
    },
    archiveRoot: "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8",
    files: transducerFiles,
    licence: "CC-BY-4.0",
    languages: ["en"],
    streaming: false,
    wordTimings: true,
    publishedWer: { mean: 6.05, ami: 11.16 },
    note: "NVIDIA Parakeet TDT 0.6B v2, int8: the most accurate English model here, with punctuation and word timings",
  },
  {
    name: "parakeet-tdt-0.6b-v3",
    kind: "recogniser",
    family: "nemo-transducer",
    download: {
      release: "asr-models",
      file: "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8.tar.bz2",
      sha256: "5793d0fd397c5778d2cf2126994d58e9d56b1be7c04d13c7a15bb1b4eafb16bf",
      bytes: 487_170_055,
    },
    archiveRoot: "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8",
    files: transducerFiles,
    licence: "CC-BY-4.0",
    languages: PARAKEET_V3_LANGUAGES,
    streaming: false,
    wordTimings: true,
    publishedWer: { mean: 6.3, ami: 11.4 },
    note: "NVIDIA Parakeet TDT 0.6B v3, int8: 25 European languages, found from the audio, with word timings",
  },
  {
    name: "moonshine-base-en",
    kind: "recogniser",
    family: "moonshine",
    download: {
      release: "asr-models",
      file: "sherpa-onnx-moonshine-base-en-int8.tar.bz2",
      sha256: "21870cecaa2e44e4e2bf63e02d1072bed183ccd10284871353bd9d24dad14e5e",
      bytes: 250_807_309,
    },
    archiveRoot: "sherpa-onnx-moonshine-base-en-int8",
    files: moonshineFiles,
    licence: "MIT",
    languages: ["en"],
    streaming: false,
    wordTimings: false,
    publishedWer: { mean: 10.0, ami: 17.5 },
    note: "Useful Sensors Moonshine base, int8: the default; small and fast on two cores, no word timings",
  },
  {
    name: "moonshine-tiny-en",
    kind: "recogniser",
    family: "moonshine",
    download: {
      release: "asr-models",
      file: "sherpa-onnx-moonshine-tiny-en-int8.tar.bz2",
      sha256: "d5fe6ec4334fef36255b2a4010412cad4c007e33103fec62fb5d17cad88086f2",
      bytes: 107_600_538,
    },
    archiveRoot: "sherpa-onnx-moonshine-tiny-en-int8",
    files: moonshineFiles,
    licence: "MIT",
    languages: ["en"],
    streaming: false,
    wordTimings: false,
    note: "Useful Sensors Moonshine tiny, int8: the smallest, for machines short of memory; no word timings",
  },
  {
    name: "whisper-base.en",
    kind: "recogniser",
    family: "whisper",
    download: {
      release: "asr-models",
      file: "sherpa-onnx-whisper-base.en.tar.bz2",
      sha256: "475bc7052ce299c007f6d5d5407ba8601f819a2867f6eecee510ed17df581542",
      bytes: 208_576_005,
    },
    archiveRoot: "sherpa-onnx-whisper-base.en",
    files: whisperFiles("base.en"),
    licence: "MIT",
    languages: ["en"],
    streaming: false,
    wordTimings: false,
    publishedWer: { mean: 10.3, ami: 21.1 },
    note: "OpenAI Whisper base.en, int8: the published export has no attention outputs, so no word timings",
  },
  {
    name: "whisper-small.en",
    kind: "recogniser",
    family: "whisper",
    download: {
      release: "asr-models",
      file: "sherpa-onnx-whisper-small.en.tar.bz2",
      sha256: "0cdba2b8aaab69e04847f3427cc9709574112e67913a1a84b7fec3a8729faa9a",
      bytes: 635_693_775,
    },
    archiveRoot: "sherpa-onnx-whisper-small.en",
    files: whisperFiles("small.en"),
    licence: "MIT",
    languages: ["en"],
    streaming: false,
    wordTimings: false,
    publishedWer: { mean: 8.6, ami: 17.9 },
    note: "OpenAI Whisper small.en, int8: no word timings (as base.en)",
  },
  {
    name: "silero-vad",
    kind: "vad",
    download: {
      release: "asr-models",
      file: "silero_vad.onnx",
      sha256: "9e2449e1087496d8d4caba907f23e0bd3f78d91fa552479bb9c23ac09cbb1fd6",
      bytes: 643_854,
    },
    files: { model: "silero_vad.onnx" },
    licence: "MIT",
    languages: [],
    streaming: true,
    wordTimings: false,
    note: "Silero VAD v4 as exported by k2-fsa, used in place of the VAD Recap ships once pulled",
  },
  {
    name: "pyannote-segmentation-3.0",
    kind: "segmentation",
    download: {
      release: "speaker-segmentation-models",
      file: "sherpa-onnx-pyannote-segmentation-3-0.tar.bz2",
      sha256: "24615ee884c897d9d2ba09bb4d30da6bb1b15e685065962db5b02e76e4996488",
      bytes: 6_958_444,
    },
    archiveRoot: "sherpa-onnx-pyannote-segmentation-3-0",
    files: { model: "model.onnx" },
    licence: "MIT",
    languages: [],
    streaming: false,
    wordTimings: false,
    note: "pyannote segmentation 3.0: who speaks when, within 10-second windows, for diarization",
  },
  {
    name: "campplus-en-voxceleb",
    kind: "embedding",
    download: {
      release: "speaker-recongition-models",
      file: "3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx",
      sha256: "357a834f702b80161e5b981182c038e18553c1f2ca752ed6cec2052365d4129b",
      bytes: 29_596_978,
    },
    files: { model: "3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx" },
    licence: "Apache-2.0",
    languages: [],
    streaming: false,
    wordTimings: false,
    note: "3D-Speaker CAM++ trained on VoxCeleb (English): a voice's embedding, to tell speakers apart",
  },
];

/** What a fresh install uses when no model is configured. */
export const DEFAULT_MODELS = {
  recogniser: "moonshine-base-en",
  vad: "silero-vad",
  segmentation: "pyannote-segmentation-3.0",
  embedding: "campplus-en-voxceleb",
} as const;

export function catalogueEntry(name: string): CatalogueEntry | undefined {
  return CATALOGUE.find((entry) => entry.name === name);
}

/** The URL an entry is downloaded from: the official release, or the same path under a mirror's base. */
export function downloadUrl(entry: CatalogueEntry, baseUrl = OFFICIAL_BASE_URL): string {
  return `${baseUrl.replace(/\/+$/, "")}/${entry.download.release}/${encodeURIComponent(entry.download.file)}`;
}

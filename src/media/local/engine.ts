import { availableParallelism } from "node:os";
import { join } from "node:path";
import {
  SAMPLE_RATE,
  type LiveRecognition,
  type LiveRecognitionOptions,
  type RecognitionOptions,
  type RecognizedSegment,
  type SpeechEngine,
} from "../engine.ts";
import { ModelNotInstalled, readInstalledModel, type InstalledModel } from "../model-store.ts";
import { MediaProblem } from "../problems.ts";
import { UtteranceLiveRecognition } from "../live-recognition.ts";
import { VadPool, type SegmenterOptions, type SpeechSegment } from "./segmenter.ts";
import { unlessAborted } from "./abortable.ts";
import { checkRecogniserLayout } from "./model-layout.ts";
import { sherpaOnnx } from "./sherpa.ts";
import { chooseVad } from "../vad.ts";
import { wordsFromTokens } from "./words.ts";

export interface LocalEngineOptions {
  /** RECAP_MODELS_DIR: where `recap models pull` installs models. */
  modelsDir: string;
  /** The installed recogniser's name (`parakeet-tdt-0.6b-v2`, …). */
  model: string;
  /** The installed VAD's name; otherwise the catalogue's `silero-vad` if installed, else the shipped one (vad.ts). */
  vad?: string;
  /** How the VAD cuts utterances (docs/MEDIA.md gives the defaults). */
  segmentation?: Omit<SegmenterOptions, "vadModel">;
  /** onnxruntime threads per decode; the machine's cores, up to 4, by default. */
  numThreads?: number;
}

/** The sherpa-onnx recogniser configuration for an installed model. */
function recognizerConfig(model: InstalledModel & { dir: string }, numThreads: number): object {
  const file = (role: string) => {
    const relative = model.files[role];
    if (relative === undefined) throw new ModelNotInstalled(`model ${model.name} has no ${role} file`);
    return join(model.dir, relative);
  };
  const common = { tokens: file("tokens"), numThreads, provider: "cpu", debug: 0 };
  const modelConfig = (() => {
    switch (model.family) {
      case "nemo-transducer":
        return {
          ...common,
          transducer: { encoder: file("encoder"), decoder: file("decoder"), joiner: file("joiner") },
          modelType: "nemo_transducer",
        };
      case "moonshine":
        return {
          ...common,
          moonshine: {
            preprocessor: file("preprocessor"),
            encoder: file("encoder"),
            uncachedDecoder: file("uncachedDecoder"),
            cachedDecoder: file("cachedDecoder"),
          },
        };
      case "whisper":
        return {
          ...common,
          whisper: { encoder: file("encoder"), decoder: file("decoder"), task: "transcribe" },
        };
      case "zipformer-ctc":
        return { ...common, zipformerCtc: { model: file("model") } };
      default:
        throw new ModelNotInstalled(`model ${model.name} is not a recogniser`);
    }
  })();
  return {
    featConfig: { sampleRate: SAMPLE_RATE, featureDim: 80 },
    modelConfig,
    decodingMethod: "greedy_search",
  };
}

/**
 * The local speech engine: sherpa-onnx's Silero VAD cuts the audio into utterances as it arrives, and each
 * utterance is recognised by an offline recogniser on a libuv worker thread (`decodeAsync`), one at a time, so
 * the event loop stays free and memory holds one utterance however long the input. Loads the models now.
 * @throws ModelNotInstalled when the recogniser is not installed, a file of its or of the VAD's is missing or
 * changed, a file of its does not fit its role in the family's layout, or a VAD asked for by name is not installed
 */
export async function createLocalEngine(options: LocalEngineOptions): Promise<SpeechEngine> {
  const model = readInstalledModel(options.modelsDir, options.model);
  if (model.kind !== "recogniser")
    throw new ModelNotInstalled(`model ${model.name} is a ${model.kind}, not a recogniser`);
  checkRecogniserLayout(model);
  const vad = chooseVad(options.modelsDir, {
    ...(options.vad !== undefined && { name: options.vad }),
    verifyDigests: true,
  });
  const numThreads = options.numThreads ?? Math.min(4, availableParallelism());
  const recognizer = await sherpaOnnx().sherpa.OfflineRecognizer.createAsync(
    recognizerConfig(model, numThreads),
  );
  const decodes = new Set<Promise<unknown>>();

  /** Recognises one utterance off the event loop; an abort answers at once, the decode finishes unseen. */
  const recognise = async (
    segment: SpeechSegment,
    signal: AbortSignal,
  ): Promise<RecognizedSegment | null> => {
    const stream = recognizer.createStream();
    stream.acceptWaveform({ samples: segment.samples, sampleRate: SAMPLE_RATE });
    const decoding = recognizer.decodeAsync(stream);
    decodes.add(decoding);
    void decoding.then(
      () => decodes.delete(decoding),
      () => decodes.delete(decoding),
    );
    const result = await unlessAborted(decoding, signal);
    const text = result.text.trim();
    if (text === "") return null;
    const vadStartMs = Math.round((segment.startSample * 1000) / SAMPLE_RATE);
    const endMs = Math.round(((segment.startSample + segment.samples.length) * 1000) / SAMPLE_RATE);
    const words = wordsFromTokens(result, vadStartMs, endMs);
    return { text, startMs: words[0]?.startMs ?? vadStartMs, endMs, words };
  };

  const checkLanguage = (languageCode: string | undefined) => {
    const language = languageCode?.split("-")[0]?.toLowerCase();
    if (language !== undefined && !model.languages.includes(language)) {
      throw new MediaProblem(`the local model ${model.name} does not recognise ${languageCode}`);
    }
  };
  const vads = new VadPool({ ...options.segmentation, vadModel: vad.file });

  return {
    description: `local ${model.name}`,

    async transcribe(audio: AsyncIterable<Float32Array>, recognition: RecognitionOptions) {
      const { signal, onProgress } = recognition;
      checkLanguage(recognition.languageCode);
      signal.throwIfAborted();
      const segmenter = vads.segmenter({ sourceSampleRate: recognition.sourceSampleRate });
      const segments: RecognizedSegment[] = [];
      const take = async (finished: SpeechSegment[]) => {
        for (const segment of finished) {
          const recognised = await recognise(segment, signal);
          if (recognised !== null) segments.push(recognised);
        }
      };
      try {
        for await (const chunk of audio) {
          await take(segmenter.push(chunk));
          onProgress?.(segmenter.processedMs);
          signal.throwIfAborted();
        }
        signal.throwIfAborted();
        await take(segmenter.flush());
        onProgress?.(segmenter.processedMs);
        return segments;
      } finally {
        segmenter.release();
      }
    },

    listen(live: LiveRecognitionOptions): LiveRecognition {
      checkLanguage(live.languageCode);
      return new UtteranceLiveRecognition(
        vads.segmenter({ sourceSampleRate: live.sourceSampleRate }),
        recognise,
        live,
      );
    },

    vads: () => vads.counts(),

    async close() {
      // A decode abandoned by an abort still uses the recogniser: let it finish before the engine is dropped.
      await Promise.allSettled([...decodes]);
    },
  };
}

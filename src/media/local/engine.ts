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
import { VadPool, type SegmenterOptions, type SpeechSegment, type SpeechSegmenter } from "./segmenter.ts";
import { unlessAborted } from "./abortable.ts";
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
 * changed, or a VAD asked for by name is not installed
 */
export async function createLocalEngine(options: LocalEngineOptions): Promise<SpeechEngine> {
  const model = readInstalledModel(options.modelsDir, options.model);
  if (model.kind !== "recogniser")
    throw new ModelNotInstalled(`model ${model.name} is a ${model.kind}, not a recogniser`);
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
      return new LocalLiveRecognition(vads.segmenter(), recognise, live);
    },

    vads: () => vads.counts(),

    async close() {
      // A decode abandoned by an abort still uses the recogniser: let it finish before the engine is dropped.
      await Promise.allSettled([...decodes]);
    },
  };
}

/**
 * A live stream on the local engine: the segmenter cuts utterances as frames arrive and each is recognised as
 * a final, in order; while an utterance is open its samples so far are decoded again after every
 * `interimEveryMs` of new audio, one such decode at a time, for the interim results. It keeps the samples of
 * the utterance under way (at most the segmenter's longest utterance) and a second before it.
 */
class LocalLiveRecognition implements LiveRecognition {
  private readonly interimEvery: number;
  private readonly never = new AbortController().signal;
  /** Recent input as received: chunks and the sample index each starts at. */
  private recent: { start: number; samples: Float32Array }[] = [];
  private received = 0;
  private lastInterimAt = 0;
  private interimDecoding = false;
  /** Counts finals, so an interim decoded before its utterance ended is not reported after the final. */
  private finals = 0;

  constructor(
    private readonly segmenter: SpeechSegmenter,
    private readonly recognise: (
      segment: SpeechSegment,
      signal: AbortSignal,
    ) => Promise<RecognizedSegment | null>,
    private readonly options: LiveRecognitionOptions,
  ) {
    this.interimEvery = Math.round(((options.interimEveryMs ?? 500) * SAMPLE_RATE) / 1000);
  }

  async push(chunk: Float32Array): Promise<void> {
    this.recent.push({ start: this.received, samples: chunk });
    this.received += chunk.length;
    await this.report(this.segmenter.push(chunk));
    const open = this.segmenter.openSinceSample;
    this.forget(open ?? this.received - SAMPLE_RATE);
    if (open !== null && !this.interimDecoding && this.received - this.lastInterimAt >= this.interimEvery) {
      this.lastInterimAt = this.received;
      this.decodeInterim(open);
    }
  }

  async end(): Promise<void> {
    try {
      await this.report(this.segmenter.flush());
    } finally {
      this.recent = [];
      this.segmenter.release();
    }
  }

  private async report(finished: SpeechSegment[]): Promise<void> {
    for (const segment of finished) {
      this.finals += 1;
      const recognised = await this.recognise(segment, this.never);
      if (recognised !== null) await this.options.onFinal(recognised);
    }
  }

  private decodeInterim(since: number): void {
    const samples = this.samplesSince(since);
    if (samples.length === 0) return;
    const finalsBefore = this.finals;
    this.interimDecoding = true;
    this.recognise({ startSample: since, samples }, this.never)
      .then((recognised) => {
        if (recognised !== null && this.finals === finalsBefore) this.options.onInterim(recognised);
      })
      // An interim that fails is only not shown: the same samples are decoded again for the final, whose
      // failure ends the stream with its error.
      .catch(() => undefined)
      .finally(() => {
        this.interimDecoding = false;
      });
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

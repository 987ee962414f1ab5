/**
 * Tone recognisers in the layouts of the catalogue's families (src/media/models.ts): Moonshine's four models,
 * NeMo's transducer (Parakeet TDT) and Whisper's encoder and decoder, each with the inputs, outputs, element
 * types and metadata sherpa-onnx 1.13.8 reads of the real ones, installed under the file names the catalogue's
 * entries use. Each hears the start of a tone at one of TONE_TOKENS' frequencies as that token, so a recording of
 * tones decodes to known text: 300, 1000 and 2000 Hz in turn are "low hi".
 *
 * They share one way of decoding: the encoder marks, per frame, the tokens whose tones start there (onsets)
 * and how many tones have started so far; an autoregressive decoder asked for its k-th token answers the token
 * of the (k+1)-th onset, or end of text when there is none. The transducer's joiner answers a token at an
 * onset's frame and blank elsewhere, and a duration of as many frames as the tone lasts (at most 4).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeManifest } from "../../src/media/model-store.ts";
import { catalogueEntry, type RecogniserFamily } from "../../src/media/models.ts";
import { encodeOnnxModel, GraphBuilder, type OnnxValue } from "./onnx.ts";
import {
  NEMO_MELS,
  SAMPLE_RATE,
  TONE_TOKENS,
  WHISPER_MELS,
  toneDetector,
  weightMatrix,
  type MelBank,
  type ToneToken,
} from "./tones.ts";

interface Signature {
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  metadata?: Record<string, string | number>;
}

/** A generated recogniser: each of its files' contents by role (`encoder`, `tokens`, …). */
export type GeneratedFiles = Record<string, Uint8Array | string>;

const encode = (graph: GraphBuilder, signature: Signature) =>
  encodeOnnxModel({ ...signature, nodes: graph.nodes, initializers: graph.initializers, opset: 13 });

/** A [T, V] tensor's rows moved by `by` frames: row t is row t + by of `x`, or zeros where there is none. */
function shifted(g: GraphBuilder, x: string, by: number): string {
  const padded = g.op("Pad", [x, g.ints(by > 0 ? [0, 0, by, 0] : [-by, 0, 0, 0])]);
  return by > 0
    ? g.op("Slice", [padded, g.ints([by]), g.ints([Number.MAX_SAFE_INTEGER]), g.ints([0])])
    : g.op("Slice", [padded, g.ints([0]), g.ints([by]), g.ints([0])]);
}

/**
 * Onsets from per-frame presence [T, V] (1 while token v's tone sounds): onsets [T, V] is 1 at the first frame
 * of each tone, starts [T, 1] how many tones start in each frame, count [T, 1] how many have started up to and
 * including it.
 */
function onsetsOf(g: GraphBuilder, presence: string): { onsets: string; starts: string; count: string } {
  const onsets = g.op("Sub", [presence, g.op("Mul", [presence, shifted(g, presence, -1)])]);
  const starts = g.op("ReduceSum", [onsets, g.ints([1])]);
  return { onsets, starts, count: g.op("CumSum", [starts, g.ints([0], [])]) };
}

/** 1 where `scores` is above zero, else 0 (floats). */
const aboveZero = (g: GraphBuilder, scores: string) =>
  g.op("Cast", [g.op("Greater", [scores, g.constant([0], [])])], { to: { int: 1 } });

/**
 * The token scores [1, V] of the (k+1)-th onset, from onsets [T, V], count [T, 1] and k (a float [1]): 1 for its
 * token, 0 for the others, all 0 when fewer tones started.
 */
function kthOnset(g: GraphBuilder, onsets: string, count: string, k: string): string {
  const wanted = g.op("Add", [k, g.constant([1])]);
  const at = g.op("Cast", [g.op("Equal", [count, wanted])], { to: { int: 1 } });
  return g.op("ReduceSum", [g.op("Mul", [onsets, at]), g.ints([0])]);
}

/**
 * Logits over a vocabulary of `vocabulary` ids from the k-th onset's scores [1, V]: token v's id (`ids[v]`)
 * scores 10 when its tone is the one, end of text (`end`) scores 1, every other id 0.
 */
function logitsOf(g: GraphBuilder, scores: string, ids: number[], end: number, vocabulary: number): string {
  const placed = g.op("OneHot", [g.ints(ids), g.ints([vocabulary], []), g.constant([0, 10])], {
    axis: { int: -1 },
  });
  const endBias = g.op("OneHot", [g.ints([end]), g.ints([vocabulary], []), g.constant([0, 1])], {
    axis: { int: -1 },
  });
  return g.op("Add", [g.op("MatMul", [scores, placed]), endBias]);
}

/** Detector weights [bank.bins, V] for the tokens' tones in `bank`'s features. */
const detectors = (g: GraphBuilder, tokens: ToneToken[], bank: MelBank) =>
  g.constant(
    weightMatrix(
      tokens.map(({ hz }) => toneDetector(hz, bank)),
      bank.bins,
    ),
    [bank.bins, tokens.length],
  );

/** What a generator is given: the tokens it hears, and metadata to use instead of the real layout's. */
export interface ToneRecogniserOptions {
  tokens?: ToneToken[];
  /** Replaces the encoder's metadata (the families whose loaders read some). */
  metadata?: Record<string, string | number>;
}

/**
 * Moonshine reads 384 samples a frame (its preprocessor's strides). sherpa-onnx starts its decoding with token 1
 * and ends it at token 2; the text tokens come after them.
 */
const MOONSHINE_FRAME = 384;
const MOONSHINE_IDS = { eos: 2, first: 3 };

/**
 * Moonshine (v1) as k2-fsa's archives hold it, by role: `preprocessor` (samples [1, N] → features [1, T, D]),
 * `encoder` (features, their length int32 [1] → [1, T, D']), `uncachedDecoder` (the token int32 [1, 1], the
 * encoder's output, the sequence length int32 [1] → logits [1, 1, vocab] and four caches), `cachedDecoder` (the
 * same and the caches → logits and the caches grown) and `tokens` (`piece<TAB>id`). sherpa-onnx reads no metadata
 * of Moonshine and takes each model's inputs and outputs by position.
 * Here the preprocessor measures each tone per frame (a Hann-windowed Fourier coefficient): loud enough, and
 * holding enough of the frame's energy, to be heard; the encoder marks onsets, and the decoders answer the onset
 * whose index is the sequence length so far (the start token counted).
 */
export function toneMoonshine({ tokens = TONE_TOKENS }: ToneRecogniserOptions = {}): GeneratedFiles {
  const v = tokens.length;
  const vocabulary = MOONSHINE_IDS.first + v;
  const ids = tokens.map((_, t) => MOONSHINE_IDS.first + t);

  const pre = new GraphBuilder();
  const fourier = new Float32Array(2 * v * MOONSHINE_FRAME);
  tokens.forEach(({ hz }, t) => {
    for (let i = 0; i < MOONSHINE_FRAME; i++) {
      const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / MOONSHINE_FRAME);
      const phase = (2 * Math.PI * hz * i) / SAMPLE_RATE;
      fourier[2 * t * MOONSHINE_FRAME + i] = hann * Math.cos(phase);
      fourier[(2 * t + 1) * MOONSHINE_FRAME + i] = hann * Math.sin(phase);
    }
  });
  const pairs = new Float32Array(v * 2 * v);
  for (let t = 0; t < v; t++) pairs[t * 2 * v + 2 * t] = pairs[t * 2 * v + 2 * t + 1] = 1;
  const samples = pre.op("Unsqueeze", ["args_0", pre.ints([1])]);
  const coefficients = pre.op("Conv", [samples, pre.constant(fourier, [2 * v, 1, MOONSHINE_FRAME])], {
    kernel_shape: { ints: [MOONSHINE_FRAME] },
    strides: { ints: [MOONSHINE_FRAME] },
  });
  const squares = pre.op("Mul", [coefficients, coefficients]);
  const energy = pre.op("Conv", [squares, pre.constant(pairs, [v, 2 * v, 1])], {
    kernel_shape: { ints: [1] },
  });
  const logEnergy = pre.op("Log", [pre.op("Add", [energy, pre.constant([1e-9], [])])]);
  // A tone of amplitude A gives (96 A)² (a Hann window sums to 192 over 384 samples, and a sine's share is half)
  // of a windowed energy Σ hann² x² of 72 A², 128 times less. A tone is heard at amplitude 0.01 and above, where
  // it holds at least an eighth of that share: a click, or another tone cut off, spreads its energy wide.
  const loudness = pre.op("Sub", [logEnergy, pre.constant([Math.log((0.01 * 96) ** 2)], [])]);
  const hannSquared = Float32Array.from(
    { length: MOONSHINE_FRAME },
    (_, i) => (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / MOONSHINE_FRAME)) ** 2,
  );
  const windowed = pre.op(
    "Conv",
    [pre.op("Mul", [samples, samples]), pre.constant(hannSquared, [1, 1, MOONSHINE_FRAME])],
    {
      kernel_shape: { ints: [MOONSHINE_FRAME] },
      strides: { ints: [MOONSHINE_FRAME] },
    },
  );
  const share = pre.op("Sub", [
    logEnergy,
    pre.op("Log", [pre.op("Add", [windowed, pre.constant([1e-9], [])])]),
  ]);
  const tonal = pre.op("Sub", [share, pre.constant([Math.log(128 / 8)], [])]);
  const heard = pre.op("Min", [loudness, tonal]);
  pre.op("Transpose", [heard], { perm: { ints: [0, 2, 1] } }, "sequential");
  const preprocessor = encode(pre, {
    inputs: [{ name: "args_0", type: "float", shape: [1, "num_samples"] }],
    outputs: [{ name: "sequential", type: "float", shape: [1, "T", v] }],
  });

  const enc = new GraphBuilder();
  const { onsets, count } = onsetsOf(enc, aboveZero(enc, enc.op("Squeeze", ["args_0", enc.ints([0])])));
  const marks = enc.op("Concat", [onsets, count], { axis: { int: 1 } });
  enc.op("Unsqueeze", [marks, enc.ints([0])], undefined, "encoded");
  const encoder = encode(enc, {
    inputs: [
      { name: "args_0", type: "float", shape: [1, "T", v] },
      { name: "args_1", type: "int32", shape: [1] },
    ],
    outputs: [{ name: "encoded", type: "float", shape: [1, "T", v + 1] }],
  });

  // One decoder layer's caches: self-attention's grow by each token's embedding, cross-attention's are the
  // encoder's output.
  const caches = ["self_key", "self_value", "cross_key", "cross_value"];
  const cacheShape = (cache: string, length: string | number) =>
    cache.startsWith("self") ? [1, length, 1, vocabulary] : [1, "T", 1, v + 1];
  const decoder = (cached: boolean) => {
    const g = new GraphBuilder();
    const marks = g.op("Squeeze", ["args_1", g.ints([0])]);
    const onsets = g.op("Slice", [marks, g.ints([0]), g.ints([v]), g.ints([1])]);
    const count = g.op("Slice", [marks, g.ints([v]), g.ints([v + 1]), g.ints([1])]);
    const k = g.op("Sub", [g.op("Cast", ["args_2"], { to: { int: 1 } }), g.constant([1])]);
    const logits = logitsOf(g, kthOnset(g, onsets, count, k), ids, MOONSHINE_IDS.eos, vocabulary);
    g.op("Unsqueeze", [logits, g.ints([0])], undefined, "logits");
    const embedding = g.constant(identity(vocabulary), [vocabulary, vocabulary]);
    const embedded = g.op("Unsqueeze", [g.op("Gather", [embedding, "args_0"]), g.ints([2])]);
    const crossAttention = g.op("Unsqueeze", ["args_1", g.ints([2])]);
    for (const cache of caches) {
      const present = `present_${cache}`;
      if (!cache.startsWith("self"))
        g.op("Identity", [cached ? `past_${cache}` : crossAttention], undefined, present);
      else if (cached) g.op("Concat", [`past_${cache}`, embedded], { axis: { int: 1 } }, present);
      else g.op("Identity", [embedded], undefined, present);
    }
    return encode(g, {
      inputs: [
        { name: "args_0", type: "int32", shape: [1, 1] },
        { name: "args_1", type: "float", shape: [1, "T", v + 1] },
        { name: "args_2", type: "int32", shape: [1] },
        ...(cached
          ? caches.map((cache): OnnxValue => ({
              name: `past_${cache}`,
              type: "float",
              shape: cacheShape(cache, "past_length"),
            }))
          : []),
      ],
      outputs: [
        { name: "logits", type: "float", shape: [1, 1, vocabulary] },
        ...caches.map((cache): OnnxValue => ({
          name: `present_${cache}`,
          type: "float",
          shape: cacheShape(cache, "length"),
        })),
      ],
    });
  };
  const lines = ["<unk>\t0", "<s>\t1", "</s>\t2", ...tokens.map(({ piece }, t) => `${piece}\t${ids[t]}`)];
  return {
    preprocessor,
    encoder,
    uncachedDecoder: decoder(false),
    cachedDecoder: decoder(true),
    tokens: lines.join("\n") + "\n",
  };
}

function identity(size: number): Float32Array {
  const matrix = new Float32Array(size * size);
  for (let i = 0; i < size; i++) matrix[i * size + i] = 1;
  return matrix;
}

/** The ids of OpenAI's English-only tokenizer (gpt2.tiktoken and its special tokens), as whisper base.en has them. */
const WHISPER_EN = {
  vocabulary: 51_864,
  eot: 50_256,
  sot: 50_257,
  translate: 50_357,
  transcribe: 50_358,
  sotLm: 50_359,
  sotPrev: 50_360,
  noSpeech: 50_361,
  noTimestamps: 50_362,
  /** " " (one space). */
  blank: 220,
};
/** The decoder's layers and context (base.en's context); the state is the width of the encoder's output here. */
const WHISPER_TEXT_LAYERS = 2;
const WHISPER_TEXT_CTX = 448;

/**
 * The metadata of a Whisper encoder exported by sherpa-onnx's scripts/whisper/export-onnx.py for an English-only
 * model. sherpa-onnx 1.13.8 requires n_mels, n_text_layer, n_text_ctx, n_text_state, n_vocab, sot, eot, blank_id,
 * translate, transcribe, is_multilingual, no_timestamps, no_speech and sot_sequence (and, of multilingual models,
 * all_language_tokens and all_language_codes, left out here).
 */
export function whisperMetadata(tokens = TONE_TOKENS.length): Record<string, string | number> {
  return {
    model_type: "whisper-base.en",
    version: "1",
    maintainer: "k2-fsa",
    n_mels: WHISPER_MELS.bins,
    n_audio_ctx: 1500,
    n_audio_state: tokens + 1,
    n_audio_head: 1,
    n_audio_layer: 1,
    n_vocab: WHISPER_EN.vocabulary,
    n_text_ctx: WHISPER_TEXT_CTX,
    n_text_state: tokens + 1,
    n_text_head: 1,
    n_text_layer: WHISPER_TEXT_LAYERS,
    sot_sequence: String(WHISPER_EN.sot),
    sot: WHISPER_EN.sot,
    sot_index: 0,
    eot: WHISPER_EN.eot,
    blank_id: WHISPER_EN.blank,
    is_multilingual: 0,
    no_speech: WHISPER_EN.noSpeech,
    transcribe: WHISPER_EN.transcribe,
    translate: WHISPER_EN.translate,
    sot_prev: WHISPER_EN.sotPrev,
    sot_lm: WHISPER_EN.sotLm,
    no_timestamps: WHISPER_EN.noTimestamps,
  };
}

/**
 * Whisper as k2-fsa's `sherpa-onnx-whisper-*.en` archives hold it, by role: `encoder` (mel [1, 80, T] →
 * n_layer_cross_k and n_layer_cross_v [layers, 1, T, state], with whisperMetadata), `decoder` (tokens int64
 * [1, n], the self-attention caches [layers, 1, ctx, state], the cross keys and values, offset int64 [1] → logits
 * [1, n, n_vocab] and the caches) and `tokens` (each token's bytes in base64, then its id). sherpa-onnx feeds the
 * decoder sot_sequence and no_timestamps first, then each token it picks, until eot.
 * Here the encoder reads each tone's mel bins in Whisper's normalised log-mel features and marks onsets; the
 * decoder answers the onset whose index is the number of text tokens so far (offset plus the tokens given, less
 * the two it starts with). The text tokens are ids 1, 2, … (a real tokenizer's `"`, `#`, …).
 */
export function toneWhisper({
  tokens = TONE_TOKENS,
  metadata = whisperMetadata(tokens.length),
}: ToneRecogniserOptions = {}): GeneratedFiles {
  const v = tokens.length;
  const state = v + 1;
  const ids = tokens.map((_, t) => t + 1);
  const crossShape = [WHISPER_TEXT_LAYERS, "n_audio", "T", state];
  const cacheShape = [WHISPER_TEXT_LAYERS, "n_audio", WHISPER_TEXT_CTX, state];

  const enc = new GraphBuilder();
  const frames = enc.op("Transpose", ["mel"], { perm: { ints: [0, 2, 1] } });
  const scores = enc.op("MatMul", [frames, detectors(enc, tokens, WHISPER_MELS)]);
  // Whisper's features are log10 energies over 4, floored 2 below the loudest: a tone's bins stand about 1.5
  // above its frame's mean, while silence's and the padding's bins are all alike
  const above = enc.op("Sub", [enc.op("Squeeze", [scores, enc.ints([0])]), enc.constant([0.5], [])]);
  const { onsets, count } = onsetsOf(enc, aboveZero(enc, above));
  const marks = enc.op("Concat", [onsets, count], { axis: { int: 1 } });
  const layer = enc.op("Unsqueeze", [marks, enc.ints([0, 1])]);
  const cross = enc.op("Concat", Array<string>(WHISPER_TEXT_LAYERS).fill(layer), { axis: { int: 0 } });
  enc.op("Identity", [cross], undefined, "n_layer_cross_k");
  enc.op("Identity", [cross], undefined, "n_layer_cross_v");
  const encoder = encode(enc, {
    inputs: [{ name: "mel", type: "float", shape: ["n_audio", WHISPER_MELS.bins, "T"] }],
    outputs: [
      { name: "n_layer_cross_k", type: "float", shape: crossShape },
      { name: "n_layer_cross_v", type: "float", shape: crossShape },
    ],
    metadata,
  });

  const dec = new GraphBuilder();
  const firstLayer = dec.op("Gather", ["n_layer_cross_k", dec.ints([0], [])], { axis: { int: 0 } });
  const marksIn = dec.op("Squeeze", [firstLayer, dec.ints([0])]);
  const onsetsIn = dec.op("Slice", [marksIn, dec.ints([0]), dec.ints([v]), dec.ints([1])]);
  const countIn = dec.op("Slice", [marksIn, dec.ints([v]), dec.ints([v + 1]), dec.ints([1])]);
  const given = dec.op("Gather", [dec.op("Shape", ["tokens"]), dec.ints([1])]);
  const k = dec.op("Cast", [dec.op("Sub", [dec.op("Add", ["offset", given]), dec.ints([2])])], {
    to: { int: 1 },
  });
  const row = logitsOf(dec, kthOnset(dec, onsetsIn, countIn, k), ids, WHISPER_EN.eot, WHISPER_EN.vocabulary);
  const shape = dec.op("Concat", [dec.ints([1]), given, dec.ints([WHISPER_EN.vocabulary])], {
    axis: { int: 0 },
  });
  dec.op("Expand", [dec.op("Unsqueeze", [row, dec.ints([0])]), shape], undefined, "logits");
  dec.op("Identity", ["in_n_layer_self_k_cache"], undefined, "out_n_layer_self_k_cache");
  dec.op("Identity", ["in_n_layer_self_v_cache"], undefined, "out_n_layer_self_v_cache");
  const decoder = encode(dec, {
    inputs: [
      { name: "tokens", type: "int64", shape: ["n_audio", "n_tokens"] },
      { name: "in_n_layer_self_k_cache", type: "float", shape: cacheShape },
      { name: "in_n_layer_self_v_cache", type: "float", shape: cacheShape },
      { name: "n_layer_cross_k", type: "float", shape: crossShape },
      { name: "n_layer_cross_v", type: "float", shape: crossShape },
      { name: "offset", type: "int64", shape: [1] },
    ],
    outputs: [
      { name: "logits", type: "float", shape: ["n_audio", "n_tokens", WHISPER_EN.vocabulary] },
      { name: "out_n_layer_self_k_cache", type: "float", shape: cacheShape },
      { name: "out_n_layer_self_v_cache", type: "float", shape: cacheShape },
    ],
  });
  const base64 = (piece: string) => Buffer.from(piece.replaceAll("\u2581", " ")).toString("base64");
  return {
    encoder,
    decoder,
    tokens: tokens.map(({ piece }, t) => `${base64(piece)} ${ids[t]}`).join("\n") + "\n",
  };
}

/** Parakeet's encoder subsamples by 8 (80 ms a frame); its TDT joiner answers durations of 0 to 4 frames. */
const NEMO_SUBSAMPLING = 8;
const NEMO_DURATIONS = 5;
const NEMO_PRED_LAYERS = 2;
const NEMO_PRED_HIDDEN = 8;

/**
 * The metadata of a NeMo transducer's encoder as sherpa-onnx's scripts/nemo/parakeet-tdt-0.6b-v2/export_onnx.py
 * writes it (with this model's sizes). sherpa-onnx 1.13.8 requires vocab_size (without blank), subsampling_factor,
 * pred_rnn_layers and pred_hidden, and reads normalize_type, feat_dim and url (a url naming "tdt" makes it a TDT
 * model, whose joiner also answers durations).
 */
export function nemoMetadata(tokens = TONE_TOKENS.length): Record<string, string | number> {
  return {
    vocab_size: tokens,
    // Parakeet's is per_feature, which leaves a lone tone indistinguishable from silence: every bin rises and
    // falls with it alike once normalised over the utterance
    normalize_type: "NA",
    pred_rnn_layers: NEMO_PRED_LAYERS,
    pred_hidden: NEMO_PRED_HIDDEN,
    subsampling_factor: NEMO_SUBSAMPLING,
    model_type: "EncDecRNNTBPEModel",
    version: "2",
    model_author: "NeMo",
    url: "https://huggingface.co/nvidia/parakeet-tdt-0.6b-v2",
    comment: "Generated by Recap: it hears tones, in the layout of Parakeet TDT's transducer",
    feat_dim: NEMO_MELS.bins,
  };
}

/**
 * A NeMo transducer as k2-fsa's Parakeet TDT archives hold it, by role: `encoder` (audio_signal [1, 128, T], length
 * int64 [1] → outputs [1, D, T/8], encoded_lengths int64 [1], with nemoMetadata), `decoder` (targets int32 [1, 1],
 * target_length int32 [1], two LSTM states [layers, 1, hidden] → outputs [1, hidden, 1], prednet_lengths and the
 * states), `joiner` (encoder_outputs [1, D, 1], decoder_outputs [1, hidden, 1] → outputs [1, 1, 1, vocab + 5]:
 * the tokens' logits, blank's last, then the durations') and `tokens` (`piece id`, `<blk>` last).
 * Here the encoder reads each tone's mel bins in NeMo's log-mel features (not normalised: see nemoMetadata),
 * averages them over 8 frames and marks onsets, with how many frames each tone lasts (at most 4); the joiner
 * answers a token at an onset's frame, blank elsewhere, and that many frames as the duration.
 */
export function toneNemoTransducer({
  tokens = TONE_TOKENS,
  metadata = nemoMetadata(tokens.length),
}: ToneRecogniserOptions = {}): GeneratedFiles {
  const v = tokens.length;
  const vocabulary = v + 1;
  const width = v + NEMO_DURATIONS;
  const columns = vocabulary + NEMO_DURATIONS;

  const enc = new GraphBuilder();
  const pooled = enc.op("AveragePool", ["audio_signal"], {
    kernel_shape: { ints: [NEMO_SUBSAMPLING] },
    strides: { ints: [NEMO_SUBSAMPLING] },
    ceil_mode: { int: 1 },
  });
  const frames = enc.op("Squeeze", [
    enc.op("Transpose", [pooled], { perm: { ints: [0, 2, 1] } }),
    enc.ints([0]),
  ]);
  const scores = enc.op("MatMul", [frames, detectors(enc, tokens, NEMO_MELS)]);
  // log-mel energies (natural log): a tone's bins stand several units above its frame's mean, a click's or
  // silence's do not
  const presence = aboveZero(enc, enc.op("Sub", [scores, enc.constant([2], [])]));
  const { onsets, starts } = onsetsOf(enc, presence);
  // How many frames each tone lasts from here, at most 4 and never past another tone's onset, which a duration
  // would skip: P[t] + P[t]·C[t+1] + P[t]·C[t+1]·C[t+2] + …, where C is P in frames where no tone starts.
  const continuing = enc.op("Mul", [presence, enc.op("Sub", [enc.constant([1], []), starts])]);
  let together = presence;
  let lasting = presence;
  for (let ahead = 1; ahead < NEMO_DURATIONS - 1; ahead++) {
    together = enc.op("Mul", [together, shifted(enc, continuing, ahead)]);
    lasting = enc.op("Add", [lasting, together]);
  }
  const length = enc.op("ReduceSum", [lasting, enc.ints([1])]);
  // duration d scores −(length − d)², so the tone's length wins
  const choices = enc.constant(
    Float32Array.from({ length: NEMO_DURATIONS }, (_, d) => d),
    [1, NEMO_DURATIONS],
  );
  const durations = enc.op("Neg", [enc.op("Pow", [enc.op("Sub", [length, choices]), enc.constant([2], [])])]);
  const marks = enc.op("Concat", [onsets, durations], { axis: { int: 1 } });
  enc.op(
    "Unsqueeze",
    [enc.op("Transpose", [marks], { perm: { ints: [1, 0] } }), enc.ints([0])],
    undefined,
    "outputs",
  );
  const rounded = enc.op("Add", ["length", enc.ints([NEMO_SUBSAMPLING - 1], [])]);
  enc.op("Div", [rounded, enc.ints([NEMO_SUBSAMPLING], [])], undefined, "encoded_lengths");
  const encoder = encode(enc, {
    inputs: [
      { name: "audio_signal", type: "float", shape: ["batch", NEMO_MELS.bins, "T"] },
      { name: "length", type: "int64", shape: ["batch"] },
    ],
    outputs: [
      { name: "outputs", type: "float", shape: ["batch", width, "T_out"] },
      { name: "encoded_lengths", type: "int64", shape: ["batch"] },
    ],
    metadata,
  });

  const dec = new GraphBuilder();
  const embedding = dec.constant(new Float32Array(vocabulary * NEMO_PRED_HIDDEN), [
    vocabulary,
    NEMO_PRED_HIDDEN,
  ]);
  dec.op("Transpose", [dec.op("Gather", [embedding, "targets"])], { perm: { ints: [0, 2, 1] } }, "outputs");
  dec.op("Identity", ["target_length"], undefined, "prednet_lengths");
  dec.op("Identity", ["states.1"], undefined, "states");
  dec.op("Identity", ["onnx::Slice_3"], undefined, "162");
  const stateShape = [NEMO_PRED_LAYERS, "batch", NEMO_PRED_HIDDEN];
  const decoder = encode(dec, {
    inputs: [
      { name: "targets", type: "int32", shape: ["batch", 1] },
      { name: "target_length", type: "int32", shape: ["batch"] },
      { name: "states.1", type: "float", shape: stateShape },
      { name: "onnx::Slice_3", type: "float", shape: stateShape },
    ],
    outputs: [
      { name: "outputs", type: "float", shape: ["batch", NEMO_PRED_HIDDEN, 1] },
      { name: "prednet_lengths", type: "int32", shape: ["batch"] },
      { name: "states", type: "float", shape: stateShape },
      { name: "162", type: "float", shape: stateShape },
    ],
  });

  const join = new GraphBuilder();
  const weights = new Float32Array(width * columns);
  for (let t = 0; t < v; t++) weights[t * columns + t] = 10;
  for (let d = 0; d < NEMO_DURATIONS; d++) weights[(v + d) * columns + vocabulary + d] = 1;
  const bias = new Float32Array(columns);
  bias[v] = 1; // blank, unless a tone starts in this frame
  const fromEncoder = join.op("MatMul", [
    join.op("Transpose", ["encoder_outputs"], { perm: { ints: [0, 2, 1] } }),
    join.constant(weights, [width, columns]),
  ]);
  const fromDecoder = join.op("MatMul", [
    join.op("Transpose", ["decoder_outputs"], { perm: { ints: [0, 2, 1] } }),
    join.constant(new Float32Array(NEMO_PRED_HIDDEN * columns), [NEMO_PRED_HIDDEN, columns]),
  ]);
  const logits = join.op("Add", [join.op("Add", [fromEncoder, fromDecoder]), join.constant(bias, [columns])]);
  join.op("Unsqueeze", [logits, join.ints([1])], undefined, "outputs");
  const joiner = encode(join, {
    inputs: [
      { name: "encoder_outputs", type: "float", shape: ["batch", width, "T"] },
      { name: "decoder_outputs", type: "float", shape: ["batch", NEMO_PRED_HIDDEN, "U"] },
    ],
    outputs: [{ name: "outputs", type: "float", shape: ["batch", "T", "U", columns] }],
  });
  const lines = [...tokens.map(({ piece }, t) => `${piece} ${t}`), `<blk> ${v}`];
  return { encoder, decoder, joiner, tokens: lines.join("\n") + "\n" };
}

const GENERATORS: Record<
  Exclude<RecogniserFamily, "zipformer-ctc">,
  (o: ToneRecogniserOptions) => GeneratedFiles
> = {
  moonshine: toneMoonshine,
  whisper: toneWhisper,
  "nemo-transducer": toneNemoTransducer,
};

/**
 * Installs a generated tone recogniser in `modelsDir` as `bin/recap models pull <catalogueName>` installs the real
 * one: each of the catalogue entry's files under its name and role, and the manifest (writeManifest) of its kind,
 * family, languages and word timings. `name` installs it under another name. Gives the name.
 * @throws Error when the catalogue has no such recogniser, or the generator no file for one of its roles
 */
export function installToneModel(
  modelsDir: string,
  catalogueName: string,
  options: ToneRecogniserOptions & { name?: string } = {},
): string {
  const entry = catalogueEntry(catalogueName);
  if (entry?.family === undefined || entry.family === "zipformer-ctc") {
    throw new Error(`${catalogueName} is not a catalogue recogniser the generator knows`);
  }
  const generated = GENERATORS[entry.family](options);
  const name = options.name ?? entry.name;
  const dir = join(modelsDir, name);
  mkdirSync(dir, { recursive: true });
  for (const [role, file] of Object.entries(entry.files)) {
    const contents = generated[role];
    if (contents === undefined) throw new Error(`the generated ${entry.family} model has no ${role} file`);
    writeFileSync(join(dir, file), contents);
  }
  writeManifest(dir, {
    name,
    kind: entry.kind,
    family: entry.family,
    files: entry.files,
    languages: entry.languages,
    wordTimings: entry.wordTimings,
  });
  return name;
}

/**
 * Tiny speech models generated for the tests, in the shapes sherpa-onnx's loaders expect of the real ones
 * (the input and output names, state shapes and metadata its C++ reads), with weights chosen so that what
 * they hear is known: speech follows frame energy, and each token or speaker is a pure tone.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeManifest } from "../../src/media/model-store.ts";
import { encodeOnnxModel, type OnnxNode, type OnnxTensor } from "./onnx.ts";

const FEATURE_DIM = 80;
const SAMPLE_RATE = 16_000;

const scalar = (name: string, value: number): OnnxTensor => ({
  name,
  dims: [],
  data: Float32Array.of(value),
});

/**
 * The centre frequency of each of the 80 mel bins of sherpa-onnx's default fbank (kaldi's mel scale,
 * 20 Hz to 7600 Hz), so a generated model can listen to the bins a tone lands in.
 */
function melBinCentres(): number[] {
  const mel = (hz: number) => 1127 * Math.log(1 + hz / 700);
  const low = mel(20);
  const high = mel(SAMPLE_RATE / 2 - 400);
  const step = (high - low) / (FEATURE_DIM + 1);
  return Array.from(
    { length: FEATURE_DIM },
    (_, bin) => 700 * (Math.exp((low + (bin + 1) * step) / 1127) - 1),
  );
}

/** The three mel bins nearest to `hz`. */
function binsNear(hz: number): number[] {
  return melBinCentres()
    .map((centre, bin) => ({ bin, distance: Math.abs(Math.log(centre / hz)) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ bin }) => bin);
}

/**
 * A column of weights over the 80 log-mel features that reads how far the bins around `hz` stand above the
 * frame's mean: near zero in silence or broadband noise, large while a tone at `hz` sounds.
 */
function toneDetector(hz: number): Float32Array {
  const column = new Float32Array(FEATURE_DIM).fill(-1 / FEATURE_DIM);
  const bins = binsNear(hz);
  for (const bin of bins) column[bin] = (column[bin] ?? 0) + 1 / bins.length;
  return column;
}

/** Weights [80, columns.length], row-major, from per-column detectors. */
function weightMatrix(columns: Float32Array[]): Float32Array {
  const weights = new Float32Array(FEATURE_DIM * columns.length);
  columns.forEach((column, j) => column.forEach((w, i) => (weights[i * columns.length + j] = w)));
  return weights;
}

/**
 * Silero VAD as k2-fsa exports it (the `silero_vad.onnx` of sherpa-onnx's asr-models release): inputs x [1, 512],
 * h and c [2, 1, 64]; outputs prob, new_h, new_c. The speech probability is a sigmoid of the window's energy in
 * decibels above `thresholdDb` (dBFS), so a tone or a voice is speech and digital silence is not.
 */
export function writeEnergyVad(path: string, thresholdDb = -40): void {
  const nodes: OnnxNode[] = [
    { op: "Mul", inputs: ["x", "x"], outputs: ["squares"] },
    { op: "ReduceMean", inputs: ["squares"], outputs: ["energy"], attributes: { axes: { ints: [1] } } },
    { op: "Add", inputs: ["energy", "floor"], outputs: ["energy_floored"] },
    { op: "Log", inputs: ["energy_floored"], outputs: ["log_energy"] },
    { op: "Sub", inputs: ["log_energy", "log_threshold"], outputs: ["above"] },
    { op: "Mul", inputs: ["above", "gain"], outputs: ["logit"] },
    { op: "Sigmoid", inputs: ["logit"], outputs: ["prob"] },
    { op: "Identity", inputs: ["h"], outputs: ["new_h"] },
    { op: "Identity", inputs: ["c"], outputs: ["new_c"] },
  ];
  writeFileSync(
    path,
    encodeOnnxModel({
      nodes,
      inputs: [
        { name: "x", type: "float", shape: [1, 512] },
        { name: "h", type: "float", shape: [2, 1, 64] },
        { name: "c", type: "float", shape: [2, 1, 64] },
      ],
      outputs: [
        { name: "prob", type: "float", shape: [1, 1] },
        { name: "new_h", type: "float", shape: [2, 1, 64] },
        { name: "new_c", type: "float", shape: [2, 1, 64] },
      ],
      initializers: [
        scalar("floor", 1e-12),
        scalar("log_threshold", (thresholdDb / 10) * Math.log(10)),
        scalar("gain", 2),
      ],
      metadata: { model_type: "silero-vad-v4", sample_rate: SAMPLE_RATE, version: 4 },
    }),
  );
}

/** One token of the tone recogniser: the SentencePiece piece it emits while a tone at `hz` sounds. */
export interface ToneToken {
  piece: string;
  hz: number;
}

/**
 * A zipformer2 CTC recogniser (sherpa-onnx's `zipformerCtc`, which needs no metadata: the vocabulary size is
 * read from the output's shape, the subsampling is 4, 40 ms a frame) over 80-dim fbank features: average
 * pooling by 4 in time, MatMul, Add, LogSoftmax. Token 0 is `<blk>`, which wins unless one of `tokens`' tones
 * sounds; writes `model.onnx` and `tokens.txt` into `dir`.
 */
export function writeToneCtcRecogniser(dir: string, tokens: ToneToken[]): void {
  mkdirSync(dir, { recursive: true });
  const vocabulary = tokens.length + 1;
  const blank = new Float32Array(FEATURE_DIM);
  const nodes: OnnxNode[] = [
    {
      op: "Transpose",
      inputs: ["x"],
      outputs: ["channels_first"],
      attributes: { perm: { ints: [0, 2, 1] } },
    },
    {
      op: "AveragePool",
      inputs: ["channels_first"],
      outputs: ["pooled"],
      attributes: { kernel_shape: { ints: [4] }, strides: { ints: [4] } },
    },
    { op: "Transpose", inputs: ["pooled"], outputs: ["frames"], attributes: { perm: { ints: [0, 2, 1] } } },
    { op: "MatMul", inputs: ["frames", "weights"], outputs: ["scores"] },
    { op: "Add", inputs: ["scores", "bias"], outputs: ["logits"] },
    { op: "LogSoftmax", inputs: ["logits"], outputs: ["log_probs"], attributes: { axis: { int: -1 } } },
    { op: "Div", inputs: ["x_lens", "four"], outputs: ["log_probs_len"] },
  ];
  const bias = new Float32Array(vocabulary);
  bias[0] = 2; // a tone's bins stand well above 2 (natural-log units) over the frame's mean; silence's do not
  writeFileSync(
    join(dir, "model.onnx"),
    encodeOnnxModel({
      nodes,
      inputs: [
        { name: "x", type: "float", shape: ["N", "T", FEATURE_DIM] },
        { name: "x_lens", type: "int64", shape: ["N"] },
      ],
      outputs: [
        { name: "log_probs", type: "float", shape: ["N", "T_out", vocabulary] },
        { name: "log_probs_len", type: "int64", shape: ["N"] },
      ],
      initializers: [
        {
          name: "weights",
          dims: [FEATURE_DIM, vocabulary],
          data: weightMatrix([blank, ...tokens.map(({ hz }) => toneDetector(hz))]),
        },
        { name: "bias", dims: [vocabulary], data: bias },
        { name: "four", dims: [], data: BigInt64Array.of(4n) },
      ],
    }),
  );
  writeFileSync(
    join(dir, "tokens.txt"),
    ["<blk> 0", ...tokens.map(({ piece }, index) => `${piece} ${index + 1}`)].join("\n") + "\n",
  );
}

/** The tones of the generated recogniser: "▁lo" + "w" make the word "low". */
export const TONE_TOKENS: ToneToken[] = [
  { piece: "\u2581lo", hz: 300 },
  { piece: "w", hz: 1000 },
  { piece: "\u2581hi", hz: 2000 },
];

/** Installs the energy VAD in `modelsDir` as `recap models pull` installs silero-vad. */
export function installEnergyVad(modelsDir: string, name = "silero-vad"): void {
  const dir = join(modelsDir, name);
  mkdirSync(dir, { recursive: true });
  writeEnergyVad(join(dir, "silero_vad.onnx"));
  writeManifest(dir, {
    name,
    kind: "vad",
    files: { model: "silero_vad.onnx" },
    languages: [],
    wordTimings: false,
  });
}

/** Installs the tone recogniser in `modelsDir` under `name`, an English zipformer2 CTC model. */
export function installToneRecogniser(modelsDir: string, name = "tone-ctc", tokens = TONE_TOKENS): void {
  const dir = join(modelsDir, name);
  writeToneCtcRecogniser(dir, tokens);
  writeManifest(dir, {
    name,
    kind: "recogniser",
    family: "zipformer-ctc",
    files: { model: "model.onnx", tokens: "tokens.txt" },
    languages: ["en"],
    wordTimings: true,
  });
}

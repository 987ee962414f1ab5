/**
 * Tiny speech models generated for the tests, the benches and `npm run models:generate`, in the shapes
 * sherpa-onnx's loaders expect of the real ones (the input and output names, state shapes and metadata its C++
 * reads), with weights chosen so that what they hear is known: speech follows frame energy, and each token or
 * speaker is a pure tone. The catalogue's recogniser families are in recognisers.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeManifest } from "../../src/media/model-store.ts";
import { CATALOGUE, catalogueEntry } from "../../src/media/models.ts";
import { encodeOnnxModel, type OnnxNode, type OnnxTensor } from "./onnx.ts";
import { installToneModel } from "./recognisers.ts";
import {
  KALDI_FBANK,
  SAMPLE_RATE,
  TONE_TOKENS,
  VOICES,
  toneDetector,
  weightMatrix,
  type ToneToken,
} from "./tones.ts";

export { TONE_TOKENS, VOICES, type ToneToken } from "./tones.ts";

const FEATURE_DIM = KALDI_FBANK.bins;

const scalar = (name: string, value: number): OnnxTensor => ({
  name,
  dims: [],
  data: Float32Array.of(value),
});

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

/**
 * A zipformer2 CTC recogniser (sherpa-onnx's `zipformerCtc`, which needs no metadata: the vocabulary size is
 * read from the output's shape, the subsampling is 4, 40 ms a frame) over 80-dim fbank features: average
 * pooling by 4 in time, MatMul by `columns` (one detector over the features per piece, `<blk>` first), Add
 * `bias`, LogSoftmax; writes `model.onnx` and `tokens.txt` (`<blk>` and `pieces`) into `dir`.
 */
export function writeCtcRecogniser(
  dir: string,
  pieces: string[],
  columns: Float32Array[],
  bias: Float32Array,
): void {
  mkdirSync(dir, { recursive: true });
  const vocabulary = pieces.length + 1;
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
        { name: "weights", dims: [FEATURE_DIM, vocabulary], data: weightMatrix(columns) },
        { name: "bias", dims: [vocabulary], data: bias },
        { name: "four", dims: [], data: BigInt64Array.of(4n) },
      ],
    }),
  );
  writeFileSync(
    join(dir, "tokens.txt"),
    ["<blk> 0", ...pieces.map((piece, index) => `${piece} ${index + 1}`)].join("\n") + "\n",
  );
}

/** The CTC recogniser whose `<blk>` wins unless one of `tokens`' tones sounds. */
export function writeToneCtcRecogniser(dir: string, tokens: ToneToken[]): void {
  const bias = new Float32Array(tokens.length + 1);
  bias[0] = 2; // a tone's bins stand well above 2 (natural-log units) over the frame's mean; silence's do not
  writeCtcRecogniser(
    dir,
    tokens.map(({ piece }) => piece),
    [new Float32Array(FEATURE_DIM), ...tokens.map(({ hz }) => toneDetector(hz))],
    bias,
  );
}

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

/** Installs the recogniser `write` writes into its folder in `modelsDir` under `name`, an English zipformer2 CTC model. */
function installCtcRecogniser(modelsDir: string, name: string, write: (dir: string) => void): void {
  const dir = join(modelsDir, name);
  write(dir);
  writeManifest(dir, {
    name,
    kind: "recogniser",
    family: "zipformer-ctc",
    files: { model: "model.onnx", tokens: "tokens.txt" },
    languages: ["en"],
    wordTimings: true,
  });
}

/** Installs the tone recogniser in `modelsDir` under `name`. */
export function installToneRecogniser(modelsDir: string, name = "tone-ctc", tokens = TONE_TOKENS): void {
  installCtcRecogniser(modelsDir, name, (dir) => writeToneCtcRecogniser(dir, tokens));
}

/**
 * Installs a recogniser that says `word` once for every utterance it is given, whatever the audio (its features
 * count for nothing, the bias decides): with it, what a media job stores is where the VAD cut.
 */
export function installOneWordRecogniser(modelsDir: string, name: string, word: string): void {
  const nothing = new Float32Array(FEATURE_DIM);
  installCtcRecogniser(modelsDir, name, (dir) =>
    writeCtcRecogniser(dir, [`\u2581${word}`], [nothing, nothing], Float32Array.of(0, 1)),
  );
}

/**
 * Installs the local engine the tests run on in `modelsDir`, the energy VAD and a tone recogniser under `name`,
 * and gives the settings that make a server use it.
 */
export function installToneEngine(
  modelsDir: string,
  name = "tone-ctc",
  tokens = TONE_TOKENS,
): { RECAP_MODELS_DIR: string; RECAP_ASR_MODEL: string } {
  installEnergyVad(modelsDir);
  installToneRecogniser(modelsDir, name, tokens);
  return { RECAP_MODELS_DIR: modelsDir, RECAP_ASR_MODEL: name };
}

/** What the generated segmentation model's windows are: 2 s, read in 20 ms frames. */
const SEGMENTATION_WINDOW = 2 * SAMPLE_RATE;
const SEGMENTATION_FRAME = 320;

/**
 * A pyannote segmentation-3.0 model as sherpa-onnx reads it (input [1, 1, window_size] samples; output
 * [1, frames, 7] powerset scores for 3 speakers, at most 2 at once; the metadata of the published export).
 * Within each 2 s window, local speaker 0 is whoever makes a tone at `voices[0]` Hz and speaker 1 a tone at
 * `voices[1]` Hz: each 20 ms frame's energy at the two frequencies (a Hann-windowed Fourier coefficient,
 * as a convolution) decides between silence and the louder of the two.
 */
export function writeToneSegmentation(path: string, voices: [number, number]): void {
  const kernel = new Float32Array(4 * SEGMENTATION_FRAME);
  voices.forEach((hz, voice) => {
    for (let i = 0; i < SEGMENTATION_FRAME; i++) {
      const hann = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / SEGMENTATION_FRAME);
      const phase = (2 * Math.PI * hz * i) / SAMPLE_RATE;
      kernel[2 * voice * SEGMENTATION_FRAME + i] = hann * Math.cos(phase);
      kernel[(2 * voice + 1) * SEGMENTATION_FRAME + i] = hann * Math.sin(phase);
    }
  });
  // E = 6400·A² for a tone of amplitude A at a matched frequency; speech begins at A = 0.01
  const quietest = 6400 * 0.01 ** 2;
  const scores = Float32Array.of(0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0); // [2, 7]: class 1 ← voice 0, class 2 ← voice 1
  const bias = Float32Array.of(0, 0, 0, -1000, -1000, -1000, -1000); // silence, 3 speakers, 3 pairs
  writeFileSync(
    path,
    encodeOnnxModel({
      nodes: [
        {
          op: "Conv",
          inputs: ["x", "fourier"],
          outputs: ["coefficients"],
          attributes: {
            kernel_shape: { ints: [SEGMENTATION_FRAME] },
            strides: { ints: [SEGMENTATION_FRAME] },
          },
        },
        { op: "Mul", inputs: ["coefficients", "coefficients"], outputs: ["squares"] },
        {
          op: "Conv",
          inputs: ["squares", "pairs"],
          outputs: ["energy"],
          attributes: { kernel_shape: { ints: [1] } },
        },
        { op: "Add", inputs: ["energy", "floor"], outputs: ["energy_floored"] },
        { op: "Log", inputs: ["energy_floored"], outputs: ["log_energy"] },
        { op: "Sub", inputs: ["log_energy", "log_quietest"], outputs: ["loudness"] },
        {
          op: "Transpose",
          inputs: ["loudness"],
          outputs: ["frames"],
          attributes: { perm: { ints: [0, 2, 1] } },
        },
        { op: "MatMul", inputs: ["frames", "scores"], outputs: ["class_scores"] },
        { op: "Add", inputs: ["class_scores", "bias"], outputs: ["y"] },
      ],
      inputs: [{ name: "x", type: "float", shape: [1, 1, SEGMENTATION_WINDOW] }],
      outputs: [{ name: "y", type: "float", shape: [1, SEGMENTATION_WINDOW / SEGMENTATION_FRAME, 7] }],
      initializers: [
        { name: "fourier", dims: [4, 1, SEGMENTATION_FRAME], data: kernel },
        { name: "pairs", dims: [2, 4, 1], data: Float32Array.of(1, 1, 0, 0, 0, 0, 1, 1) },
        scalar("floor", 1e-9),
        scalar("log_quietest", Math.log(quietest)),
        { name: "scores", dims: [2, 7], data: scores },
        { name: "bias", dims: [7], data: bias },
      ],
      metadata: {
        model_type: "pyannote-segmentation-3.0",
        sample_rate: SAMPLE_RATE,
        window_size: SEGMENTATION_WINDOW,
        receptive_field_size: SEGMENTATION_FRAME,
        receptive_field_shift: SEGMENTATION_FRAME,
        num_speakers: 3,
        powerset_max_classes: 2,
        num_classes: 7,
      },
    }),
  );
}

/** The metadata of a 3D-Speaker export that sherpa-onnx's general speaker-embedding extractor reads. */
const speakerEmbeddingMetadata = (dimension: number) => ({
  framework: "3d-speaker",
  output_dim: dimension,
  sample_rate: SAMPLE_RATE,
  normalize_samples: 1,
  language: "English",
});

/**
 * A speaker embedding model in the shape of 3D-Speaker's exports (input [1, T, 80] fbank, output [1, dim]; the
 * metadata sherpa-onnx's general extractor reads): the embedding is how far the mel bins around each of
 * `voices` stand above the rest, averaged over time, so two tone voices give orthogonal embeddings.
 */
export function writeToneEmbedding(path: string, voices: number[]): void {
  writeFileSync(
    path,
    encodeOnnxModel({
      nodes: [
        {
          op: "ReduceMean",
          inputs: ["x"],
          outputs: ["mean"],
          attributes: { axes: { ints: [1] }, keepdims: { int: 0 } },
        },
        { op: "MatMul", inputs: ["mean", "detectors"], outputs: ["raw"] },
        { op: "Relu", inputs: ["raw"], outputs: ["embedding"] },
      ],
      inputs: [{ name: "x", type: "float", shape: [1, "T", FEATURE_DIM] }],
      outputs: [{ name: "embedding", type: "float", shape: [1, voices.length] }],
      initializers: [
        {
          name: "detectors",
          dims: [FEATURE_DIM, voices.length],
          data: weightMatrix(voices.map((hz) => toneDetector(hz))),
        },
      ],
      metadata: speakerEmbeddingMetadata(voices.length),
    }),
  );
}

/**
 * A speaker embedding model in the same 3D-Speaker shape whose embedding is the recording's spectral envelope: the
 * time-averaged log-mel fbank with its mean over the 80 bins removed (so loudness counts for nothing), less
 * `centre` (by default nothing). Two voices give correlated but distinct vectors, and one voice's sentences nearly
 * the same one; with `centre` the mean envelope of other voices, what all speech shares is taken out, as a trained
 * model's embeddings of different people point in different directions. A crude stand-in for CAM++ on which
 * thresholds can be swept (bench/voices/run.ts), not a model of real speakers' differences.
 */
export function writeSpectralEmbedding(
  path: string,
  centre: Float32Array = new Float32Array(FEATURE_DIM),
): void {
  writeFileSync(
    path,
    encodeOnnxModel({
      nodes: [
        {
          op: "ReduceMean",
          inputs: ["x"],
          outputs: ["envelope"],
          attributes: { axes: { ints: [1] }, keepdims: { int: 0 } },
        },
        {
          op: "ReduceMean",
          inputs: ["envelope"],
          outputs: ["level"],
          attributes: { axes: { ints: [1] }, keepdims: { int: 1 } },
        },
        { op: "Sub", inputs: ["envelope", "level"], outputs: ["shape"] },
        { op: "Sub", inputs: ["shape", "centre"], outputs: ["embedding"] },
      ],
      inputs: [{ name: "x", type: "float", shape: [1, "T", FEATURE_DIM] }],
      outputs: [{ name: "embedding", type: "float", shape: [1, FEATURE_DIM] }],
      initializers: [{ name: "centre", dims: [FEATURE_DIM], data: centre }],
      metadata: speakerEmbeddingMetadata(FEATURE_DIM),
    }),
  );
}

/**
 * Writes a generated model in `modelsDir` as `bin/recap models pull` installs the catalogue's `name`: its one
 * file under the entry's name for its `model` role, and the manifest of its kind.
 */
function installAsCatalogue(modelsDir: string, name: string, write: (path: string) => void): string {
  const entry = catalogueEntry(name);
  const file = entry?.files.model;
  if (entry === undefined || file === undefined)
    throw new Error(`the catalogue has no one-file model ${name}`);
  const dir = join(modelsDir, name);
  mkdirSync(dir, { recursive: true });
  write(join(dir, file));
  writeManifest(dir, { name, kind: entry.kind, files: entry.files, languages: [], wordTimings: false });
  return name;
}

/** Installs the tone segmentation and embedding models as the catalogue's diarization models. */
export function installToneDiarization(modelsDir: string): { segmentation: string; embedding: string } {
  return {
    segmentation: installAsCatalogue(modelsDir, "pyannote-segmentation-3.0", (path) =>
      writeToneSegmentation(path, VOICES),
    ),
    embedding: installAsCatalogue(modelsDir, "campplus-en-voxceleb", (path) =>
      writeToneEmbedding(path, VOICES),
    ),
  };
}

/** Installs the spectral-envelope embedding model, less `centre`, as the catalogue's speaker-embedding model. */
export function installSpectralEmbedding(modelsDir: string, centre?: Float32Array): void {
  installAsCatalogue(modelsDir, "campplus-en-voxceleb", (path) => writeSpectralEmbedding(path, centre));
}

/** The models installGeneratedModels writes, by name: the catalogue's (all but its real Silero VAD) and tone-ctc. */
export const GENERATED_MODELS = [
  "silero-vad",
  "tone-ctc",
  ...CATALOGUE.filter((entry) => entry.kind === "recogniser").map((entry) => entry.name),
  "pyannote-segmentation-3.0",
  "campplus-en-voxceleb",
];

/**
 * Installs every generated model in `modelsDir` (RECAP_MODELS_DIR): the energy VAD as silero-vad, the zipformer2
 * CTC tone recogniser as tone-ctc, each of the catalogue's recognisers in its family's layout under its own name,
 * and the diarization models, so the local engine runs end to end, recorded and live, without weights.
 */
export function installGeneratedModels(modelsDir: string): void {
  installEnergyVad(modelsDir);
  installToneRecogniser(modelsDir);
  for (const entry of CATALOGUE) if (entry.kind === "recogniser") installToneModel(modelsDir, entry.name);
  installToneDiarization(modelsDir);
}

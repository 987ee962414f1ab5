/**
 * A generated recogniser that says one word for every utterance it is given, whatever the audio: with it, what a
 * media job stores is where the VAD cut, so a test can hold a real VAD on a real voice to the messages.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeManifest } from "../../src/media/model-store.ts";
import { encodeOnnxModel } from "../../scripts/speech-models/onnx.ts";

const FEATURE_DIM = 80;

/**
 * A zipformer2 CTC recogniser (sherpa-onnx's `zipformerCtc`: no metadata, 4 frames of features pooled into one
 * 40 ms frame) whose only token, `word`, outscores the blank in every frame, so greedy CTC emits it once, at the
 * utterance's start; installed in `modelsDir` under `name` as `recap models pull` installs a recogniser.
 */
export function installOneWordRecogniser(modelsDir: string, name: string, word: string): void {
  const dir = join(modelsDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "model.onnx"),
    encodeOnnxModel({
      nodes: [
        {
          op: "Transpose",
          inputs: ["x"],
          outputs: ["by_feature"],
          attributes: { perm: { ints: [0, 2, 1] } },
        },
        {
          op: "AveragePool",
          inputs: ["by_feature"],
          outputs: ["pooled"],
          attributes: { kernel_shape: { ints: [4] }, strides: { ints: [4] } },
        },
        {
          op: "Transpose",
          inputs: ["pooled"],
          outputs: ["frames"],
          attributes: { perm: { ints: [0, 2, 1] } },
        },
        // Zero weights: the features count for nothing, the bias decides.
        { op: "MatMul", inputs: ["frames", "weights"], outputs: ["scores"] },
        { op: "Add", inputs: ["scores", "bias"], outputs: ["logits"] },
        { op: "LogSoftmax", inputs: ["logits"], outputs: ["log_probs"], attributes: { axis: { int: -1 } } },
        { op: "Div", inputs: ["x_lens", "four"], outputs: ["log_probs_len"] },
      ],
      inputs: [
        { name: "x", type: "float", shape: ["N", "T", FEATURE_DIM] },
        { name: "x_lens", type: "int64", shape: ["N"] },
      ],
      outputs: [
        { name: "log_probs", type: "float", shape: ["N", "T_out", 2] },
        { name: "log_probs_len", type: "int64", shape: ["N"] },
      ],
      initializers: [
        { name: "weights", dims: [FEATURE_DIM, 2], data: new Float32Array(FEATURE_DIM * 2) },
        { name: "bias", dims: [2], data: Float32Array.of(0, 1) },
        { name: "four", dims: [], data: BigInt64Array.of(4n) },
      ],
    }),
  );
  writeFileSync(join(dir, "tokens.txt"), `<blk> 0\n\u2581${word} 1\n`);
  writeManifest(dir, {
    name,
    kind: "recogniser",
    family: "zipformer-ctc",
    files: { model: "model.onnx", tokens: "tokens.txt" },
    languages: ["en"],
    wordTimings: true,
  });
}

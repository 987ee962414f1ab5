import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodeOnnxModel } from "../../../scripts/speech-models/onnx.ts";
import { NotAnOnnxModel, readOnnxSignature } from "./onnx-signature.ts";

const dir = mkdtempSync(join(tmpdir(), "recap-onnx-signature-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("reading an ONNX model's signature without its weights", () => {
  it("reads a real export: the Silero VAD v4 Recap ships (PyTorch's exporter)", () => {
    const signature = readOnnxSignature(
      resolve(import.meta.dirname, "../../../models/silero-vad/silero_vad_v4.onnx"),
    );

    expect(signature.inputs).toEqual([
      { name: "input", type: "float", dims: [null, null] },
      { name: "sr", type: "int64", dims: [] },
      { name: "h", type: "float", dims: [2, null, 64] },
      { name: "c", type: "float", dims: [2, null, 64] },
    ]);
    expect(signature.outputs.map((output) => output.name)).toEqual(["output", "hn", "cn"]);
    expect(signature.metadata.size).toBe(0);
  });

  it("reads the metadata, and leaves out an input that is an initializer (which no caller feeds)", () => {
    const file = join(dir, "model.onnx");
    writeFileSync(
      file,
      encodeOnnxModel({
        nodes: [{ op: "Add", inputs: ["x", "bias"], outputs: ["y"] }],
        inputs: [
          { name: "x", type: "int32", shape: ["T", 3] },
          { name: "bias", type: "int32", shape: [3] },
        ],
        outputs: [{ name: "y", type: "int32", shape: ["T", 3] }],
        initializers: [{ name: "bias", dims: [3], data: Int32Array.of(1, 2, 3) }],
        metadata: { model_type: "test", vocab_size: 3 },
      }),
    );

    expect(readOnnxSignature(file)).toEqual({
      inputs: [{ name: "x", type: "int32", dims: [null, 3] }],
      outputs: [{ name: "y", type: "int32", dims: [null, 3] }],
      metadata: new Map([
        ["model_type", "test"],
        ["vocab_size", "3"],
      ]),
    });
  });

  it("refuses a file that is not an ONNX model, or one cut short", () => {
    const tokens = join(dir, "tokens.txt");
    writeFileSync(tokens, "<blk> 0\n\u2581hi 1\n");
    expect(() => readOnnxSignature(tokens)).toThrow(NotAnOnnxModel);
    const cut = join(dir, "cut.onnx");
    const vad = readFileSync(resolve(import.meta.dirname, "../../../models/silero-vad/silero_vad_v4.onnx"));
    writeFileSync(cut, vad.subarray(0, vad.length / 2));
    expect(() => readOnnxSignature(cut)).toThrow(NotAnOnnxModel);
  });
});

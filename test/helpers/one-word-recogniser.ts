/**
 * A generated recogniser that says one word for every utterance it is given, whatever the audio: with it, what a
 * media job stores is where the VAD cut, so a test can hold a real VAD on a real voice to the messages.
 */
import { join } from "node:path";
import { writeManifest } from "../../src/media/model-store.ts";
import { writeCtcRecogniser } from "../../scripts/speech-models/models.ts";

/**
 * A CTC recogniser whose only piece, `word`, outscores the blank in every frame (its features count for nothing,
 * the bias decides), so greedy CTC emits it once, at the utterance's start; installed in `modelsDir` under `name`
 * as `recap models pull` installs a recogniser.
 */
export function installOneWordRecogniser(modelsDir: string, name: string, word: string): void {
  const dir = join(modelsDir, name);
  writeCtcRecogniser(
    dir,
    [`\u2581${word}`],
    [new Float32Array(80), new Float32Array(80)],
    Float32Array.of(0, 1),
  );
  writeManifest(dir, {
    name,
    kind: "recogniser",
    family: "zipformer-ctc",
    files: { model: "model.onnx", tokens: "tokens.txt" },
    languages: ["en"],
    wordTimings: true,
  });
}

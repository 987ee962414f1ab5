import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERATED_MODELS, installEnergyVad } from "../../../scripts/speech-models/models.ts";
import {
  installToneModel,
  nemoMetadata,
  whisperMetadata,
} from "../../../scripts/speech-models/recognisers.ts";
import { writeRecording, type Part } from "../../../test/helpers/audio.ts";
import { decodeAudio, type FfmpegPaths } from "../ffmpeg.ts";
import { listInstalledModels, MANIFEST_FILE, writeManifest, type InstalledModel } from "../model-store.ts";
import { CATALOGUE, DEFAULT_MODELS } from "../models.ts";
import { readWavSamples } from "../wav.ts";
import { createLocalEngine } from "./engine.ts";

/**
 * Every recogniser of the catalogue, generated in its family's layout (scripts/speech-models/recognisers.ts) and
 * installed as `bin/recap models pull` installs it, loads through the local engine and decodes tones to known
 * words. A file role, metadata key or configuration key the engine got wrong would fail here: sherpa-onnx would
 * refuse the model, end the process or answer no text.
 */
const FFMPEG: FfmpegPaths = { ffmpegPath: "ffmpeg", ffprobePath: "ffprobe" };

/** A NeMo encoder frame (80 ms): how finely the transducer times words. */
const NEMO_FRAME_MS = 80;

const tones: Part[] = [
  { silence: 0.5 },
  { tone: 300, seconds: 0.4 }, // ▁lo, 500–900 ms
  { silence: 0.2 },
  { tone: 1000, seconds: 0.3 }, // w, 1100–1400 ms
  { silence: 0.2 },
  { tone: 2000, seconds: 0.4 }, // ▁hi, 1600–2000 ms
  { silence: 1.0 },
  { tone: 2000, seconds: 0.4 }, // ▁hi, 3000–3400 ms
  { silence: 1.0 },
];

const options = () => ({ vocabulary: [], signal: new AbortController().signal });

let dir: string;
let recording: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "recap-families-"));
  installEnergyVad(dir);
  recording = join(dir, "tones.flac");
  writeRecording(recording, tones);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const recognisers = CATALOGUE.filter((entry) => entry.kind === "recogniser");

describe.each(recognisers.map((entry) => [entry.name, entry] as const))(
  "%s, generated in its family's layout",
  (name, entry) => {
    it("loads through the local engine and decodes tones to their words", async () => {
      installToneModel(dir, name);
      const engine = await createLocalEngine({ modelsDir: dir, model: name });
      try {
        const segments = await engine.transcribe(decodeAudio(FFMPEG, recording), options());

        expect(segments.map((segment) => segment.text)).toEqual(["low hi", "hi"]);
        if (!entry.wordTimings) {
          expect(segments.flatMap((segment) => segment.words)).toEqual([]);
          return;
        }
        // Parakeet TDT times each token by its frame and its duration (at most 4 frames): a word ends with its
        // last token's duration, so "low" ends with the tone of "w" and "hi" at most two frames before its own
        const words = segments.flatMap((segment) => segment.words);
        expect(words.map((word) => word.text)).toEqual(["low", "hi", "hi"]);
        const spoken = [
          { startMs: 500, endMs: 1400 },
          { startMs: 1600, endMs: 2000 },
          { startMs: 3000, endMs: 3400 },
        ];
        words.forEach((word, index) => {
          const { startMs, endMs } = spoken[index]!;
          expect(Math.abs(word.startMs - startMs)).toBeLessThanOrEqual(NEMO_FRAME_MS);
          expect(word.endMs).toBeLessThanOrEqual(endMs + NEMO_FRAME_MS);
          expect(word.endMs).toBeGreaterThanOrEqual(endMs - 2 * NEMO_FRAME_MS);
        });
      } finally {
        await engine.close();
      }
    });
  },
);

/** Writes an installed model's manifest again, as Recap writes manifests, with its files' roles changed by `roles`. */
function rewriteManifest(name: string, roles = (files: Record<string, string>) => files): void {
  const manifest = JSON.parse(readFileSync(join(dir, name, MANIFEST_FILE), "utf8")) as InstalledModel;
  const { kind, family, languages, wordTimings } = manifest;
  writeManifest(join(dir, name), {
    name,
    kind,
    family,
    files: roles(manifest.files),
    languages,
    wordTimings,
  });
}

const swapRoles = (name: string, first: string, second: string) =>
  rewriteManifest(name, (files) => ({ ...files, [first]: files[second]!, [second]: files[first]! }));

describe("a recogniser whose files do not fit its family's layout is refused before sherpa-onnx loads it", () => {
  it("Moonshine: models in each other's roles (sherpa-onnx would answer empty text), a model as the tokens file (it would end the process)", async () => {
    installToneModel(dir, "moonshine-base-en", { name: "moonshine-swapped" });
    swapRoles("moonshine-swapped", "preprocessor", "encoder");
    await expect(createLocalEngine({ modelsDir: dir, model: "moonshine-swapped" })).rejects.toThrow(
      "model moonshine-swapped: encode.int8.onnx (its preprocessor) is not a Moonshine preprocessor, which takes (float); it takes (float, int32)",
    );
    swapRoles("moonshine-swapped", "preprocessor", "encoder");
    swapRoles("moonshine-swapped", "uncachedDecoder", "cachedDecoder");
    await expect(createLocalEngine({ modelsDir: dir, model: "moonshine-swapped" })).rejects.toThrow(
      "model moonshine-swapped: cached_decode.int8.onnx (its uncachedDecoder) is not a Moonshine uncached decoder, which takes (int32, float, int32); it takes (int32, float, int32, float, float, float, float)",
    );

    swapRoles("moonshine-swapped", "uncachedDecoder", "cachedDecoder");
    swapRoles("moonshine-swapped", "tokens", "encoder");
    await expect(createLocalEngine({ modelsDir: dir, model: "moonshine-swapped" })).rejects.toThrow(
      /^model moonshine-swapped: tokens.txt \(its encoder\) is not an ONNX model \(.*\)$/,
    );
    swapRoles("moonshine-swapped", "tokens", "encoder");
    rewriteManifest("moonshine-swapped", (files) => ({ ...files, tokens: files.preprocessor! }));
    await expect(createLocalEngine({ modelsDir: dir, model: "moonshine-swapped" })).rejects.toThrow(
      /^model moonshine-swapped: preprocess.onnx is not a tokens file sherpa-onnx reads: line \d+ is not a token and its id$/,
    );
  });

  it("Whisper: an encoder without the metadata sherpa-onnx requires (it would end the process), encoder and decoder swapped, tokens not in base64", async () => {
    const metadata = whisperMetadata();
    delete metadata.n_text_ctx;
    delete metadata.sot_sequence;
    installToneModel(dir, "whisper-base.en", { name: "whisper-metadata", metadata });
    await expect(createLocalEngine({ modelsDir: dir, model: "whisper-metadata" })).rejects.toThrow(
      "model whisper-metadata: base.en-encoder.int8.onnx (its encoder) lacks the metadata sherpa-onnx reads of a Whisper encoder (n_text_ctx, sot_sequence): it was not exported for sherpa-onnx",
    );

    installToneModel(dir, "whisper-base.en", { name: "whisper-swapped" });
    swapRoles("whisper-swapped", "encoder", "decoder");
    await expect(createLocalEngine({ modelsDir: dir, model: "whisper-swapped" })).rejects.toThrow(
      "model whisper-swapped: base.en-decoder.int8.onnx (its encoder) is not a Whisper encoder, which takes (float); it takes (int64, float, float, float, float, int64)",
    );

    installToneModel(dir, "whisper-base.en", { name: "whisper-tokens" });
    const tokens = join(dir, "whisper-tokens", "base.en-tokens.txt");
    writeFileSync(tokens, "\u2581lo 1\nw 2\n\u2581hi 3\n");
    rewriteManifest("whisper-tokens");
    await expect(createLocalEngine({ modelsDir: dir, model: "whisper-tokens" })).rejects.toThrow(
      /^model whisper-tokens: base.en-tokens.txt is not a Whisper tokens file: ".*" is not base64$/,
    );
  });

  it("NeMo transducer: an encoder without the metadata sherpa-onnx requires (it would end the process), decoder and joiner swapped (it would crash), tokens without <blk> last", async () => {
    const metadata = nemoMetadata();
    delete metadata.pred_hidden;
    installToneModel(dir, "parakeet-tdt-0.6b-v2", { name: "parakeet-metadata", metadata });
    await expect(createLocalEngine({ modelsDir: dir, model: "parakeet-metadata" })).rejects.toThrow(
      "model parakeet-metadata: encoder.int8.onnx (its encoder) lacks the metadata sherpa-onnx reads of a NeMo transducer encoder (pred_hidden): it was not exported for sherpa-onnx",
    );

    installToneModel(dir, "parakeet-tdt-0.6b-v2", { name: "parakeet-swapped" });
    swapRoles("parakeet-swapped", "decoder", "joiner");
    await expect(createLocalEngine({ modelsDir: dir, model: "parakeet-swapped" })).rejects.toThrow(
      "model parakeet-swapped: joiner.int8.onnx (its decoder) is not a NeMo transducer decoder, which takes (int32, int32, float, float); it takes (float, float)",
    );

    installToneModel(dir, "parakeet-tdt-0.6b-v2", { name: "parakeet-tokens" });
    const tokens = join(dir, "parakeet-tokens", "tokens.txt");
    writeFileSync(
      tokens,
      readFileSync(tokens, "utf8").replace("<blk> 3\n", "").replace("\u2581lo 0", "<blk> 0"),
    );
    rewriteManifest("parakeet-tokens");
    await expect(createLocalEngine({ modelsDir: dir, model: "parakeet-tokens" })).rejects.toThrow(
      "model parakeet-tokens: tokens.txt does not fit the encoder's vocab_size: it must hold 4 tokens, the last <blk> (3)",
    );
  });
});

describe("npm run models:generate", () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/speech-models/generate.ts", ...args], {
      cwd: resolve(import.meta.dirname, "../../.."),
      encoding: "utf8",
    });

  it("writes every generated model as an installed models directory, and a recording the default recogniser transcribes", async () => {
    const modelsDir = join(dir, "generated");
    const generated = run(modelsDir);
    expect(generated.status).toBe(0);
    expect(listInstalledModels(modelsDir).map((model) => model.name)).toEqual([...GENERATED_MODELS].sort());

    const engine = await createLocalEngine({ modelsDir, model: DEFAULT_MODELS.recogniser });
    try {
      const segments = await engine.transcribe(readWavSamples(join(modelsDir, "low-hi.wav")), options());
      expect(segments.map((segment) => segment.text)).toEqual(["low hi"]);
    } finally {
      await engine.close();
    }

    const again = run(modelsDir);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`${modelsDir} already holds silero-vad, tone-ctc,`);
    expect(run("--force", modelsDir).status).toBe(0);
  });
});

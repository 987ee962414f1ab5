import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startReleaseServer, type ReleaseServer } from "../../test/helpers/release-server.ts";
import { TONE_TOKENS, writeEnergyVad, writeToneCtcRecogniser } from "../../scripts/speech-models/models.ts";
import { createLocalEngine } from "./local/engine.ts";
import { listInstalledModels, pullModel, readInstalledModel } from "./model-store.ts";
import type { CatalogueEntry } from "./models.ts";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("pullModel against a release server", () => {
  let work: string;
  let server: ReleaseServer;
  let modelsDir: string;
  let archive: Uint8Array;
  let vad: Uint8Array;
  let recogniser: CatalogueEntry;
  let vadEntry: CatalogueEntry;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "recap-pull-"));
    // a .tar.bz2 laid out as the sherpa-onnx releases are: one top directory holding the model's files
    writeToneCtcRecogniser(join(work, "sherpa-onnx-tone-ctc"), TONE_TOKENS);
    execFileSync("tar", ["-cjf", join(work, "tone.tar.bz2"), "-C", work, "sherpa-onnx-tone-ctc"]);
    archive = readFileSync(join(work, "tone.tar.bz2"));
    writeEnergyVad(join(work, "vad.onnx"));
    vad = readFileSync(join(work, "vad.onnx"));
    recogniser = {
      name: "tone-ctc",
      kind: "recogniser",
      family: "zipformer-ctc",
      download: {
        release: "asr-models",
        file: "sherpa-onnx-tone-ctc.tar.bz2",
        sha256: sha256(archive),
        bytes: archive.length,
      },
      archiveRoot: "sherpa-onnx-tone-ctc",
      files: { model: "model.onnx", tokens: "tokens.txt" },
      licence: "MIT",
      languages: ["en"],
      streaming: false,
      wordTimings: true,
      note: "generated",
    };
    vadEntry = {
      name: "silero-vad",
      kind: "vad",
      download: { release: "asr-models", file: "silero_vad.onnx", sha256: sha256(vad), bytes: vad.length },
      files: { model: "silero_vad.onnx" },
      licence: "MIT",
      languages: [],
      streaming: true,
      wordTimings: false,
      note: "generated",
    };
    server = await startReleaseServer();
  });

  beforeEach(() => {
    modelsDir = join(work, `models-${Math.random().toString(36).slice(2)}`);
    server.files.clear();
    server.files.set("/asr-models/sherpa-onnx-tone-ctc.tar.bz2", archive);
    server.files.set("/asr-models/silero_vad.onnx", vad);
  });

  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Everything in the models directory: a refused pull must leave it as it was. */
  const contents = () => readdirSync(modelsDir).sort();

  it("installs a verified archive and a single file where the engine loads them", async () => {
    const installed = await pullModel(recogniser, { modelsDir, baseUrl: server.url });
    await pullModel(vadEntry, { modelsDir, baseUrl: `${server.url}/` });

    expect(server.requests.slice(-2)).toEqual([
      "/asr-models/sherpa-onnx-tone-ctc.tar.bz2",
      "/asr-models/silero_vad.onnx",
    ]);
    expect(installed.source).toEqual({
      url: `${server.url}/asr-models/sherpa-onnx-tone-ctc.tar.bz2`,
      sha256: recogniser.download.sha256,
    });
    expect(contents()).toEqual(["silero-vad", "tone-ctc"]);
    expect(listInstalledModels(modelsDir).map((model) => model.name)).toEqual(["silero-vad", "tone-ctc"]);
    expect(readInstalledModel(modelsDir, "tone-ctc").files).toEqual(recogniser.files);
    const engine = await createLocalEngine({ modelsDir, model: "tone-ctc" });
    expect(engine.description).toBe("local tone-ctc");
    await engine.close();
  });

  it("refuses a tampered download of the right size, leaving nothing behind", async () => {
    const tampered = Uint8Array.from(archive);
    tampered[tampered.length - 10] = (tampered.at(-10) ?? 0) ^ 0xff;
    server.files.set("/asr-models/sherpa-onnx-tone-ctc.tar.bz2", tampered);

    await expect(pullModel(recogniser, { modelsDir, baseUrl: server.url })).rejects.toThrow(
      `tone-ctc: SHA-256 of the download is ${sha256(tampered)}, expected ${recogniser.download.sha256}: refused`,
    );
    expect(contents()).toEqual([]);
  });

  it("refuses a download longer or shorter than the pinned size", async () => {
    server.files.set("/asr-models/silero_vad.onnx", Uint8Array.from([...vad, 0]));
    await expect(pullModel(vadEntry, { modelsDir, baseUrl: server.url })).rejects.toThrow(
      `silero-vad: ${server.url}/asr-models/silero_vad.onnx sent more than the expected ${vad.length} bytes: refused`,
    );
    server.files.set("/asr-models/silero_vad.onnx", vad.subarray(1));
    await expect(pullModel(vadEntry, { modelsDir, baseUrl: server.url })).rejects.toThrow(
      `silero-vad: ${server.url}/asr-models/silero_vad.onnx sent ${vad.length - 1} bytes, expected ${vad.length}: refused`,
    );
    expect(contents()).toEqual([]);
  });

  it("refuses an archive without the files the engine loads, or a missing download", async () => {
    await expect(
      pullModel(
        { ...recogniser, files: { ...recogniser.files, model: "encoder.onnx" } },
        { modelsDir, baseUrl: server.url },
      ),
    ).rejects.toThrow("tone-ctc: encoder.onnx is missing or not a regular file");
    server.files.clear();
    await expect(pullModel(vadEntry, { modelsDir, baseUrl: server.url })).rejects.toThrow(
      `silero-vad: ${server.url}/asr-models/silero_vad.onnx answered HTTP 404`,
    );
    expect(contents()).toEqual([]);
  });

  it("keeps an installed model unless forced, then replaces it whole", async () => {
    await pullModel(vadEntry, { modelsDir, baseUrl: server.url });
    await expect(pullModel(vadEntry, { modelsDir, baseUrl: server.url })).rejects.toThrow(
      `silero-vad is already installed in ${join(modelsDir, "silero-vad")} (use --force to replace it)`,
    );
    mkdirSync(join(modelsDir, "silero-vad", "left-over"));
    await pullModel(vadEntry, { modelsDir, baseUrl: server.url, force: true });
    expect(readdirSync(join(modelsDir, "silero-vad")).sort()).toEqual([
      "recap-model.json",
      "silero_vad.onnx",
    ]);
    expect(contents()).toEqual(["silero-vad"]);
  });
});

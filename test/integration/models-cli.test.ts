// `bin/recap models list | pull | bench` as a user runs them: a process, the real catalogue, a local release server.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogueEntry } from "../../src/media/models.ts";
import type { BenchResult, ModelListing } from "../../src/cli/models.ts";
import { durationMs, writeRecording } from "../helpers/audio.ts";
import { ROOT } from "../helpers/processes.ts";
import { startReleaseServer, type ReleaseServer } from "../helpers/release-server.ts";
import { installEnergyVad, installToneRecogniser } from "../../scripts/speech-models/models.ts";
import { freePort } from "../helpers/wait.ts";

const run = promisify(execFile);

describe("bin/recap models", { timeout: 90_000 }, () => {
  let work: string;
  let server: ReleaseServer;
  const recap = (args: string[], modelsDir: string) =>
    run(join(ROOT, "bin", "recap"), ["models", ...args], {
      env: {
        ...process.env,
        RECAP_DATA_DIR: work,
        RECAP_MODELS_DIR: modelsDir,
        RECAP_MODELS_MIRROR: server.url,
      },
    });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "recap-models-cli-"));
    server = await startReleaseServer();
  });

  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("refuses a download that is not the published file, installing nothing", async () => {
    const modelsDir = join(work, "refused");
    const vad = catalogueEntry("silero-vad")!;
    // the right size, the wrong bytes: only the digest can tell
    server.files.set("/asr-models/silero_vad.onnx", new Uint8Array(vad.download.bytes).fill(7));

    const pull = recap(["pull", "silero-vad"], modelsDir);

    await expect(pull).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`expected ${vad.download.sha256}: refused`) as unknown,
    });
    expect(server.requests).toContain("/asr-models/silero_vad.onnx");
    expect(readdirSync(modelsDir)).toEqual([]);
  });

  it("says which URL could not be reached, the network's reason, and RECAP_MODELS_MIRROR", async () => {
    const modelsDir = join(work, "offline");
    const pull = (mirror: string) =>
      run(join(ROOT, "bin", "recap"), ["models", "pull", "silero-vad"], {
        env: {
          ...process.env,
          RECAP_DATA_DIR: work,
          RECAP_MODELS_DIR: modelsDir,
          RECAP_MODELS_MIRROR: mirror,
        },
      });
    const closed = `http://127.0.0.1:${await freePort()}`;
    await expect(pull(closed)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `recap: silero-vad: ${closed}/asr-models/silero_vad.onnx could not be reached ` +
          `(connect ECONNREFUSED ${closed.slice("http://".length)}). Models are pulled from RECAP_MODELS_MIRROR ` +
          `(${closed}/): check that it is up and reachable from here, or unset it to pull from github.com.\n`,
      ) as unknown,
    });
    await expect(pull("http://models.mirror.invalid")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /recap: silero-vad: http:\/\/models\.mirror\.invalid\/asr-models\/silero_vad\.onnx could not be reached \(getaddrinfo (ENOTFOUND|EAI_AGAIN) models\.mirror\.invalid\)\. Models are pulled from RECAP_MODELS_MIRROR/,
      ) as unknown,
    });
    expect(readdirSync(modelsDir)).toEqual([]);
  });

  it("lists the catalogue with what is installed and the defaults", async () => {
    const modelsDir = join(work, "listed");
    installEnergyVad(modelsDir);
    installToneRecogniser(modelsDir);

    const { stdout } = await recap(["list", "--json"], modelsDir);
    const listing = JSON.parse(stdout) as ModelListing[];

    const byName = new Map(listing.map((model) => [model.name, model]));
    expect(byName.get("silero-vad")).toMatchObject({
      kind: "vad",
      installed: true,
      default: true,
      inUse: `silero-vad installed in ${modelsDir}`,
    });
    expect(byName.get("moonshine-base-en")).toMatchObject({
      kind: "recogniser",
      installed: false,
      default: true,
      catalogue: {
        url: "https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/sherpa-onnx-moonshine-base-en-int8.tar.bz2",
      },
    });
    expect(byName.get("parakeet-tdt-0.6b-v2")).toMatchObject({ installed: false, default: false });
    expect(byName.get("tone-ctc")).toEqual({
      name: "tone-ctc",
      kind: "recogniser",
      installed: true,
      default: false,
    });
    const text = await recap(["list"], modelsDir);
    expect(text.stdout).toContain(
      `* silero-vad                 vad           installed     1 MB  in use: silero-vad installed in ${modelsDir}. `,
    );
  });

  it("lists the VAD in use: the one Recap ships while none is pulled, none while the pulled one is damaged", async () => {
    const modelsDir = join(work, "nothing-pulled");

    const { stdout } = await recap(["list", "--json"], modelsDir);
    const vad = (JSON.parse(stdout) as ModelListing[]).find((model) => model.name === "silero-vad");
    expect(vad).toMatchObject({ installed: false, default: true, inUse: "Silero VAD v4 shipped with Recap" });
    const text = await recap(["list"], modelsDir);
    expect(text.stdout).toContain(
      "* silero-vad                 vad           shipped       1 MB  in use: Silero VAD v4 shipped with Recap. " +
        "MIT: Silero VAD v4 as exported by k2-fsa, used in place of the VAD Recap ships once pulled\n",
    );

    const damaged = join(work, "damaged-vad");
    installEnergyVad(damaged);
    truncateSync(join(damaged, "silero-vad", "silero_vad.onnx"), 10);
    expect((await recap(["list"], damaged)).stdout).toContain(
      "* silero-vad                 vad           -             1 MB  in use: none (model silero-vad: " +
        "silero_vad.onnx is missing or changed since it was installed (pull it again with --force)). ",
    );
  });

  it("measures an installed recogniser on a given file and on generated speech", async () => {
    const modelsDir = join(work, "bench");
    installEnergyVad(modelsDir);
    installToneRecogniser(modelsDir);
    const file = join(work, "tones.flac");
    writeRecording(file, [
      { silence: 0.5 },
      { tone: 300, seconds: 0.5 },
      { silence: 1 },
      { tone: 2000, seconds: 0.5 },
      { silence: 1 },
    ]);

    const onFile = JSON.parse(
      (await recap(["bench", "tone-ctc", "--file", file, "--json"], modelsDir)).stdout,
    ) as BenchResult;
    expect(onFile).toMatchObject({
      model: "tone-ctc",
      file,
      audioMs: durationMs(file),
      segments: 2,
      words: 2,
    });
    expect(onFile.realTimeFactor).toBeGreaterThan(0);
    expect(onFile.peakRssMb).toBeGreaterThan(0);

    const onSpeech = JSON.parse(
      (await recap(["bench", "tone-ctc", "--json"], modelsDir)).stdout,
    ) as BenchResult;
    expect(onSpeech.audioMs).toBeGreaterThan(30_000);
    expect(onSpeech.segments).toBeGreaterThan(0);

    await expect(recap(["bench"], modelsDir)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("model moonshine-base-en is not installed") as unknown,
    });
  });
});

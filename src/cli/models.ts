/** `recap models list | pull | bench`: the speech models of the local engine (docs/MEDIA.md). */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { ConfigError, loadConfig } from "../config.ts";
import { decodeAudio, type FfmpegPaths } from "../media/ffmpeg.ts";
import { SAMPLE_RATE } from "../media/engine.ts";
import { createLocalEngine } from "../media/local/engine.ts";
import {
  listInstalledModels,
  ModelDownloadFailed,
  ModelNotInstalled,
  pullModel,
  type InstalledModel,
} from "../media/model-store.ts";
import {
  CATALOGUE,
  catalogueEntry,
  DEFAULT_MODELS,
  downloadUrl,
  type CatalogueEntry,
} from "../media/models.ts";
import { chooseVad, SHIPPED_VAD } from "../media/vad.ts";

export interface ModelListing {
  name: string;
  kind: string;
  installed: boolean;
  default: boolean;
  /**
   * The catalogue's VAD only: the VAD the engines use, as the start-up log names it (vad.ts): this one once
   * pulled, else the one Recap ships; or why none can be used.
   */
  inUse?: string;
  /** Absent for a model installed by hand that the catalogue does not know. */
  catalogue?: Pick<CatalogueEntry, "licence" | "languages" | "streaming" | "wordTimings" | "note"> & {
    url: string;
    sha256: string;
    bytes: number;
  };
}

/** Every model the catalogue knows, and any other installed one, with whether it is installed and the default. */
export function listModels(modelsDir: string): ModelListing[] {
  const installed = new Map(listInstalledModels(modelsDir).map((model) => [model.name, model]));
  const defaults = new Set<string>(Object.values(DEFAULT_MODELS));
  const known = CATALOGUE.map((entry): ModelListing => ({
    name: entry.name,
    kind: entry.kind,
    installed: installed.has(entry.name),
    default: defaults.has(entry.name),
    ...(entry.name === DEFAULT_MODELS.vad && { inUse: vadInUse(modelsDir) }),
    catalogue: {
      licence: entry.licence,
      languages: entry.languages,
      streaming: entry.streaming,
      wordTimings: entry.wordTimings,
      note: entry.note,
      url: downloadUrl(entry),
      sha256: entry.download.sha256,
      bytes: entry.download.bytes,
    },
  }));
  const others = [...installed.values()]
    .filter((model: InstalledModel) => catalogueEntry(model.name) === undefined)
    .map((model): ModelListing => ({ name: model.name, kind: model.kind, installed: true, default: false }));
  return [...known, ...others];
}

/** The VAD the engines use, as the start-up log names it, or why none can be used. */
function vadInUse(modelsDir: string): string {
  try {
    return chooseVad(modelsDir).description;
  } catch (error) {
    if (error instanceof ModelNotInstalled) return `none (${error.message})`;
    throw error;
  }
}

export function printModelList(listing: ModelListing[], modelsDir: string): void {
  console.log(`Models in ${modelsDir} (* the default of its kind):\n`);
  const width = Math.max(...listing.map((model) => model.name.length)) + 2;
  for (const model of listing) {
    const mark = model.default ? "*" : " ";
    const state = model.installed ? "installed" : model.inUse === SHIPPED_VAD.description ? "shipped" : "-";
    const size = model.catalogue ? `${Math.round(model.catalogue.bytes / 1e6)} MB` : "";
    const use = model.inUse === undefined ? "" : `in use: ${model.inUse}. `;
    console.log(
      `${mark} ${model.name.padEnd(width)}${model.kind.padEnd(14)}${state.padEnd(11)}${size.padStart(7)}  ${use}${
        model.catalogue ? `${model.catalogue.licence}: ${model.catalogue.note}` : "installed by hand"
      }`,
    );
  }
}

/**
 * Installs a catalogue model, printing the download's progress to stderr.
 * @throws Error for an unknown name, or whatever pullModel refuses; an unreachable server with what
 *   RECAP_MODELS_MIRROR can do about it
 */
export async function pullCatalogueModel(
  name: string,
  options: { modelsDir: string; mirror?: string; force?: boolean; signal?: AbortSignal },
): Promise<InstalledModel> {
  const entry = catalogueEntry(name);
  if (entry === undefined) {
    throw new Error(`unknown model "${name}"; \`bin/recap models list\` shows the ones Recap knows`);
  }
  let shown = -1;
  const model = await pullModel(entry, {
    modelsDir: options.modelsDir,
    ...(options.mirror !== undefined && { baseUrl: options.mirror }),
    ...(options.force !== undefined && { force: options.force }),
    ...(options.signal !== undefined && { signal: options.signal }),
    onProgress: (received, total) => {
      const percent = Math.floor((received * 100) / total);
      if (percent === shown || !process.stderr.isTTY) return;
      shown = percent;
      process.stderr.write(`\r${name}: ${percent}% of ${Math.round(total / 1e6)} MB`);
    },
  }).catch((error: unknown) => {
    if (!(error instanceof ModelDownloadFailed)) throw error;
    const hint =
      options.mirror === undefined
        ? "Where this machine cannot reach github.com, set RECAP_MODELS_MIRROR to a server holding the same " +
          "release paths (docs/MEDIA.md)."
        : `Models are pulled from RECAP_MODELS_MIRROR (${options.mirror}): check that it is up and reachable ` +
          "from here, or unset it to pull from github.com.";
    throw new Error(`${error.message}. ${hint}`, { cause: error });
  });
  if (shown >= 0) process.stderr.write("\n");
  return model;
}

export interface BenchResult {
  model: string;
  file: string;
  audioMs: number;
  loadMs: number;
  transcribeMs: number;
  /** Time spent transcribing over the audio's duration: under 1 is faster than real time. */
  realTimeFactor: number;
  /** The process's peak resident memory, models and all. */
  peakRssMb: number;
  segments: number;
  words: number;
}

const BENCH_TEXT =
  "Thanks everyone for joining. Let's start with the release. The build is green, and the last two bugs " +
  "were fixed yesterday. Maria, can you send the notes to the customer by Friday? Sure, I will do it " +
  "tomorrow morning. One more thing: the budget review moved to next Tuesday at ten.";

/**
 * Transcribes `file` (or a minute of English that espeak-ng speaks) with an installed recogniser and measures
 * the real-time factor and the process's peak memory.
 */
export async function benchModel(options: {
  modelsDir: string;
  name: string;
  file?: string;
  /** ffmpeg as configured (RECAP_FFMPEG_PATH). */
  ffmpeg: FfmpegPaths;
}): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), "recap-bench-"));
  try {
    let file = options.file;
    if (file === undefined) {
      file = join(dir, "speech.wav");
      execFileSync("espeak-ng", ["-w", file, Array.from({ length: 4 }, () => BENCH_TEXT).join(" ")]);
    }
    const loadStarted = performance.now();
    const engine = await createLocalEngine({ modelsDir: options.modelsDir, model: options.name });
    const loadMs = performance.now() - loadStarted;
    try {
      let samples = 0;
      async function* counted(audio: AsyncIterable<Float32Array>) {
        for await (const chunk of audio) {
          samples += chunk.length;
          yield chunk;
        }
      }
      const started = performance.now();
      const segments = await engine.transcribe(counted(decodeAudio(options.ffmpeg, file)), {
        vocabulary: [],
        signal: new AbortController().signal,
      });
      const transcribeMs = performance.now() - started;
      const audioMs = (samples * 1000) / SAMPLE_RATE;
      return {
        model: options.name,
        file: options.file ?? "(a minute of English spoken by espeak-ng)",
        audioMs: Math.round(audioMs),
        loadMs: Math.round(loadMs),
        transcribeMs: Math.round(transcribeMs),
        realTimeFactor: audioMs > 0 ? transcribeMs / audioMs : 0,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        segments: segments.length,
        words: segments.reduce((n, segment) => n + segment.words.length, 0),
      };
    } finally {
      await engine.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printBench(result: BenchResult): void {
  console.log(`model:            ${result.model}`);
  console.log(`audio:            ${result.file}, ${(result.audioMs / 1000).toFixed(1)} s`);
  console.log(`load:             ${result.loadMs} ms`);
  console.log(`transcription:    ${(result.transcribeMs / 1000).toFixed(2)} s`);
  console.log(`real-time factor: ${result.realTimeFactor.toFixed(3)} (time spent ÷ audio duration)`);
  console.log(`peak memory:      ${result.peakRssMb} MB resident (the whole process)`);
  console.log(`recognised:       ${result.segments} utterances, ${result.words} timed words`);
}

/**
 * RECAP_MODELS_MIRROR: a base URL holding the same release paths as the official one (the tests' local server,
 * or a mirror inside a network that cannot reach GitHub). Downloads are verified against the pinned digests
 * whatever their source.
 */
function modelsMirror(): string | undefined {
  const mirror = process.env.RECAP_MODELS_MIRROR;
  if (mirror === undefined || mirror === "") return undefined;
  try {
    const url = new URL(mirror);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("protocol");
    return url.href;
  } catch {
    throw new ConfigError([`RECAP_MODELS_MIRROR must be an absolute http(s) URL (got "${mirror}")`]);
  }
}

const modelsDirOf = () => loadConfig(process.env).media.modelsDir;

export function listCommand(options: { json?: boolean }): void {
  const modelsDir = modelsDirOf();
  const listing = listModels(modelsDir);
  if (options.json) console.log(JSON.stringify(listing));
  else printModelList(listing, modelsDir);
}

export async function pullCommand(name: string, options: { force?: boolean }): Promise<void> {
  const modelsDir = modelsDirOf();
  const mirror = modelsMirror();
  const interrupted = new AbortController();
  const stop = () => interrupted.abort(new Error("interrupted"));
  process.once("SIGINT", stop);
  try {
    const model = await pullCatalogueModel(name, {
      modelsDir,
      ...(mirror !== undefined && { mirror }),
      ...(options.force !== undefined && { force: options.force }),
      signal: interrupted.signal,
    });
    console.log(
      `Installed ${model.name} in ${join(modelsDir, model.name)} (SHA-256 ${model.source?.sha256})`,
    );
  } finally {
    process.removeListener("SIGINT", stop);
  }
}

export async function benchCommand(
  name: string | undefined,
  options: { file?: string; json?: boolean },
): Promise<void> {
  const { media } = loadConfig(process.env);
  const result = await benchModel({
    modelsDir: media.modelsDir,
    ffmpeg: media,
    name: name ?? DEFAULT_MODELS.recogniser,
    ...(options.file !== undefined && { file: options.file }),
  });
  if (options.json) console.log(JSON.stringify(result));
  else printBench(result);
}

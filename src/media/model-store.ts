/**
 * The models directory (RECAP_MODELS_DIR): one directory per installed model, each with a `recap-model.json`
 * manifest saying what it is and which files to load. `pullModel` installs a catalogue entry from its release
 * (or a mirror), verified against the pinned digest, and atomically: a failed, tampered or interrupted pull
 * leaves the directory as it was.
 */
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { downloadUrl, type CatalogueEntry, type ModelKind, type RecogniserFamily } from "./models.ts";

export const MANIFEST_FILE = "recap-model.json";

/** What an installed model's manifest records. */
export interface InstalledModel {
  name: string;
  kind: ModelKind;
  family?: RecogniserFamily;
  /** Files by role, relative to the model's directory. */
  files: Record<string, string>;
  languages: string[];
  wordTimings: boolean;
  /** Each file's size when installed: a truncated or replaced file is found before sherpa-onnx opens it. */
  sizes: Record<string, number>;
  /** Each file's SHA-256 when installed, checked before loading the models whose loaders abort the process. */
  digests: Record<string, string>;
  /** Where it came from and the digest it was verified against; absent for a model installed by hand. */
  source?: { url: string; sha256: string };
}

/** The model is missing, incomplete or not a model Recap installed. */
export class ModelNotInstalled extends Error {
  override name = "ModelNotInstalled";
}

/** The download's server could not be reached: the URL and the network's own reason. */
export class ModelDownloadFailed extends Error {
  override name = "ModelDownloadFailed";
}

/**
 * Why a request failed, as the network said it (`getaddrinfo ENOTFOUND host`, `connect ECONNREFUSED
 * 127.0.0.1:1`), from undici's cause: its own message is only "fetch failed". A name with two addresses fails
 * with an AggregateError whose message is empty, so its first error speaks.
 */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  const first = (cause as { errors?: unknown[] }).errors?.[0] ?? cause;
  const { message, code } = first as { message?: string; code?: string };
  return message || code || String(first);
}

const MODEL_NAME = /^[a-z0-9][a-z0-9._-]*$/;

const fileSha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

/** Writes the manifest of a model whose files are in `dir`, recording their sizes and digests. */
export function writeManifest(dir: string, model: Omit<InstalledModel, "sizes" | "digests">): InstalledModel {
  const sizes: Record<string, number> = {};
  const digests: Record<string, string> = {};
  for (const relative of Object.values(model.files)) {
    const stat = lstatSync(join(dir, relative), { throwIfNoEntry: false });
    if (!stat?.isFile())
      throw new ModelNotInstalled(`${model.name}: ${relative} is missing or not a regular file`);
    sizes[relative] = stat.size;
    digests[relative] = fileSha256(join(dir, relative));
  }
  const manifest: InstalledModel = { ...model, sizes, digests };
  writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Reads an installed model and checks that every file it loads is there at its recorded size, and with
 * `verifyDigests` its recorded SHA-256 too: sherpa-onnx's synchronous loaders (the VAD, the diarizer) abort
 * the whole process on a file that is not the model they expect, so those small files are hashed first.
 * @throws ModelNotInstalled naming what is wrong and how to install it
 */
export function readInstalledModel(
  modelsDir: string,
  name: string,
  options: { verifyDigests?: boolean } = {},
): InstalledModel & { dir: string } {
  if (!MODEL_NAME.test(name)) throw new ModelNotInstalled(`"${name}" is not a model name`);
  const dir = join(modelsDir, name);
  let manifest: InstalledModel;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8")) as InstalledModel;
  } catch {
    throw new ModelNotInstalled(
      `model ${name} is not installed in ${modelsDir} (run \`bin/recap models pull ${name}\`)`,
    );
  }
  const records = [manifest.files, manifest.sizes, manifest.digests];
  if (manifest.name !== name || records.some((record) => typeof record !== "object" || record === null)) {
    throw new ModelNotInstalled(
      `model ${name}: ${MANIFEST_FILE} is not a manifest Recap wrote (pull it again with --force)`,
    );
  }
  for (const [relative, size] of Object.entries(manifest.sizes)) {
    const stat = lstatSync(join(dir, relative), { throwIfNoEntry: false });
    const changed =
      !stat?.isFile() ||
      stat.size !== size ||
      (options.verifyDigests === true && fileSha256(join(dir, relative)) !== manifest.digests[relative]);
    if (changed) {
      throw new ModelNotInstalled(
        `model ${name}: ${relative} is missing or changed since it was installed (pull it again with --force)`,
      );
    }
  }
  return { ...manifest, dir };
}

/** The models installed in `modelsDir`, by name; directories without a readable manifest are left out. */
export function listInstalledModels(modelsDir: string): InstalledModel[] {
  if (!existsSync(modelsDir)) return [];
  return readdirSync(modelsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && MODEL_NAME.test(entry.name))
    .flatMap((entry) => {
      try {
        return [readInstalledModel(modelsDir, entry.name)];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export interface PullOptions {
  modelsDir: string;
  /** The releases' base URL: the official one, or a mirror holding the same paths. */
  baseUrl?: string;
  /** Replaces an installed copy (after the new one is verified). */
  force?: boolean;
  signal?: AbortSignal;
  onProgress?: (receivedBytes: number, totalBytes: number) => void;
}

/**
 * Downloads an entry's file, refuses it unless its size and SHA-256 are the pinned ones, unpacks a `.tar.bz2`
 * with the system's tar and bzip2, checks that every file the engine loads is a regular file, and only then
 * moves the model into place as `<modelsDir>/<name>`. Everything happens in a staging directory inside
 * `modelsDir`, removed whatever the outcome.
 * @throws Error naming the model and the reason (HTTP status, digest, size, missing file, already installed)
 */
export async function pullModel(entry: CatalogueEntry, options: PullOptions): Promise<InstalledModel> {
  const { modelsDir } = options;
  const target = join(modelsDir, entry.name);
  if (existsSync(target) && !options.force) {
    throw new Error(`${entry.name} is already installed in ${target} (use --force to replace it)`);
  }
  await mkdir(modelsDir, { recursive: true });
  const staging = await mkdtemp(join(modelsDir, `.pull-${entry.name}-`));
  try {
    const url = downloadUrl(entry, options.baseUrl);
    const downloaded = join(staging, entry.download.file);
    await download(url, downloaded, entry, options);
    const root = join(staging, "model");
    if (entry.archiveRoot !== undefined) {
      const tree = join(staging, "tree");
      await mkdir(tree);
      await promisify(execFile)("tar", ["-xjf", downloaded, "-C", tree, "--no-same-owner"], {
        ...(options.signal && { signal: options.signal }),
      });
      const unpacked = lstatSync(join(tree, entry.archiveRoot), { throwIfNoEntry: false });
      if (!unpacked?.isDirectory()) {
        throw new Error(`${entry.download.file} does not hold the directory ${entry.archiveRoot}`);
      }
      await rename(join(tree, entry.archiveRoot), root);
    } else {
      await mkdir(root);
      await rename(downloaded, join(root, entry.download.file));
    }
    const manifest = writeManifest(root, {
      name: entry.name,
      kind: entry.kind,
      ...(entry.family !== undefined && { family: entry.family }),
      files: entry.files,
      languages: entry.languages,
      wordTimings: entry.wordTimings,
      source: { url, sha256: entry.download.sha256 },
    });
    if (existsSync(target)) await rename(target, join(staging, "replaced"));
    await rename(root, target);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function download(
  url: string,
  path: string,
  entry: CatalogueEntry,
  options: PullOptions,
): Promise<void> {
  const { bytes: expectedBytes, sha256: expectedSha256 } = entry.download;
  let response: Response;
  try {
    response = await fetch(url, {
      redirect: "follow",
      ...(options.signal && { signal: options.signal }),
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ModelDownloadFailed(`${entry.name}: ${url} could not be reached (${networkReason(error)})`);
  }
  if (!response.ok || response.body === null) {
    throw new Error(`${entry.name}: ${url} answered HTTP ${response.status}`);
  }
  const hash = createHash("sha256");
  let received = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > expectedBytes) {
        done(new Error(`${entry.name}: ${url} sent more than the expected ${expectedBytes} bytes: refused`));
        return;
      }
      hash.update(chunk);
      options.onProgress?.(received, expectedBytes);
      done(null, chunk);
    },
  });
  await pipeline(
    Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>),
    measure,
    createWriteStream(path),
    ...(options.signal ? [{ signal: options.signal }] : []),
  );
  if (received !== expectedBytes) {
    throw new Error(`${entry.name}: ${url} sent ${received} bytes, expected ${expectedBytes}: refused`);
  }
  const sha256 = hash.digest("hex");
  if (sha256 !== expectedSha256) {
    throw new Error(
      `${entry.name}: SHA-256 of the download is ${sha256}, expected ${expectedSha256}: refused`,
    );
  }
}

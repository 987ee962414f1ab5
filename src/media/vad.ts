/**
 * Which Silero VAD cuts utterances (the local engine) and finds pauses (a remote engine's parts): one installed
 * in RECAP_MODELS_DIR by `bin/recap models pull silero-vad` when there is one, else the one Recap ships in
 * models/silero-vad/ (its README gives the source, digest and licence), so no engine needs a VAD pulled.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST_FILE, ModelNotInstalled, readInstalledModel } from "./model-store.ts";
import { DEFAULT_MODELS } from "./models.ts";

/** The VAD file to load and how the start-up log and /readyz name it. */
export interface VadChoice {
  file: string;
  description: string;
}

/** models/silero-vad/ from src/media/ and from dist/media/ alike (dist/ keeps src/'s layout). */
const SHIPPED_DIR = join(import.meta.dirname, "..", "..", "models", "silero-vad");

/**
 * The VADs in the box, by version, pinned by SHA-256. v4 is the one used: through sherpa-onnx 1.13.8, v5 did not
 * hear "ask not" in the real recording of test/fixtures/media (docs/MEDIA.md, The VAD).
 */
export const SHIPPED_VADS = {
  v4: {
    file: join(SHIPPED_DIR, "silero_vad_v4.onnx"),
    sha256: "a35ebf52fd3ce5f1469b2a36158dba761bc47b973ea3382b3186ca15b1f5af28",
  },
  v5: {
    file: join(SHIPPED_DIR, "silero_vad_v5.onnx"),
    sha256: "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f",
  },
} as const;

export const SHIPPED_VAD = { ...SHIPPED_VADS.v4, description: "Silero VAD v4 shipped with Recap" };

/**
 * The VAD named `name` installed in `modelsDir`, or, for the catalogue's `silero-vad` when none is installed, the
 * shipped one. With `verifyDigests` the file is hashed first: sherpa-onnx's VAD loader aborts the process on a
 * file that is not a model.
 * @throws ModelNotInstalled when an installed VAD is damaged or not a VAD, when another name is not installed,
 * or when the shipped file is missing or changed
 */
export function chooseVad(
  modelsDir: string,
  options: { name?: string; verifyDigests?: boolean } = {},
): VadChoice {
  const name = options.name ?? DEFAULT_MODELS.vad;
  if (name !== DEFAULT_MODELS.vad || existsSync(join(modelsDir, name, MANIFEST_FILE))) {
    const vad = readInstalledModel(modelsDir, name, { verifyDigests: options.verifyDigests ?? false });
    const file = vad.files.model;
    if (vad.kind !== "vad" || file === undefined) throw new ModelNotInstalled(`model ${name} is not a VAD`);
    return { file: join(vad.dir, file), description: `${name} installed in ${modelsDir}` };
  }
  if (!existsSync(SHIPPED_VAD.file)) {
    throw new ModelNotInstalled(`the shipped VAD ${SHIPPED_VAD.file} is missing from this copy of Recap`);
  }
  if (options.verifyDigests === true) {
    const sha256 = createHash("sha256").update(readFileSync(SHIPPED_VAD.file)).digest("hex");
    if (sha256 !== SHIPPED_VAD.sha256) {
      throw new ModelNotInstalled(
        `the shipped VAD ${SHIPPED_VAD.file} was changed (SHA-256 ${sha256}, expected ${SHIPPED_VAD.sha256})`,
      );
    }
  }
  return { file: SHIPPED_VAD.file, description: SHIPPED_VAD.description };
}

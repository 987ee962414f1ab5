import { describe, expect, it } from "vitest";
import { CATALOGUE, catalogueEntry, DEFAULT_MODELS, downloadUrl } from "./models.ts";

/** The files sherpa-onnx needs for each kind of recogniser (src/media/local/engine.ts builds its config from them). */
const FAMILY_ROLES = {
  "nemo-transducer": ["decoder", "encoder", "joiner", "tokens"],
  moonshine: ["cachedDecoder", "encoder", "preprocessor", "tokens", "uncachedDecoder"],
  whisper: ["decoder", "encoder", "tokens"],
  "zipformer-ctc": ["model", "tokens"],
};

describe("the model catalogue", () => {
  it("pins every download to a SHA-256 and a size, under a unique name", () => {
    expect(new Set(CATALOGUE.map((entry) => entry.name)).size).toBe(CATALOGUE.length);
    for (const entry of CATALOGUE) {
      expect(entry.download.sha256, entry.name).toMatch(/^[0-9a-f]{64}$/);
      expect(entry.download.bytes, entry.name).toBeGreaterThan(0);
      expect(entry.name, entry.name).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
    }
  });

  it("names the files each recogniser family loads, and one model file for the others", () => {
    for (const entry of CATALOGUE) {
      const roles = Object.keys(entry.files).sort();
      if (entry.kind === "recogniser") expect(roles, entry.name).toEqual(FAMILY_ROLES[entry.family!]);
      else expect(roles, entry.name).toEqual(["model"]);
      // an archive unpacks to one directory; a single file is the model itself
      if (entry.archiveRoot === undefined) expect(entry.files.model).toBe(entry.download.file);
      else expect(entry.download.file).toBe(`${entry.archiveRoot}.tar.bz2`);
    }
  });

  it("has a default of each kind", () => {
    for (const [kind, name] of Object.entries(DEFAULT_MODELS)) expect(catalogueEntry(name)?.kind).toBe(kind);
  });

  it("downloads from k2-fsa's releases, or the same paths under a mirror", () => {
    const vad = catalogueEntry("silero-vad")!;
    expect(downloadUrl(vad)).toBe(
      "https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/silero_vad.onnx",
    );
    expect(downloadUrl(catalogueEntry("campplus-en-voxceleb")!, "http://127.0.0.1:9/mirror/")).toBe(
      "http://127.0.0.1:9/mirror/speaker-recongition-models/3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx",
    );
  });
});

import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { installEnergyVad } from "../../scripts/speech-models/models.ts";
import { chooseVad, SHIPPED_VADS } from "./vad.ts";

const dir = mkdtempSync(join(tmpdir(), "recap-vad-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("ships the Silero VADs it pins, and uses v4 when none is installed", () => {
  for (const { file, sha256 } of Object.values(SHIPPED_VADS))
    expect(createHash("sha256").update(readFileSync(file)).digest("hex")).toBe(sha256);
  expect(chooseVad(join(dir, "empty"), { verifyDigests: true })).toEqual({
    file: SHIPPED_VADS.v4.file,
    description: "Silero VAD v4 shipped with Recap",
  });
});

it("prefers a silero-vad pulled into the models directory, and refuses one damaged there", () => {
  const models = join(dir, "models");
  installEnergyVad(models);
  const installed = chooseVad(models, { verifyDigests: true });
  expect(installed).toEqual({
    file: join(models, "silero-vad", "silero_vad.onnx"),
    description: `silero-vad installed in ${models}`,
  });
  writeFileSync(installed.file, Buffer.alloc(readFileSync(installed.file).length, 1));
  expect(() => chooseVad(models, { verifyDigests: true })).toThrow(
    "model silero-vad: silero_vad.onnx is missing or changed since it was installed (pull it again with --force)",
  );
});

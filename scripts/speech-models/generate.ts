/**
 * Writes the generated speech models as an installed models directory, so anyone can run the local engine end
 * to end (recorded media and live streams) without model weights, and a recording they transcribe:
 *
 *   npm run models:generate -- /tmp/recap-models
 *   RECAP_MODELS_DIR=/tmp/recap-models npm start
 *
 * The models hear tones, not speech (scripts/speech-models/tones.ts); docs/MEDIA.md says what each one checks.
 * A model already in the directory is left alone unless --force is given: a pulled real one is not overwritten
 * by accident.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { SAMPLE_RATE } from "../../src/media/engine.ts";
import { encodeWav } from "../../src/media/wav.ts";
import { GENERATED_MODELS, installGeneratedModels } from "./models.ts";
import { TONE_TOKENS } from "./tones.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: "boolean", default: false } },
});
const [target] = positionals;
if (target === undefined || positionals.length > 1) {
  process.stderr.write("usage: npm run models:generate -- [--force] <models directory>\n");
  process.exit(2);
}
const modelsDir = resolve(target);
const present = GENERATED_MODELS.filter((name) => existsSync(join(modelsDir, name)));
if (present.length > 0 && !values.force) {
  process.stderr.write(
    `${modelsDir} already holds ${present.join(", ")}; pass --force to replace them with generated models\n`,
  );
  process.exit(1);
}
for (const name of present) rmSync(join(modelsDir, name), { recursive: true, force: true });
mkdirSync(modelsDir, { recursive: true });
installGeneratedModels(modelsDir);

/** Silence and each token's tone in turn, as the generated recognisers hear "low hi". */
function lowHi(): Float32Array {
  const parts: { hz: number; seconds: number }[] = [
    { hz: 0, seconds: 0.5 },
    ...TONE_TOKENS.flatMap(({ hz }) => [
      { hz, seconds: 0.4 },
      { hz: 0, seconds: 0.2 },
    ]),
    { hz: 0, seconds: 0.8 },
  ];
  const samples = new Float32Array(
    parts.reduce((sum, { seconds }) => sum + Math.round(seconds * SAMPLE_RATE), 0),
  );
  let at = 0;
  for (const { hz, seconds } of parts) {
    const length = Math.round(seconds * SAMPLE_RATE);
    for (let i = 0; i < length; i++)
      samples[at + i] = hz === 0 ? 0 : 0.5 * Math.sin((2 * Math.PI * hz * i) / SAMPLE_RATE);
    at += length;
  }
  return samples;
}
const recording = join(modelsDir, "low-hi.wav");
writeFileSync(recording, encodeWav(lowHi()));

process.stdout.write(
  [
    `Generated speech models installed in ${modelsDir}: ${GENERATED_MODELS.join(", ")}.`,
    "They hear tones, not speech: a tone at 300 Hz starts the piece '\u2581lo', 1000 Hz 'w', 2000 Hz '\u2581hi'",
    `(${recording} is "low hi"); the diarization models tell a 300 Hz voice from a 2000 Hz one.`,
    "",
    `  RECAP_MODELS_DIR=${modelsDir} npm start                          # the default recogniser, moonshine-base-en`,
    `  RECAP_MODELS_DIR=${modelsDir} RECAP_ASR_MODEL=parakeet-tdt-0.6b-v2 npm start   # or any other installed`,
    "",
  ].join("\n"),
);

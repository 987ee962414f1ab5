// Recordings of generated voices for the voice-profile suites: the local engine on generated models (a recogniser
// that hears the low tone as "lo" and the high one as "hi", and diarization models, the embedding one too, that tell
// the two tones apart as two voices: scripts/speech-models/models.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { installToneDiarization, installToneEngine, VOICES } from "../../scripts/speech-models/models.ts";
import { writeRecording, type Part } from "./audio.ts";
import type { MediaKit } from "./media.ts";

export const [LOW, HIGH] = VOICES;

/** Speaker 1 (the low voice) speaks 4 s in two lines, Speaker 2 (the high one) 1.5 s between them. */
export const MEETING: Part[] = [
  { silence: 0.5 },
  { tone: LOW, seconds: 2 },
  { silence: 1 },
  { tone: HIGH, seconds: 1.5 },
  { silence: 1 },
  { tone: LOW, seconds: 2 },
  { silence: 1 },
];

/** Installs the generated models in `kit`'s folder; the settings of a server that diarizes on them. */
export function voiceEngine(kit: MediaKit): Record<string, string> {
  const modelsDir = join(kit.dir, "models");
  const engine = installToneEngine(modelsDir);
  installToneDiarization(modelsDir);
  return { ...engine, RECAP_MEDIA_DIR: join(kit.dir, "store") };
}

/** `parts` as a FLAC recording's bytes, written in `kit`'s folder as `name`. */
export function recordingOf(kit: MediaKit, name: string, parts: Part[]): Buffer<ArrayBuffer> {
  const file = join(kit.dir, `${name}.flac`);
  writeRecording(file, parts);
  return readFileSync(file);
}

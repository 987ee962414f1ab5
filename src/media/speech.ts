import type { MediaSettings } from "../config.ts";
import type { Diarizer, SpeechEngine } from "./engine.ts";
import { createLocalDiarizer } from "./local/diarizer.ts";
import { createLocalEngine } from "./local/engine.ts";
import { createVoiceEmbedder, type VoiceEmbedder } from "./local/voice-embedding.ts";
import { ModelNotInstalled, readInstalledModel } from "./model-store.ts";
import { VadPool } from "./local/segmenter.ts";
import { catalogueEntry, DEFAULT_MODELS } from "./models.ts";
import { createRemoteEngine, type Reachability } from "./remote-engine.ts";
import { chooseVad, type VadChoice } from "./vad.ts";

/** What the start-up log, /readyz and a refused submission say of the speech engine. */
export interface SpeechStatus {
  /** The engine media jobs use, or null when none is set up. */
  engine: string | null;
  /**
   * The VAD that cuts the local engine's utterances and finds a remote engine's pauses: the shipped one, or one
   * installed in RECAP_MODELS_DIR; null when an installed one is damaged (the remote engine then cuts by energy).
   */
  vad: string | null;
  /** How speakers are told apart on one channel, or null when they cannot be. */
  diarization: string | null;
  /** Whether a remote engine's server answered its last request; null for the local engine, or none. */
  reachability: Reachability | null;
  /** How to set an engine up, for the operator: what is missing now, and what would do instead. */
  setupHint: string;
  diarizationHint: string;
}

/** The speech engine and diarizer a process uses, made once and when first needed. */
export interface Speech {
  status(): SpeechStatus;
  /** Throws when no engine is set up (a submission is refused before a job could ask). */
  engine(): Promise<SpeechEngine>;
  /** Null when speakers come from the engine's own labels, or cannot be told apart. */
  diarizer(): Promise<Diarizer | null>;
  /**
   * The local speaker-embedding model voice profiles are computed with, whatever the engine (a remote one
   * included: nothing about voices leaves the machine); null when it is not installed (VOICE_MODEL_HINT).
   */
  voiceEmbedder(): VoiceEmbedder | null;
  close(): Promise<void>;
}

/** The default name a remote server is asked for when RECAP_ASR_MODEL is unset (OpenAI's, and most servers'). */
const REMOTE_DEFAULT_MODEL = "whisper-1";

/**
 * What the local engine lacks in `modelsDir` and how to get it: its recogniser (the VAD ships with Recap), pulled
 * when the catalogue knows it, else where RECAP_ASR_MODEL's model installed by hand must be; an installed VAD
 * that is damaged, pulled again; then the remote way.
 */
function setupHint(modelsDir: string, model: string): string {
  const pulls = [
    ...(catalogueEntry(model) !== undefined && !installed(modelsDir, model) ? [model] : []),
    ...(vadOf(modelsDir) === null ? [`${DEFAULT_MODELS.vad} --force`] : []),
  ].map((name) => `\`bin/recap models pull ${name}\``);
  const steps = [
    ...(pulls.length > 0 ? [`install the local engine's models with ${pulls.join(" and ")}`] : []),
    ...(catalogueEntry(model) === undefined && !installed(modelsDir, model)
      ? [
          `install RECAP_ASR_MODEL's "${model}", which is not in Recap's catalogue, in ${modelsDir}/${model} ` +
            "by hand (or set RECAP_ASR_MODEL to a model `bin/recap models list` shows)",
        ]
      : []),
  ];
  return (
    `No speech engine is set up. ${steps.length > 0 ? `Either ${steps.join(", and ")}, or set` : "Set"} ` +
    "RECAP_ASR_URL to an OpenAI-compatible transcription server (whisper.cpp's server, speaches, LocalAI, vLLM, " +
    "OpenAI); docs/MEDIA.md says how."
  );
}

const DIARIZATION_HINT =
  "enableSpeakerDiarization needs a way to tell speakers apart: install the local speaker models " +
  `(\`bin/recap models pull ${DEFAULT_MODELS.segmentation}\` and \`bin/recap models pull ${DEFAULT_MODELS.embedding}\`) ` +
  "or use a server that labels speakers (RECAP_ASR_RESPONSE_FORMAT=diarized_json). channelMetadata needs neither.";

/** What an operator does when voice profiles are asked for and the local embedding model is not installed. */
export const VOICE_MODEL_HINT =
  "voice profiles need the local speaker-embedding model, which is not installed: run " +
  `\`bin/recap models pull ${DEFAULT_MODELS.embedding}\``;

/** The VAD vad.ts chooses, or null when the one installed in `modelsDir` is damaged; read when asked. */
function vadOf(modelsDir: string, options: { verifyDigests?: boolean } = {}): VadChoice | null {
  try {
    return chooseVad(modelsDir, options);
  } catch (error) {
    if (error instanceof ModelNotInstalled) return null;
    throw error;
  }
}

/** Whether the models are installed (their files present at their recorded sizes), read when asked. */
function installed(modelsDir: string, ...names: string[]): boolean {
  try {
    for (const name of names) readInstalledModel(modelsDir, name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The speech setup the configuration describes: a remote server when RECAP_ASR_URL is set, else the local
 * engine when its recogniser (RECAP_ASR_MODEL, or the default) is installed in RECAP_MODELS_DIR; both use the
 * VAD vad.ts chooses (a pulled `silero-vad`, else the shipped one).
 * Local speaker diarization works when its two models are installed; a remote server's own labels when it
 * answers `diarized_json`. Models are looked for on every status, so a model pulled while the server runs
 * is used from the next submission; each engine is loaded once, when a job first needs it.
 */
export function createSpeech(settings: MediaSettings): Speech {
  const remote = settings.asrRemote;
  const localModel = settings.asrModel ?? DEFAULT_MODELS.recogniser;
  // A remote engine's parts end in pauses the VAD hears, and its live streams are cut into utterances by it; a
  // VAD pulled while the server runs is used from the next recording or stream, and a damaged one leaves the cut
  // to energy alone (null) and refuses streams.
  let remoteVads: { file: string; pool: VadPool } | null = null;
  const vads = () => {
    if (remoteVads?.file !== vadOf(settings.modelsDir)?.file) {
      const verified = vadOf(settings.modelsDir, { verifyDigests: true });
      remoteVads = verified && { file: verified.file, pool: new VadPool({ vadModel: verified.file }) };
    }
    return remoteVads?.pool ?? null;
  };
  const remoteEngine = remote
    ? createRemoteEngine({ ...remote, model: settings.asrModel ?? REMOTE_DEFAULT_MODEL, vads })
    : null;
  let local: Promise<SpeechEngine> | null = null;
  let diarizer: Diarizer | null = null;
  let voiceEmbedder: VoiceEmbedder | null = null;
  const localReady = () =>
    remote === null && installed(settings.modelsDir, localModel) && vadOf(settings.modelsDir) !== null;
  const diarizerReady = () =>
    installed(settings.modelsDir, DEFAULT_MODELS.segmentation, DEFAULT_MODELS.embedding);
  const serverLabels = remote?.responseFormat === "diarized_json";
  return {
    status: () => ({
      engine: remoteEngine?.description ?? (localReady() ? `local ${localModel}` : null),
      vad: vadOf(settings.modelsDir)?.description ?? null,
      diarization: serverLabels
        ? "the speech server's own labels (diarized_json)"
        : diarizerReady()
          ? `local ${DEFAULT_MODELS.segmentation} and ${DEFAULT_MODELS.embedding}`
          : null,
      // Read only when asked: it looks at the models directory again.
      get setupHint() {
        return setupHint(settings.modelsDir, localModel);
      },
      diarizationHint: DIARIZATION_HINT,
      reachability: remoteEngine?.reachability() ?? null,
    }),
    engine: () => {
      if (remoteEngine) return Promise.resolve(remoteEngine);
      if (!localReady()) return Promise.reject(new Error(setupHint(settings.modelsDir, localModel)));
      local ??= createLocalEngine({ modelsDir: settings.modelsDir, model: localModel }).catch(
        (error: unknown) => {
          local = null;
          throw error;
        },
      );
      return local;
    },
    diarizer: () => {
      if (serverLabels || !diarizerReady()) return Promise.resolve(null);
      diarizer ??= createLocalDiarizer({ modelsDir: settings.modelsDir });
      return Promise.resolve(diarizer);
    },
    voiceEmbedder: () => {
      if (!installed(settings.modelsDir, DEFAULT_MODELS.embedding)) return null;
      voiceEmbedder ??= createVoiceEmbedder({ modelsDir: settings.modelsDir });
      return voiceEmbedder;
    },
    close: async () => {
      await remoteEngine?.close();
      await (await local?.catch(() => null))?.close();
      await diarizer?.close();
    },
  };
}

/** The start-up log's line on speech: the engine media jobs use and how speakers are told apart, or what is missing. */
export function speechStartupLine(status: SpeechStatus): { fields: object; message: string } {
  const fields = { speech: { engine: status.engine, vad: status.vad, diarization: status.diarization } };
  if (status.engine === null) {
    return { fields, message: `${status.setupHint} Until one is, media submissions are refused (503).` };
  }
  const speakers = status.diarization ?? `not set up (${status.diarizationHint})`;
  return {
    fields,
    message: `Speech engine ready: ${status.engine}. VAD: ${status.vad ?? "none (the installed one is damaged; parts are cut at their quietest stretch)"}. Speaker diarization: ${speakers}`,
  };
}

import type { MediaSettings } from "../config.ts";
import type { Diarizer, SpeechEngine } from "./engine.ts";
import { createRemoteEngine } from "./remote-engine.ts";

/** What the start-up log, /readyz and a refused submission say of the speech engine. */
export interface SpeechStatus {
  /** The engine media jobs use, or null when none is set up. */
  engine: string | null;
  /** How speakers are told apart on one channel, or null when they cannot be. */
  diarization: string | null;
  /** How to set an engine up, for the operator. */
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
  close(): Promise<void>;
}

/** The default name a remote server is asked for when RECAP_ASR_MODEL is unset (OpenAI's, and most servers'). */
const REMOTE_DEFAULT_MODEL = "whisper-1";

const SETUP_HINT =
  "No speech engine is set up. Set RECAP_ASR_URL to an OpenAI-compatible transcription server " +
  "(whisper.cpp's server, speaches, LocalAI, vLLM, OpenAI), or install a local model with " +
  "`bin/recap models pull`; docs/MEDIA.md says how.";

const DIARIZATION_HINT =
  "enableSpeakerDiarization needs a way to tell speakers apart: install the local speaker models " +
  "(`bin/recap models pull`, docs/MEDIA.md) or use a server that labels speakers " +
  "(RECAP_ASR_RESPONSE_FORMAT=diarized_json). channelMetadata needs neither.";

/** The speech setup the configuration describes: a remote server when RECAP_ASR_URL is set. */
export function createSpeech(settings: MediaSettings): Speech {
  const remote = settings.asrRemote;
  let engine: SpeechEngine | null = null;
  if (remote) engine = createRemoteEngine({ ...remote, model: settings.asrModel ?? REMOTE_DEFAULT_MODEL });
  const serverLabels = remote?.responseFormat === "diarized_json";
  return {
    status: () => ({
      engine: engine?.description ?? null,
      diarization: serverLabels ? "the speech server's own labels (diarized_json)" : null,
      setupHint: SETUP_HINT,
      diarizationHint: DIARIZATION_HINT,
    }),
    engine: () => (engine ? Promise.resolve(engine) : Promise.reject(new Error(SETUP_HINT))),
    diarizer: () => Promise.resolve(null),
    close: async () => {
      await engine?.close();
    },
  };
}

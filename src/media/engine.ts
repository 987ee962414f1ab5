/**
 * The contract between the media pipeline and a speech engine. Audio reaches an engine as 16 kHz mono
 * float samples in [-1, 1], in chunks, so a recorded file (decoded by ffmpeg as it is read) and a live
 * stream of frames go through the same code; positions are milliseconds from the first sample.
 */

/** The one sample rate every engine is given. */
export const SAMPLE_RATE = 16_000;

export interface RecognizedWord {
  text: string;
  startMs: number;
  endMs: number;
}

/** One utterance as the engine heard it; `words` is empty when the engine gives no word timings. */
export interface RecognizedSegment {
  text: string;
  startMs: number;
  endMs: number;
  words: RecognizedWord[];
  /** The engine's own speaker label, when it diarizes (an OpenAI-compatible server's `diarized_json`). */
  speaker?: string;
}

export interface RecognitionOptions {
  /** BCP-47 (`en-US`); engines that take a language use its primary subtag. */
  languageCode?: string;
  /** Words and phrases to favour, where the engine supports it. */
  vocabulary: string[];
  /**
   * The rate the audio was recorded at (Hz), before it was resampled to 16 kHz. Below 16 kHz the VAD hears it
   * through a narrowband view (local/segmenter.ts), where Silero's 16 kHz model would miss speech.
   */
  sourceSampleRate?: number;
  /** Aborts the work (the job was abandoned or the process is stopping). */
  signal: AbortSignal;
  /** Called as audio is consumed, with the position reached so far. */
  onProgress?: (processedMs: number) => void;
}

/** What a live recognition reports as the audio arrives (docs/LIVE.md). */
export interface LiveRecognitionOptions {
  /** BCP-47 (`en-US`); engines that take a language use its primary subtag. */
  languageCode?: string;
  /** The rate the client sends (Hz), before it is resampled to 16 kHz: as RecognitionOptions.sourceSampleRate. */
  sourceSampleRate?: number;
  /** The utterance under way as heard so far, recognised again after every `interimEveryMs` of new audio. */
  onInterim: (segment: RecognizedSegment) => void;
  /** An utterance that ended; awaited before the next is reported, so the caller stores each in order. */
  onFinal: (segment: RecognizedSegment) => Promise<void>;
  /** How much new audio of an utterance under way passes between two interim results (default 500 ms; 0: none). */
  interimEveryMs?: number;
}

/** One live stream being recognised: positions are milliseconds from its first sample. */
export interface LiveRecognition {
  /** Takes the next samples; resolves once the utterances that ended within them have been reported. */
  push(chunk: Float32Array): Promise<void>;
  /** Ends the input: reports the utterance still open, if any, and frees what the stream held. */
  end(): Promise<void>;
}

export interface SpeechEngine {
  /** What the start-up log and /readyz call it: `local moonshine-base-en`, `remote whisper-1 at http://…`. */
  readonly description: string;
  /** Recognises all of `audio`; throws when the engine fails (the job then fails with that message). */
  transcribe(audio: AsyncIterable<Float32Array>, options: RecognitionOptions): Promise<RecognizedSegment[]>;
  /**
   * Starts recognising a live stream, utterance by utterance with interim results (live-recognition.ts).
   * @throws MediaProblem when it cannot take the language; Error when it cannot stream now (no VAD)
   */
  listen(options: LiveRecognitionOptions): LiveRecognition;
  /**
   * The engine's VADs: how many it made (each holds native memory until the process ends, so this is the most
   * inputs it segmented at once) and how many are idle now.
   */
  vads(): { made: number; idle: number };
  close(): Promise<void>;
}

/** A stretch of audio one speaker holds, speakers numbered from 0 in order of first appearance. */
export interface SpeakerTurn {
  speaker: number;
  startMs: number;
  endMs: number;
}

export interface Diarizer {
  readonly description: string;
  /** Splits the 16 kHz mono WAV file at `wavPath` by speaker; `speakerCount` when the caller knows it. */
  diarize(
    wavPath: string,
    options: { speakerCount?: number; signal: AbortSignal; onProgress?: (fraction: number) => void },
  ): Promise<SpeakerTurn[]>;
  close(): Promise<void>;
}

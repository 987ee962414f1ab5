import type { RemoteEngineSettings } from "../config.ts";
import { withDeadline } from "../deadline.ts";
import {
  SAMPLE_RATE,
  type RecognitionOptions,
  type RecognizedSegment,
  type RecognizedWord,
  type SpeechEngine,
} from "./engine.ts";
import { EngineFailed, EngineUnreachable } from "./problems.ts";
import { setTimeout } from "node:timers/promises";
import { UtteranceLiveRecognition, type UtteranceRecognizer } from "./live-recognition.ts";
import type { VadPool } from "./local/segmenter.ts";
import { DEFAULT_MODELS } from "./models.ts";
import { quietestPause, vadPauseFinder } from "./pauses.ts";
import { encodeWav } from "./wav.ts";

/** A number as servers send it: vLLM sends strings ("1.5"). */
type Loose = number | string | null | undefined;

interface WordAnswer {
  word?: string;
  text?: string;
  start?: Loose;
  end?: Loose;
}

interface SegmentAnswer {
  text?: string;
  start?: Loose;
  end?: Loose;
  words?: WordAnswer[];
  speaker?: string | number;
}

/** The answer of `POST …/audio/transcriptions` in the dialects servers speak (docs/MEDIA.md, Remote engines). */
interface TranscriptionAnswer {
  text?: string;
  segments?: SegmentAnswer[];
  words?: WordAnswer[];
}

/**
 * Whether the server answered the last request Recap sent (docs/OPERATIONS.md, Readiness): `since` when that
 * state began, `lastReachableAt` the last answer, `reason` why the last request did not reach it. Unknown
 * until the first request.
 */
export interface Reachability {
  state: "unknown" | "reachable" | "unreachable";
  since: string | null;
  lastReachableAt: string | null;
  reason: string | null;
}

/** The system's reason a request failed (`ECONNREFUSED`, `ECONNRESET`), as fetch nests it in its cause. */
function causeOf(error: unknown): string {
  let at: unknown = error;
  for (let depth = 0; depth < 4 && at instanceof Error; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string") return code;
    at = at.cause;
  }
  return error instanceof Error ? error.message : String(error);
}

/** How far before a part's end its cut is looked for, at most: a tenth of the part where that is less. */
const PAUSE_SEARCH_SECONDS = 30;

/**
 * A live utterance's request: its time limit (RECAP_ASR_TIMEOUT_SECONDS where that is less), and a final's
 * retries when the server did not answer, after 0.5 s and 1 s. An utterance is at most 30 s of audio, and the
 * frames that arrive meanwhile wait within the connection's backlog (docs/LIVE.md).
 */
const LIVE_TIMEOUT_SECONDS = 30;
const LIVE_RETRIES = 2;
const LIVE_RETRY_MS = 500;

const seconds = (value: Loose): number | null => {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : null;
};

/**
 * An engine on any OpenAI-compatible transcription server (whisper.cpp's server, speaches, LocalAI, vLLM,
 * OpenAI): the audio is sent as WAV parts of at most `partSeconds`, one request each, and the answers'
 * times are moved by each part's offset. A part ends in a pause found by `pauses` (the VAD's where it is
 * installed, else the quietest stretch) in its last tenth, at most PAUSE_SEARCH_SECONDS: a server hears each
 * utterance whole, as one segment, instead of two halves mangled at a fixed cut.
 */
export function createRemoteEngine(
  settings: RemoteEngineSettings & { model: string; vads?: () => VadPool | null },
): SpeechEngine & { reachability(): Reachability } {
  const endpoint = `${settings.url}/audio/transcriptions`;
  const liveTimeoutSeconds = Math.min(settings.timeoutSeconds, LIVE_TIMEOUT_SECONDS);
  const partSamples = settings.partSeconds * SAMPLE_RATE;
  const searchSamples = Math.min(PAUSE_SEARCH_SECONDS * SAMPLE_RATE, Math.floor(partSamples / 10));
  let reachability: Reachability = { state: "unknown", since: null, lastReachableAt: null, reason: null };
  const reached = () => {
    const now = new Date().toISOString();
    const since = reachability.state === "reachable" ? reachability.since : now;
    reachability = { state: "reachable", since, lastReachableAt: now, reason: null };
  };
  const unreachable = (reason: string, cause?: unknown) => {
    const since = reachability.state === "unreachable" ? reachability.since : new Date().toISOString();
    reachability = { ...reachability, state: "unreachable", since, reason };
    return new EngineUnreachable(`the speech engine ${reason}`, { cause });
  };

  async function transcribePart(
    samples: Float32Array,
    offsetMs: number,
    options: Omit<RecognitionOptions, "onProgress">,
    timeoutSeconds = settings.timeoutSeconds,
  ): Promise<RecognizedSegment[]> {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(encodeWav(samples))], { type: "audio/wav" }), "audio.wav");
    form.append("model", settings.model);
    form.append("response_format", settings.responseFormat);
    if (settings.responseFormat === "verbose_json") {
      form.append("timestamp_granularities[]", "segment");
      form.append("timestamp_granularities[]", "word");
    }
    const language = options.languageCode?.split("-")[0]?.toLowerCase();
    if (language) form.append("language", language);
    if (options.vocabulary.length > 0) form.append("prompt", options.vocabulary.join(", "));
    let response: Response;
    let body: string;
    const deadline = withDeadline(options.signal, timeoutSeconds * 1000);
    try {
      response = await fetch(endpoint, {
        method: "POST",
        body: form,
        headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
        signal: deadline.signal,
      });
      body = await response.text();
    } catch (error) {
      if (options.signal.aborted) throw error;
      throw unreachable(
        error instanceof Error && error.name === "TimeoutError"
          ? `did not answer within ${timeoutSeconds} seconds`
          : `could not be reached (${causeOf(error)})`,
        error,
      );
    } finally {
      deadline.clear();
    }
    if (response.status >= 500) throw unreachable(`answered HTTP ${response.status}`);
    reached();
    if (!response.ok) {
      throw new EngineFailed(`the speech server answered HTTP ${response.status}`, body.slice(0, 300));
    }
    let answer: TranscriptionAnswer;
    try {
      answer = JSON.parse(body) as TranscriptionAnswer;
    } catch {
      throw new EngineFailed("the speech server's answer is not JSON", body.slice(0, 300));
    }
    const durationMs = Math.round((samples.length / SAMPLE_RATE) * 1000);
    return segmentsOf(answer, durationMs).map((segment) => ({
      ...segment,
      startMs: segment.startMs + offsetMs,
      endMs: segment.endMs + offsetMs,
      words: segment.words.map((word) => ({
        ...word,
        startMs: word.startMs + offsetMs,
        endMs: word.endMs + offsetMs,
      })),
    }));
  }

  return {
    description: `remote ${settings.model} at ${settings.url}`,
    reachability: () => reachability,
    async transcribe(audio, options) {
      const segments: RecognizedSegment[] = [];
      const part = new Float32Array(partSamples);
      let filled = 0;
      let sentSamples = 0;
      const msOf = (samples: number) => Math.round((samples / SAMPLE_RATE) * 1000);
      // Sends the part's first `length` samples; what follows the cut starts the next part.
      const send = async (length: number) => {
        segments.push(...(await transcribePart(part.subarray(0, length), msOf(sentSamples), options)));
        sentSamples += length;
        options.onProgress?.(msOf(sentSamples));
        part.copyWithin(0, length, filled);
        filled -= length;
      };
      const vads = settings.vads?.() ?? null;
      const findPause =
        vads === null ? quietestPause : vadPauseFinder(vads, { sourceSampleRate: options.sourceSampleRate });
      for await (const chunk of audio) {
        options.signal.throwIfAborted();
        let at = 0;
        while (at < chunk.length) {
          const take = Math.min(chunk.length - at, partSamples - filled);
          part.set(chunk.subarray(at, at + take), filled);
          filled += take;
          at += take;
          if (filled === partSamples) {
            const cut = findPause(part, partSamples - searchSamples, partSamples);
            await send(Math.min(partSamples, Math.max(partSamples - searchSamples, cut)));
          }
        }
      }
      if (filled > 0) await send(filled);
      return segments;
    },
    listen(live) {
      const vads = settings.vads?.() ?? null;
      if (vads === null) {
        throw new Error(
          `live recognition needs a VAD, and the one installed is damaged: \`bin/recap models pull ${DEFAULT_MODELS.vad} --force\``,
        );
      }
      const recognise: UtteranceRecognizer = async (segment, signal, purpose) => {
        const offsetMs = Math.round((segment.startSample * 1000) / SAMPLE_RATE);
        const request = {
          vocabulary: [],
          signal,
          ...(live.languageCode !== undefined && { languageCode: live.languageCode }),
        };
        for (let attempt = 0; ; attempt++) {
          try {
            const said = await transcribePart(segment.samples, offsetMs, request, liveTimeoutSeconds);
            return said.length === 0 ? null : oneSegment(said);
          } catch (error) {
            const retry = purpose === "final" && error instanceof EngineUnreachable && attempt < LIVE_RETRIES;
            if (!retry || signal.aborted) throw error;
            await setTimeout(LIVE_RETRY_MS * 2 ** attempt, undefined, { signal });
          }
        }
      };
      return new UtteranceLiveRecognition(
        vads.segmenter({ sourceSampleRate: live.sourceSampleRate }),
        recognise,
        live,
      );
    },
    vads: () => settings.vads?.()?.counts() ?? { made: 0, idle: 0 },
    close: () => Promise.resolve(),
  };
}

/** The segments a server heard in one live utterance, as the one line the utterance is. */
function oneSegment(said: RecognizedSegment[]): RecognizedSegment {
  const words = said.flatMap((segment) => segment.words);
  return {
    text: said.map((segment) => segment.text).join(" "),
    startMs: said[0]!.startMs,
    endMs: said[said.length - 1]!.endMs,
    words,
  };
}

/**
 * The segments of one answer, times in milliseconds from the part's start. Words come from the segments
 * (whisper.cpp nests them) or the top level (OpenAI), placed in the segment they fall in; an answer with
 * text and no segments is one segment over the part. LocalAI gives times as Go durations (nanoseconds):
 * a time far beyond the part is read that way.
 */
export function segmentsOf(answer: TranscriptionAnswer, durationMs: number): RecognizedSegment[] {
  const scale = (value: Loose): number | null => {
    const s = seconds(value);
    if (s === null) return null;
    return s * 1000 > durationMs * 10 + 60_000 ? Math.round(s / 1e6) : Math.round(s * 1000);
  };
  const wordOf = (word: WordAnswer): RecognizedWord | null => {
    const text = (word.word ?? word.text ?? "").trim();
    const startMs = scale(word.start);
    const endMs = scale(word.end);
    return text === "" || startMs === null || endMs === null ? null : { text, startMs, endMs };
  };
  const topWords = (answer.words ?? []).flatMap((word) => wordOf(word) ?? []);
  const listed = answer.segments ?? [];
  if (listed.length === 0) {
    const text = (answer.text ?? "").trim();
    if (text === "") return [];
    return [{ text, startMs: 0, endMs: durationMs, words: topWords }];
  }
  return listed.flatMap((segment) => {
    const text = (segment.text ?? "").trim();
    const startMs = scale(segment.start) ?? 0;
    const endMs = Math.max(startMs, scale(segment.end) ?? startMs);
    if (text === "") return [];
    const nested = (segment.words ?? []).flatMap((word) => wordOf(word) ?? []);
    const words =
      nested.length > 0
        ? nested
        : topWords.filter((word) => word.startMs >= startMs && word.startMs < Math.max(endMs, startMs + 1));
    return [
      {
        text,
        startMs,
        endMs,
        words,
        ...(segment.speaker !== undefined && { speaker: String(segment.speaker) }),
      },
    ];
  });
}

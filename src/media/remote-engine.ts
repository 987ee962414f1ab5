import type { RemoteEngineSettings } from "../config.ts";
import {
  SAMPLE_RATE,
  type RecognitionOptions,
  type RecognizedSegment,
  type RecognizedWord,
  type SpeechEngine,
} from "./engine.ts";
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

const seconds = (value: Loose): number | null => {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : null;
};

/**
 * An engine on any OpenAI-compatible transcription server (whisper.cpp's server, speaches, LocalAI, vLLM,
 * OpenAI): the audio is sent as WAV parts of at most `partSeconds`, one request each, and the answers'
 * times are moved by each part's offset.
 */
export function createRemoteEngine(settings: RemoteEngineSettings & { model: string }): SpeechEngine {
  const endpoint = `${settings.url}/audio/transcriptions`;
  const partSamples = settings.partSeconds * SAMPLE_RATE;

  async function transcribePart(
    samples: Float32Array,
    offsetMs: number,
    options: RecognitionOptions,
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
    const response = await fetch(endpoint, {
      method: "POST",
      body: form,
      headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(settings.timeoutSeconds * 1000)]),
    });
    const body = await response.text();
    if (!response.ok) {
      throw new Error(`the speech server answered HTTP ${response.status}: ${body.slice(0, 300)}`);
    }
    let answer: TranscriptionAnswer;
    try {
      answer = JSON.parse(body) as TranscriptionAnswer;
    } catch {
      throw new Error(`the speech server's answer is not JSON: ${body.slice(0, 300)}`);
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
    async transcribe(audio, options) {
      const segments: RecognizedSegment[] = [];
      let part = new Float32Array(partSamples);
      let filled = 0;
      let offsetMs = 0;
      const send = async () => {
        if (filled === 0) return;
        segments.push(...(await transcribePart(part.subarray(0, filled), offsetMs, options)));
        offsetMs += Math.round((filled / SAMPLE_RATE) * 1000);
        options.onProgress?.(offsetMs);
        part = new Float32Array(partSamples);
        filled = 0;
      };
      for await (const chunk of audio) {
        options.signal.throwIfAborted();
        let at = 0;
        while (at < chunk.length) {
          const take = Math.min(chunk.length - at, partSamples - filled);
          part.set(chunk.subarray(at, at + take), filled);
          filled += take;
          at += take;
          if (filled === partSamples) await send();
        }
      }
      await send();
      return segments;
    },
    close: () => Promise.resolve(),
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

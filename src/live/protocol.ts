import { invalid } from "../errors.ts";
import type { DetectedTracker } from "../analysis/trackers.ts";
import { SAMPLE_RATE, type RecognizedSegment } from "../media/engine.ts";

/**
 * Symbl's Streaming API as Recap speaks it (docs/LIVE.md): the client's JSON requests read and checked, and
 * the events its handlers read, built. Pure: no socket, no database.
 */

export interface Speaker {
  userId: string | null;
  name: string | null;
}

export interface StartRequest {
  insightTypes: string[];
  encoding: Encoding;
  sampleRateHertz: number;
  meetingTitle: string | null;
  confidenceThreshold: number | null;
  languageCode: string | null;
  speaker: Speaker;
}

export type ClientRequest = { type: "start_request"; start: StartRequest } | { type: "stop_request" };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function optionalString(value: unknown, field: string, maxLength: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw invalid(`${field} must be a string`);
  if (value.length > maxLength) throw invalid(`${field} must be at most ${maxLength} characters`);
  return value.trim() || null;
}

/** What a stream's audio may be sent as: raw PCM, or compressed (decoded by ffmpeg as it arrives). */
export const ENCODINGS = ["LINEAR16", "FLAC", "OPUS"] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** The rates a LINEAR16 stream may have: telephone to studio, as Symbl took. */
export const SAMPLE_RATES = { min: 8_000, max: 48_000 };

function startRequestOf(body: Record<string, unknown>): StartRequest {
  const config = body.config ?? {};
  if (!isObject(config)) throw invalid("config must be an object");
  const recognition = config.speechRecognition ?? {};
  if (!isObject(recognition)) throw invalid("config.speechRecognition must be an object");
  const given = recognition.encoding ?? "LINEAR16";
  const encoding = ENCODINGS.find((known) => typeof given === "string" && known === given.toUpperCase());
  if (encoding === undefined) {
    throw invalid(
      `config.speechRecognition.encoding ${JSON.stringify(given)} is not supported: send LINEAR16 (16-bit little-endian PCM, mono), FLAC, or OPUS (in Ogg or WebM)`,
    );
  }
  const rate = recognition.sampleRateHertz ?? 16_000;
  if (
    typeof rate !== "number" ||
    !Number.isInteger(rate) ||
    rate < SAMPLE_RATES.min ||
    rate > SAMPLE_RATES.max
  ) {
    throw invalid(
      `config.speechRecognition.sampleRateHertz must be a whole number from ${SAMPLE_RATES.min} to ${SAMPLE_RATES.max}`,
    );
  }
  const insightTypes = body.insightTypes ?? [];
  if (!Array.isArray(insightTypes) || !insightTypes.every((type) => typeof type === "string")) {
    throw invalid("insightTypes must be an array of strings");
  }
  const threshold = config.confidenceThreshold ?? null;
  if (threshold !== null && (typeof threshold !== "number" || threshold < 0 || threshold > 1)) {
    throw invalid("config.confidenceThreshold must be a number from 0 to 1");
  }
  const speaker = body.speaker ?? {};
  if (!isObject(speaker)) throw invalid("speaker must be an object");
  return {
    insightTypes,
    encoding,
    sampleRateHertz: rate,
    meetingTitle: optionalString(config.meetingTitle, "config.meetingTitle", 1_000),
    confidenceThreshold: threshold,
    languageCode: optionalString(config.languageCode ?? body.languageCode, "config.languageCode", 35),
    speaker: {
      userId: optionalString(speaker.userId, "speaker.userId", 320),
      name: optionalString(speaker.name, "speaker.name", 320),
    },
  };
}

/** Reads one text frame; throws `invalid` naming what is wrong. */
export function parseRequest(text: string): ClientRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid("a text frame must be JSON: a start_request or a stop_request");
  }
  if (!isObject(body)) throw invalid("a text frame must be a JSON object with a type");
  if (body.type === "start_request") return { type: "start_request", start: startRequestOf(body) };
  if (body.type === "stop_request") return { type: "stop_request" };
  throw invalid(`type must be start_request or stop_request, not ${JSON.stringify(body.type ?? null)}`);
}

/**
 * LINEAR16 frames (16-bit little-endian mono PCM at the stream's rate) to 16 kHz float samples, by linear
 * interpolation. Each output's place in the input is computed from whole numbers (output k falls at input
 * k × rate / 16 000), and a byte and the last sample are carried across frames, so any framing of the same
 * audio gives the same samples.
 */
export class Linear16Resampler {
  private odd: number | null = null;
  /** Input samples before the current frame, outputs made so far, and the last input sample. */
  private consumed = 0;
  private made = 0;
  private previous = 0;

  constructor(private readonly inputRate: number) {}

  push(frame: Buffer): Float32Array {
    let bytes = frame;
    if (this.odd !== null) bytes = Buffer.concat([Buffer.from([this.odd]), frame]);
    this.odd = bytes.length % 2 === 1 ? bytes[bytes.length - 1]! : null;
    const count = Math.floor(bytes.length / 2);
    const input = new Float32Array(count);
    for (let i = 0; i < count; i++) input[i] = bytes.readInt16LE(i * 2) / 32_768;
    if (this.inputRate === SAMPLE_RATE) return input;
    const sampleAt = (index: number) =>
      index < this.consumed ? this.previous : input[index - this.consumed]!;
    const end = this.consumed + count;
    const out: number[] = [];
    for (;;) {
      const place = this.made * this.inputRate;
      const index = Math.floor(place / SAMPLE_RATE);
      const remainder = place % SAMPLE_RATE;
      if (index >= end || (remainder > 0 && index + 1 >= end)) break;
      const left = sampleAt(index);
      out.push(remainder === 0 ? left : left + (sampleAt(index + 1) - left) * (remainder / SAMPLE_RATE));
      this.made += 1;
    }
    if (count > 0) this.previous = input[count - 1]!;
    this.consumed = end;
    return Float32Array.from(out);
  }
}

/** A message's sender as Symbl's events name it. */
const userOf = (speaker: Speaker, id: string) => ({
  userId: speaker.userId ?? "",
  name: speaker.name ?? "",
  id,
});

/** An insight as the REST API presents it, and a topic: what the stream's analysis found. */
export interface FoundInsight {
  id: string;
  text: string;
  type: string;
  score: number;
  messageIds: string[];
  from: { id?: string; name?: string; userId?: string };
  assignee?: { id?: string; name: string; email?: string };
  dueBy?: string;
}
export interface FoundTopic {
  id: string;
  text: string;
  score: number;
  messageIds: string[];
}

export const events = {
  startedListening: () => ({ type: "message", message: { type: "started_listening" } }),
  recognitionStarted: (conversationId: string) => ({
    type: "message",
    message: { type: "recognition_started", data: { conversationId } },
  }),
  conversationCreated: (conversationId: string) => ({
    type: "message",
    message: { type: "conversation_created", data: { conversationId } },
  }),
  recognitionResult: (segment: RecognizedSegment, isFinal: boolean, speaker: Speaker, memberId: string) => ({
    type: "message",
    message: {
      type: "recognition_result",
      isFinal,
      payload: {
        raw: {
          alternatives: [
            {
              words: segment.words.map((word) => ({
                word: word.text,
                startTime: { seconds: Math.floor(word.startMs / 1000), nanos: (word.startMs % 1000) * 1e6 },
                endTime: { seconds: Math.floor(word.endMs / 1000), nanos: (word.endMs % 1000) * 1e6 },
              })),
              transcript: segment.text,
              confidence: 1,
            },
          ],
        },
      },
      punctuated: { transcript: segment.text },
      user: userOf(speaker, memberId),
    },
    timeOffset: segment.startMs,
  }),
  messageResponse: (
    sequenceNumber: number,
    message: { id: string; text: string; startTime: string; endTime: string },
    speaker: Speaker,
    memberId: string,
  ) => ({
    type: "message_response",
    messages: [
      {
        from: userOf(speaker, memberId),
        payload: { content: message.text, contentType: "text/plain" },
        id: message.id,
        channel: { id: "realtime-api-text" },
        metadata: { disablePunctuation: true, timezoneOffset: 0, originalContent: message.text },
        dismissed: false,
        duration: { startTime: message.startTime, endTime: message.endTime },
      },
    ],
    sequenceNumber,
  }),
  /** The app's trackers found in a final, as Symbl sent them while the stream ran. */
  trackerResponse: (sequenceNumber: number, trackers: DetectedTracker[]) => ({
    type: "tracker_response",
    isFinal: true,
    trackers: trackers.map(({ id, name, matches }) => ({ id, name, matches })),
    sequenceNumber,
  }),
  insightResponse: (insights: FoundInsight[]) => ({
    type: "insight_response",
    insights: insights.map((insight) => ({
      id: insight.id,
      confidence: insight.score,
      hints: [],
      type: insight.type,
      ...(insight.assignee !== undefined && { assignee: insight.assignee }),
      ...(insight.dueBy !== undefined && { dueBy: insight.dueBy }),
      tags: [],
      dismissed: false,
      payload: { content: insight.text, contentType: "text/plain" },
      from: insight.from,
      messageReference: { id: insight.messageIds[0] ?? null },
    })),
  }),
  topicResponse: (topics: FoundTopic[]) => ({
    type: "topic_response",
    topics: topics.map((topic) => ({
      id: topic.id,
      messageReferences: topic.messageIds.map((id) => ({ id, relation: "text instance" })),
      phrases: topic.text,
      rootWords: [{ text: topic.text }],
      score: topic.score,
      type: "topic",
    })),
  }),
  conversationCompleted: (conversationId: string, summaryUrl: string | null) => ({
    type: "message",
    message: { type: "conversation_completed", conversationId, summaryUrl, data: { conversationId } },
  }),
  recognitionStopped: (conversationId: string | null) => ({
    type: "message",
    message: { type: "recognition_stopped", data: { conversationId } },
  }),
  error: (code: string, details: string) => ({
    type: "message",
    message: { type: "error", code, details },
  }),
};

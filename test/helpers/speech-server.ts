import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** The answer shapes real servers give (docs/MEDIA.md, Remote engines). */
export type Dialect = "openai" | "whisper.cpp" | "vllm" | "localai" | "diarized";

/** A way for an answer to go wrong. */
export type Fault = { status: number; body: string } | "close mid-answer";

/** A transcription request as the server received it. */
export interface TranscriptionRequest {
  headers: IncomingHttpHeaders;
  fields: Record<string, string[]>;
  /** Seconds of audio in the WAV file sent. */
  seconds: number;
  /** Where speech was heard in it: [start, end] in seconds. */
  voiced: [number, number][];
}

export interface SpeechServer {
  /** The API base to configure as RECAP_ASR_URL (ends in /v1). */
  url: string;
  requests: TranscriptionRequest[];
  dialect: Dialect;
  /**
   * The text of speech heard from `startSeconds` of a request's audio; the test knows what it placed there (or,
   * for a live utterance, which always starts near 0, what audio of that length is).
   */
  textAt: (startSeconds: number, request: TranscriptionRequest) => string;
  /** Replaces every answer: an HTTP status and body, or the connection closed halfway through a good answer. */
  failWith: Fault | null;
  /** Replaces the next answers, one each, before `failWith` (null: answers that one as it should). */
  faults: (Fault | null)[];
  /** Holds each answer this long (a slow engine), so a test can stop Recap mid-transcription. */
  delayMs: number;
  /** Requests whose client went away before the answer: Recap abandoned the work. */
  abandoned: number;
  /** Stops listening, as a server that went down (connections are refused); `start` listens again at `url`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Where a 16-bit mono WAV file has sound: 20 ms frames above a level, gaps under 0.4 s bridged. */
export function voicedRegions(wav: Buffer): { seconds: number; voiced: [number, number][] } {
  const rate = wav.readUInt32LE(24);
  const dataAt = wav.indexOf("data", 12, "ascii");
  const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + dataAt + 8, wav.byteOffset + wav.length));
  const frame = Math.round(rate * 0.02);
  const regions: [number, number][] = [];
  for (let start = 0; start + frame <= samples.length; start += frame) {
    let energy = 0;
    for (let i = start; i < start + frame; i++) energy += ((samples[i] ?? 0) / 32768) ** 2;
    if (Math.sqrt(energy / frame) < 0.01) continue;
    const from = start / rate;
    const to = (start + frame) / rate;
    const last = regions[regions.length - 1];
    if (last && from - last[1] < 0.4) last[1] = to;
    else regions.push([from, to]);
  }
  return { seconds: samples.length / rate, voiced: regions.filter(([from, to]) => to - from >= 0.2) };
}

const round = (seconds: number) => Math.round(seconds * 100) / 100;

/** One answer in the dialect: segments at the voiced regions, their words spread evenly over each. */
function answerOf(server: SpeechServer, request: TranscriptionRequest): unknown {
  const segments = request.voiced.map(([start, end], index) => {
    const text = server.textAt(start, request);
    const words = text.split(/\s+/);
    const step = (end - start) / words.length;
    return {
      id: index,
      start: round(start),
      end: round(end),
      text: ` ${text}`,
      words: words.map((word, at) => ({
        word: ` ${word}`,
        start: round(start + at * step),
        end: round(start + (at + 1) * step),
      })),
    };
  });
  const text = segments.map((segment) => segment.text.trim()).join(" ");
  switch (server.dialect) {
    case "openai":
      return {
        text,
        language: "en",
        segments: segments.map(({ words: _words, ...segment }) => segment),
        words: segments.flatMap((segment) =>
          segment.words.map((word) => ({ ...word, word: word.word.trim() })),
        ),
      };
    case "whisper.cpp":
      return { text, language: "english", segments };
    case "vllm":
      return {
        text,
        segments: segments.map(({ words: _words, ...segment }) => ({
          ...segment,
          start: String(segment.start),
          end: String(segment.end),
        })),
        words: segments.flatMap((segment) =>
          segment.words.map((word) => ({
            word: word.word.trim(),
            start: String(word.start),
            end: String(word.end),
          })),
        ),
      };
    case "localai":
      return {
        text,
        segments: segments.map(({ id, start, end, text }) => ({
          id,
          start: Math.round(start * 1e9),
          end: Math.round(end * 1e9),
          text,
        })),
      };
    case "diarized":
      return {
        text,
        segments: segments.map(({ id, start, end, text }, index) => ({
          id,
          start,
          end,
          text,
          speaker: index % 2 === 0 ? "A" : "B",
        })),
      };
  }
}

/**
 * An OpenAI-compatible transcription server on a random port (`POST /v1/audio/transcriptions`, multipart),
 * standing in for whisper.cpp, speaches, LocalAI, vLLM or OpenAI. It cannot recognise words, so it answers
 * with the text the test says it placed at each stretch of sound it finds in the audio it was sent: times
 * are measured from the real audio, so they prove what Recap decoded, split and sent.
 */
export async function startSpeechServer(
  dialect: Dialect,
  textAt: SpeechServer["textAt"],
): Promise<SpeechServer> {
  const server: SpeechServer = {
    url: "",
    requests: [],
    dialect,
    textAt,
    failWith: null,
    faults: [],
    delayMs: 0,
    abandoned: 0,
    stop: () => Promise.resolve(),
    start: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      void (async () => {
        if (request.method !== "POST" || request.url !== "/v1/audio/transcriptions") {
          response.writeHead(404).end();
          return;
        }
        const form = await new Response(Buffer.concat(chunks), {
          headers: { "content-type": request.headers["content-type"] ?? "" },
        }).formData();
        const fields: Record<string, string[]> = {};
        let wav: Buffer | null = null;
        for (const [key, value] of form.entries()) {
          if (typeof value === "string") (fields[key] ??= []).push(value);
          else wav = Buffer.from(await value.arrayBuffer());
        }
        if (!wav) {
          response.writeHead(400, { "content-type": "application/json" });
          response.end(JSON.stringify({ error: { message: "file is required" } }));
          return;
        }
        const received = { headers: request.headers, fields, ...voicedRegions(wav) };
        server.requests.push(received);
        if (server.delayMs > 0) {
          const gone = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), server.delayMs);
            response.on("close", () => {
              clearTimeout(timer);
              resolve(!response.writableEnded);
            });
          });
          if (gone) {
            server.abandoned += 1;
            return;
          }
        }
        const answer = JSON.stringify(answerOf(server, received));
        const fault = server.faults.length > 0 ? (server.faults.shift() ?? null) : server.failWith;
        if (fault === "close mid-answer") {
          response.writeHead(200, { "content-type": "application/json", "content-length": answer.length });
          response.write(answer.slice(0, answer.length >> 1), () => response.destroy());
        } else if (fault !== null) {
          response.writeHead(fault.status, { "content-type": "application/json" });
          response.end(fault.body);
        } else {
          response.writeHead(200, { "content-type": "application/json" });
          response.end(answer);
        }
      })();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  server.url = `http://127.0.0.1:${port}/v1`;
  let listening = true;
  server.stop = () => {
    listening = false;
    http.closeAllConnections();
    return new Promise((resolve) => http.close(() => resolve()));
  };
  server.start = async () => {
    await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
    listening = true;
  };
  server.close = () => (listening ? server.stop() : Promise.resolve());
  return server;
}

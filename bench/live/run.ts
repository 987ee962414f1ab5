/**
 * Live streaming's latency and capacity, measured in one run (docs/LIVE.md, Speed):
 * - the first interim result after speech starts, and the final after it stops, through Recap's WebSocket (the
 *   frames, the resampler, the engine, each final stored before its message_response) beside the same engine
 *   alone (its `listen`, fed the same 16 kHz audio in the same 100 ms chunks), both at real-time pace;
 * - 10 connections at once, each streaming at real-time pace: their finals' latency beside one connection's, and
 *   the 11th past RECAP_LIVE_MAX_CONNECTIONS refused;
 * - memory: the process's heap after 1,000 sockets that connect and send nothing, beside before; and its resident
 *   memory (VmRSS: native allocations included, which the heap does not show) before and after 1,000 short
 *   streams, 5 at a time, each a start_request, under a second of LINEAR16 and a stop_request.
 * The engine is the local engine's real code (sherpa-onnx: the VAD, the recogniser) on the tests' generated
 * models (scripts/speech-models/models.ts): an energy VAD, and a recogniser that hears a tone as a word. They
 * take a fraction of a real model's time, so the latencies here are Recap's and the VAD's; a real model's decode
 * time adds to both sides alike (`bin/recap models bench` measures it where one is installed).
 *
 * The remote engine (RECAP_ASR_URL) is measured the same way on a stand-in OpenAI-compatible server that answers
 * every request after a fixed delay, beside that server alone (one request of the utterance's audio, straight).
 *
 * Usage: npm run bench:live [-- --utterances 6 --rounds 2 --delay 200]   (writes bench/results/live.txt)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { SAMPLE_RATE } from "../../src/media/engine.ts";
import { encodeWav } from "../../src/media/wav.ts";
import { startTestServer, type TestServer } from "../../test/helpers/app.ts";
import { connect, linear16, type Received } from "../../test/helpers/live.ts";
import { MediaKit } from "../../test/helpers/media.ts";
import { installGeneratedModels, VOICES } from "../../scripts/speech-models/models.ts";
import { startSpeechServer, type SpeechServer } from "../../test/helpers/speech-server.ts";
import { median } from "../timing.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: {
    utterances: { type: "string", default: "6" },
    rounds: { type: "string", default: "2" },
    streams: { type: "string", default: "1000" },
    delay: { type: "string", default: "200" },
  },
});
/** How long the stand-in server takes to answer each request. */
const SERVER_DELAY_MS = Number(values.delay);
const UTTERANCES = Number(values.utterances);
const ROUNDS = Number(values.rounds);
const CHUNK_MS = 100;
const SPEECH_S = 1.5;
const PAUSE_S = 1;
const CONNECTIONS = 10;
const SHORT_STREAMS = Number(values.streams);
const SHORT_AT_ONCE = 5;

/** When each utterance's speech starts and stops, in ms from the stream's start. */
const utterances = Array.from({ length: UTTERANCES }, (_, i) => {
  const start = 500 + i * (SPEECH_S + PAUSE_S) * 1000;
  return { start, end: start + SPEECH_S * 1000 };
});

/** Per utterance: the first interim after its speech starts, and its final after its speech stops (ms). */
interface Latencies {
  interim: number[];
  final: number[];
}

/**
 * Streams `audio` at real-time pace in CHUNK_MS pieces through `push`, noting when each utterance's onset and end
 * were sent; `events` yields the wall-clock times of interims and finals, which are then matched to utterances.
 */
async function paced(push: (chunk: Buffer) => unknown, bytesPerMs: number, audio: Buffer) {
  const sentAt = new Map<number, number>();
  const began = performance.now();
  const chunkBytes = CHUNK_MS * bytesPerMs;
  for (let offset = 0, at = 0; offset < audio.length; offset += chunkBytes, at += CHUNK_MS) {
    sentAt.set(at, performance.now());
    await push(audio.subarray(offset, offset + chunkBytes));
    const due = began + at + CHUNK_MS;
    await sleep(Math.max(0, due - performance.now()));
  }
  // The chunk in which a position falls was sent when that chunk went.
  return (ms: number) => sentAt.get(Math.floor(ms / CHUNK_MS) * CHUNK_MS) ?? 0;
}

function latencies(interims: number[], finals: number[], sentAt: (ms: number) => number): Latencies {
  const result: Latencies = { interim: [], final: [] };
  for (const [index, { start, end }] of utterances.entries()) {
    const onset = sentAt(start);
    const firstInterim = interims.find((t) => t >= onset);
    if (firstInterim !== undefined) result.interim.push(firstInterim - onset);
    const final = finals[index];
    if (final !== undefined) result.final.push(final - sentAt(end));
  }
  return result;
}

async function engineAlone(server: TestServer, audio16k: Buffer): Promise<Latencies> {
  const engine = await server.services.speech.engine();
  const interims: number[] = [];
  const finals: number[] = [];
  const recognition = engine.listen({
    onInterim: () => void interims.push(performance.now()),
    onFinal: () => {
      finals.push(performance.now());
      return Promise.resolve();
    },
  });
  const samples = (chunk: Buffer) => {
    const floats = new Float32Array(chunk.length / 2);
    for (let i = 0; i < floats.length; i++) floats[i] = chunk.readInt16LE(i * 2) / 32768;
    return floats;
  };
  const sentAt = await paced((chunk) => recognition.push(samples(chunk)), (SAMPLE_RATE / 1000) * 2, audio16k);
  await recognition.end();
  return latencies(interims, finals, sentAt);
}

/** The stand-in server alone: how long one request of `seconds` of a tone takes, straight, in ms (each try). */
async function serverAlone(speech: SpeechServer, seconds: number, tries: number): Promise<number[]> {
  const samples = new Float32Array(Math.round(seconds * SAMPLE_RATE));
  for (let i = 0; i < samples.length; i++)
    samples[i] = 0.3 * Math.sin((2 * Math.PI * VOICES[0] * i) / SAMPLE_RATE);
  const wav = new Blob([new Uint8Array(encodeWav(samples))], { type: "audio/wav" });
  const times: number[] = [];
  for (let i = 0; i < tries; i++) {
    const form = new FormData();
    form.append("file", wav, "audio.wav");
    form.append("model", "whisper-1");
    form.append("response_format", "verbose_json");
    const began = performance.now();
    const answer = await fetch(`${speech.url}/audio/transcriptions`, { method: "POST", body: form });
    await answer.json();
    times.push(performance.now() - began);
  }
  return times;
}

/** One connection streaming `audio` (LINEAR16 at `rate`) through Recap; its latencies, or its refusal. */
async function throughRecap(wsUrl: string, token: string, id: string, audio: Buffer, rate: number) {
  const { socket, received } = await connect(`${wsUrl}/v1/streaming/${id}?access_token=${token}`);
  const interims: number[] = [];
  const finals: number[] = [];
  socket.on("message", (data) => {
    const event = JSON.parse((data as Buffer).toString("utf8")) as {
      type: string;
      message?: { type: string; isFinal?: boolean };
    };
    if (event.message?.type === "recognition_result" && event.message.isFinal === false)
      interims.push(performance.now());
    if (event.type === "message_response") finals.push(performance.now());
  });
  socket.send(
    JSON.stringify({ type: "start_request", config: { speechRecognition: { sampleRateHertz: rate } } }),
  );
  const started = await until(
    received,
    (types) => types.includes("conversation_created") || received.close !== null,
  );
  if (!started || received.close !== null) {
    socket.close();
    return { refused: received.close?.code ?? 0, latencies: null };
  }
  const sentAt = await paced((chunk) => socket.send(chunk), (rate / 1000) * 2, audio);
  socket.send(JSON.stringify({ type: "stop_request" }));
  await until(received, () => received.close !== null, 30_000);
  return { refused: null, latencies: latencies(interims, finals, sentAt) };
}

async function until(received: Received, done: (types: string[]) => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    const types = received.events.map((e) =>
      e.type === "message" ? (e.message as { type: string }).type : String(e.type),
    );
    if (done(types)) return true;
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
}

/** One short stream: start, `audio` (LINEAR16 at 16 kHz) in one frame, stop, and its close. */
async function shortStream(wsUrl: string, token: string, id: string, audio: Buffer): Promise<number> {
  const { socket, received } = await connect(`${wsUrl}/v1/streaming/${id}?access_token=${token}`);
  socket.send(JSON.stringify({ type: "start_request" }));
  await until(received, (types) => types.includes("conversation_created") || received.close !== null);
  if (received.close === null) {
    socket.send(audio);
    socket.send(JSON.stringify({ type: "stop_request" }));
  }
  await until(received, () => received.close !== null, 30_000);
  return received.close?.code ?? 0;
}

/** The process's resident memory in MiB, as the kernel counts it (native allocations included). */
function residentMiB(): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${process.pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}

const fmt = (values: number[]) => `${Math.round(median(values))} ms (max ${Math.round(Math.max(...values))})`;
const ratio = (a: number[], b: number[]) => (median(a) / Math.max(1, median(b))).toFixed(2);

const kit = new MediaKit();
const modelsDir = join(kit.dir, "models");
installGeneratedModels(modelsDir);
const limits = {
  RECAP_LIVE_MAX_CONNECTIONS: String(CONNECTIONS),
  RECAP_LIVE_MAX_CONNECTIONS_PER_APP: String(CONNECTIONS),
  RECAP_RATE_LIMIT_PER_MINUTE: "0",
};
const server = await startTestServer("sqlite", {
  env: { RECAP_MODELS_DIR: modelsDir, RECAP_ASR_MODEL: "tone-ctc", ...limits },
});
// The remote engine on the same VAD (the energy one installed above), asking the stand-in server.
const speech = await startSpeechServer("openai", () => "hello");
speech.delayMs = SERVER_DELAY_MS;
const remote = await startTestServer("sqlite", {
  env: { RECAP_MODELS_DIR: modelsDir, RECAP_ASR_URL: speech.url, ...limits },
});
const lines: string[] = [];
const parts = utterances.flatMap((_, i) => [
  ...(i === 0 ? [{ silence: 0.5 }] : []),
  { tone: VOICES[i % 2] ?? 300, seconds: SPEECH_S },
  { silence: PAUSE_S },
]);
const rate = 48_000;
const audio = linear16(kit, "live", parts, rate);
const audio16k = linear16(kit, "live-16k", parts, SAMPLE_RATE);

/** One connection beside the engine alone (interleaved rounds), then ten at once and an eleventh past the limit. */
async function latencyOf(recap: TestServer) {
  const wsUrl = recap.url.replace(/^http/, "ws");
  const { token } = await recap.newApp();
  const alone: Latencies = { interim: [], final: [] };
  const one: Latencies = { interim: [], final: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const engine = await engineAlone(recap, audio16k);
    const through = await throughRecap(wsUrl, token, `one-${round}`, audio, rate);
    if (through.latencies === null) throw new Error(`the connection was refused (${through.refused})`);
    alone.interim.push(...engine.interim);
    alone.final.push(...engine.final);
    one.interim.push(...through.latencies.interim);
    one.final.push(...through.latencies.final);
  }
  const many = await Promise.all(
    Array.from({ length: CONNECTIONS + 1 }, (_, i) =>
      sleep(i === CONNECTIONS ? 1000 : i * 50).then(() =>
        throughRecap(wsUrl, token, `many-${i}`, audio, rate),
      ),
    ),
  );
  const together: Latencies = { interim: [], final: [] };
  for (const result of many) {
    together.interim.push(...(result.latencies?.interim ?? []));
    together.final.push(...(result.latencies?.final ?? []));
  }
  return {
    alone,
    one,
    together,
    refused: many.filter((result) => result.refused !== null).map((result) => result.refused),
    heard: many.filter((result) => result.latencies?.final.length === UTTERANCES).length,
  };
}

const lastTen = (latency: Awaited<ReturnType<typeof latencyOf>>) => [
  `${CONNECTIONS} connections at once — first interim: ${fmt(latency.together.interim)}; final: ${fmt(latency.together.final)}; ÷ one connection's final: ${ratio(latency.together.final, latency.one.final)}; ${latency.heard} of ${CONNECTIONS} heard every utterance`,
  `connection ${CONNECTIONS + 1} (past RECAP_LIVE_MAX_CONNECTIONS=${CONNECTIONS}): ${latency.refused.length === 1 ? `refused with close code ${latency.refused[0]}` : `refusals: ${JSON.stringify(latency.refused)}`}`,
];

try {
  const local = await latencyOf(server);
  const { token } = await server.newApp();
  const wsUrl = server.url.replace(/^http/, "ws");

  // 1,000 sockets that connect and send nothing: ten are admitted (and ended after 10 s), the rest refused.
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const idle = await Promise.all(
    Array.from({ length: 1000 }, (_, i) => connect(`${wsUrl}/v1/streaming/idle-${i}?access_token=${token}`)),
  );
  await sleep(500);
  global.gc?.();
  const heapDuring = process.memoryUsage().heapUsed;
  const refusedIdle = idle.filter(({ received }) => received.close?.code === 4429).length;
  for (const { socket } of idle) socket.terminate();

  // Short streams, a few at a time: what each leaves behind shows in resident memory, not in the heap.
  const short = linear16(kit, "short", [{ tone: VOICES[1] ?? 2000, seconds: 0.4 }, { silence: 0.4 }], 16_000);
  global.gc?.();
  const residentBefore = residentMiB();
  const closes = new Map<number, number>();
  for (let next = 0; next < SHORT_STREAMS; next += SHORT_AT_ONCE) {
    const codes = await Promise.all(
      Array.from({ length: Math.min(SHORT_AT_ONCE, SHORT_STREAMS - next) }, (_, i) =>
        shortStream(wsUrl, token, `short-${next + i}`, short),
      ),
    );
    for (const code of codes) closes.set(code, (closes.get(code) ?? 0) + 1);
  }
  await sleep(1000);
  global.gc?.();
  const residentAfter = residentMiB();
  const vads = (await server.services.speech.engine()).vads();

  // The remote engine: the stand-in server alone on an utterance's audio so far (an interim) and whole (a final).
  const remoteLatency = await latencyOf(remote);
  const interimAlone = await serverAlone(speech, 0.5, 5 * ROUNDS);
  const finalAlone = await serverAlone(speech, SPEECH_S + 0.6, 5 * ROUNDS);

  const cpu = cpus()[0]?.model ?? "unknown CPU";
  lines.push(
    `# bench:live — ${new Date().toISOString()} — ${cpus().length} × ${cpu}`,
    `audio: ${UTTERANCES} utterances of ${SPEECH_S} s, each followed by ${PAUSE_S} s of silence, at real-time pace in ${CHUNK_MS} ms frames; ${ROUNDS} interleaved rounds; medians over utterances`,
    "",
    `## local engine: the local engine's code (sherpa-onnx VAD and recogniser) on the tests' generated models, not a real model`,
    `first interim after speech starts — engine alone: ${fmt(local.alone.interim)}; through Recap: ${fmt(local.one.interim)}; Recap ÷ engine: ${ratio(local.one.interim, local.alone.interim)}`,
    `final after speech stops — engine alone: ${fmt(local.alone.final)}; through Recap (message_response, stored): ${fmt(local.one.final)}; Recap ÷ engine: ${ratio(local.one.final, local.alone.final)}`,
    ...lastTen(local),
    `${SHORT_STREAMS} short streams (${SHORT_AT_ONCE} at once; start, 0.8 s of LINEAR16, stop; closes ${JSON.stringify(Object.fromEntries(closes))}): resident memory (VmRSS) ${residentBefore.toFixed(0)} MiB before, ${residentAfter.toFixed(0)} MiB after (÷ before: ${(residentAfter / residentBefore).toFixed(2)}); VADs made: ${vads.made}`,
    `1,000 idle sockets: ${refusedIdle} refused with 4429; heap ${(heapBefore / 2 ** 20).toFixed(1)} MiB before, ${(heapDuring / 2 ** 20).toFixed(1)} MiB with them open (÷ before: ${(heapDuring / heapBefore).toFixed(2)})`,
    "",
    `## remote engine: a stand-in OpenAI-compatible server answering each request after ${SERVER_DELAY_MS} ms, the same VAD`,
    `first interim after speech starts — server alone (0.5 s of audio): ${fmt(interimAlone)}; engine alone: ${fmt(remoteLatency.alone.interim)}; through Recap: ${fmt(remoteLatency.one.interim)}; Recap ÷ engine: ${ratio(remoteLatency.one.interim, remoteLatency.alone.interim)}`,
    `final after speech stops — server alone (the utterance, ${SPEECH_S + 0.6} s): ${fmt(finalAlone)}; engine alone: ${fmt(remoteLatency.alone.final)}; through Recap (message_response, stored): ${fmt(remoteLatency.one.final)}; Recap ÷ engine: ${ratio(remoteLatency.one.final, remoteLatency.alone.final)}`,
    ...lastTen(remoteLatency),
    `requests the server answered: ${speech.requests.length}`,
  );
  console.log(lines.join("\n"));
  writeFileSync(join(ROOT, "bench/results/live.txt"), lines.join("\n") + "\n");
} finally {
  await server.close();
  await remote.close();
  await speech.close();
  kit.close();
}

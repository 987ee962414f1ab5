// A live stream's client side, as Symbl's clients other than its SDK speak it (docs/LIVE.md): audio as LINEAR16
// frames at a chosen pace, a plain WebSocket that collects the events it receives.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sdk as untypedSdk } from "@symblai/symbl-js";
import { WebSocket } from "ws";
import { writeRecording, type Part } from "./audio.ts";
import type { MediaKit } from "./media.ts";
import { untilValue } from "./wait.ts";

/** A recording as a client streams it: LINEAR16 (16-bit little-endian mono PCM) at `rate`. */
export function linear16(kit: MediaKit, name: string, parts: Part[], rate: number): Buffer {
  const wav = join(kit.dir, `${name}.wav`);
  const raw = join(kit.dir, `${name}.raw`);
  writeRecording(wav, parts);
  execFileSync("sox", [wav, "-r", String(rate), "-c", "1", "-b", "16", "-e", "signed-integer", "-L", raw]);
  return readFileSync(raw);
}

/** Sends `audio` in frames of `frameMs`, one every `frameMs / speed` milliseconds (speed 1 is real time). */
export async function stream(
  send: (frame: Buffer) => void,
  audio: Buffer,
  rate: number,
  frameMs: number,
  speed: number,
) {
  const frameBytes = Math.round((rate * frameMs) / 1000) * 2;
  for (let offset = 0; offset < audio.length; offset += frameBytes) {
    send(audio.subarray(offset, offset + frameBytes));
    await sleep(frameMs / speed);
  }
}

export interface Received {
  events: Record<string, unknown>[];
  close: { code: number; reason: string } | null;
}

/** A plain WebSocket client, as any Symbl client other than the SDK. */
export async function connect(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const received: Received = { events: [], close: null };
  socket.on("message", (data) =>
    received.events.push(JSON.parse((data as Buffer).toString("utf8")) as Record<string, unknown>),
  );
  socket.on("close", (code, reason) => (received.close = { code, reason: String(reason) }));
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return { socket, received };
}

export const messageType = (event: Record<string, unknown>) =>
  event.type === "message" ? (event.message as { type: string }).type : (event.type as string);

/** The conversation id of the stream's `conversation_created` event, once it has come. */
export async function createdConversation(received: Received): Promise<string> {
  const created = await untilValue(
    () => received.events.find((event) => messageType(event) === "conversation_created"),
    30_000,
  );
  if (created === undefined) throw new Error(`no conversation_created: ${JSON.stringify(received)}`);
  return (created as { message: { data: { conversationId: string } } }).message.data.conversationId;
}

/** Connects, sends the start_request and waits for the stream's conversation. */
export async function startStream(url: string, start: Record<string, unknown> = {}) {
  const client = await connect(url);
  client.socket.send(JSON.stringify({ type: "start_request", ...start }));
  return { ...client, conversationId: await createdConversation(client.received) };
}

/** What the tests use of Symbl's JavaScript SDK (it ships no types for `sdk`). */
export interface RealtimeConnection {
  conversationId: string;
  sendAudio(data: Buffer): void;
  stop(): Promise<{ conversationId: string }>;
}
export const sdk = untypedSdk as {
  init(options: { accessToken: string; basePath: string }): Promise<void>;
  startRealtimeRequest(options: Record<string, unknown>): Promise<RealtimeConnection>;
};

import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { SAMPLE_RATE } from "./engine.ts";

/** Where the samples start in a RIFF/WAVE file, and how many bytes of them there are. */
async function dataChunkOf(file: string): Promise<{ offset: number; length: number }> {
  const handle = await open(file, "r");
  try {
    const header = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(header, 0, header.length, 0);
    if (header.toString("ascii", 0, 4) !== "RIFF" || header.toString("ascii", 8, 12) !== "WAVE") {
      throw new Error(`${file} is not a WAV file`);
    }
    let at = 12;
    while (at + 8 <= bytesRead) {
      const id = header.toString("ascii", at, at + 4);
      const size = header.readUInt32LE(at + 4);
      if (id === "data") return { offset: at + 8, length: size };
      at += 8 + size + (size % 2);
    }
    throw new Error(`${file} has no data chunk`);
  } finally {
    await handle.close();
  }
}

/** The samples of a 16-bit mono WAV file as float chunks of about `chunkSeconds`, read as they are needed. */
export async function* readWavSamples(file: string, chunkSeconds = 10): AsyncGenerator<Float32Array> {
  const { offset, length } = await dataChunkOf(file);
  if (length === 0) return;
  const stream = createReadStream(file, {
    start: offset,
    end: offset + length - 1,
    highWaterMark: SAMPLE_RATE * 2 * chunkSeconds,
  });
  let carry: Buffer | null = null;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const bytes: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    const whole = bytes.length - (bytes.length % 2);
    carry = whole < bytes.length ? bytes.subarray(whole) : null;
    // A copy into a fresh, aligned buffer lets the 16-bit samples be read as one typed array (WAV is little-endian).
    const pcm = new Int16Array(new Uint8Array(bytes.subarray(0, whole)).buffer);
    const samples = new Float32Array(pcm.length);
    for (let i = 0; i < pcm.length; i++) samples[i] = (pcm[i] ?? 0) / 32768;
    yield samples;
  }
}

/**
 * The samples of a 16 kHz mono 16-bit WAV file within `spans` (milliseconds from its start, in time order, not
 * overlapping), joined, at most `maxSamples` of them: the file is read once, in chunks.
 */
export async function readWavSpans(
  file: string,
  spans: readonly { startMs: number; endMs: number }[],
  maxSamples: number,
): Promise<Float32Array> {
  const ranges = spans.map((span) => [
    Math.round((span.startMs * SAMPLE_RATE) / 1000),
    Math.round((span.endMs * SAMPLE_RATE) / 1000),
  ]);
  const out = new Float32Array(maxSamples);
  let written = 0;
  let at = 0;
  for await (const chunk of readWavSamples(file)) {
    for (const [start = 0, end = 0] of ranges) {
      const from = Math.max(start, at);
      const to = Math.min(end, at + chunk.length, from + maxSamples - written);
      if (to <= from) continue;
      out.set(chunk.subarray(from - at, to - at), written);
      written += to - from;
    }
    at += chunk.length;
    if (written >= maxSamples || at >= (ranges.at(-1)?.[1] ?? 0)) break;
  }
  return out.slice(0, written);
}

/** The length of a 16 kHz mono 16-bit WAV file in milliseconds. */
export async function wavDurationMs(file: string): Promise<number> {
  const { length } = await dataChunkOf(file);
  return Math.round((length / 2 / SAMPLE_RATE) * 1000);
}

/** 16 kHz mono samples as a 16-bit PCM WAV file's bytes, for an engine that takes files. */
export function encodeWav(samples: Float32Array): Buffer {
  const data = samples.length * 2;
  const wav = Buffer.alloc(44 + data);
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(36 + data, 4);
  wav.write("WAVEfmt ", 8, "ascii");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(SAMPLE_RATE, 24);
  wav.writeUInt32LE(SAMPLE_RATE * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(data, 40);
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const sample = Math.max(-1, Math.min(1, samples[i] ?? 0));
    pcm[i] = Math.round(sample < 0 ? sample * 32768 : sample * 32767);
  }
  Buffer.from(pcm.buffer).copy(wav, 44);
  return wav;
}

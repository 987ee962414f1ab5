import { spawn } from "node:child_process";
import { SAMPLE_RATE } from "./engine.ts";

/**
 * Decodes any file ffmpeg reads to 16 kHz mono float samples, yielded as ffmpeg writes them (so a long file is
 * never held whole). Ending the iteration early stops ffmpeg.
 * @throws Error with ffmpeg's own message when it cannot decode the file
 */
export async function* decodeAudio(path: string): AsyncGenerator<Float32Array> {
  const ffmpeg = spawn(
    "ffmpeg",
    ["-nostdin", "-v", "error", "-i", path, "-f", "f32le", "-ac", "1", "-ar", String(SAMPLE_RATE), "pipe:1"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let errors = "";
  ffmpeg.stderr.setEncoding("utf8").on("data", (text: string) => (errors = (errors + text).slice(-2000)));
  const exited = new Promise<number | null>((resolve, reject) => {
    ffmpeg.on("error", reject);
    ffmpeg.on("close", resolve);
  });
  let carry = Buffer.alloc(0);
  try {
    for await (const data of ffmpeg.stdout as AsyncIterable<Buffer>) {
      const bytes = carry.length > 0 ? Buffer.concat([carry, data]) : data;
      const whole = bytes.length - (bytes.length % 4);
      carry = Buffer.from(bytes.subarray(whole));
      const samples = new Float32Array(whole / 4);
      new Uint8Array(samples.buffer).set(bytes.subarray(0, whole));
      yield samples;
    }
    const code = await exited;
    if (code !== 0)
      throw new Error(`ffmpeg could not decode ${path}: ${errors.trim() || `exit code ${code}`}`);
  } finally {
    ffmpeg.kill();
  }
}

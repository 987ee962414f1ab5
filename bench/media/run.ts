/**
 * What Recap adds to speech recognition, measured in one run (docs/MEDIA.md, Speed):
 * - decoding's real-time factor: ffmpeg from MP3 to the 16 kHz WAV every engine reads (decodeToWav);
 * - Recap's whole path for a file (upload, probe, decode, the engine, alignment, storing, the analysis, until
 *   `GET /v1/job` says completed) beside the engine alone on the same audio (the same WAV posted straight to the
 *   same server), interleaved in rounds.
 * The engine is the tests' OpenAI-compatible stand-in (test/helpers/speech-server.ts), which finds speech by its
 * energy instead of recognising it: it takes a small fraction of a real model's time, so the ratio here is
 * Recap's overhead at its most visible. The overhead in seconds per audio minute is what carries over to a real
 * model; `bin/recap models bench` measures a real model where one is installed.
 *
 * Usage: npm run bench:media [-- --minutes 10 --rounds 3]   (writes bench/results/media.txt)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { decodeToWav } from "../../src/media/ffmpeg.ts";
import { startTestServer, waitForJob } from "../../test/helpers/app.ts";
import type * as Body from "../../test/helpers/bodies.ts";
import { MediaKit } from "../../test/helpers/media.ts";
import { startSpeechServer } from "../../test/helpers/speech-server.ts";
import { median } from "../timing.ts";

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: { minutes: { type: "string", default: "10" }, rounds: { type: "string", default: "3" } },
});
const MINUTES = Number(values.minutes);
const ROUNDS = Number(values.rounds);

const kit = new MediaKit();
const speech = await startSpeechServer("openai", () => "We agreed to ship the remote control in March.");
const server = await startTestServer("sqlite", {
  env: {
    RECAP_ASR_URL: speech.url,
    RECAP_MEDIA_DIR: join(kit.dir, "store"),
    RECAP_RATE_LIMIT_PER_MINUTE: "0",
  },
});
const lines: string[] = [];
try {
  const { token } = await server.newApp();
  const minute = await kit.speech(
    [0, 9, 18, 27, 36, 45].map((atSeconds, index) => ({
      text: `Item ${index + 1}: we agreed to ship the remote control in March, and Dana will send the budget.`,
      atSeconds,
      voice: index % 2 === 0 ? "en-us" : "en-gb",
    })),
    60,
  );
  const mp3 = join(kit.dir, "meeting.mp3");
  await run("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-stream_loop",
    String(MINUTES - 1),
    "-i",
    minute,
    "-c:a",
    "libmp3lame",
    mp3,
  ]);
  const seconds = MINUTES * 60;

  const decodeTimes: number[] = [];
  const recapTimes: number[] = [];
  const engineTimes: number[] = [];
  let wav = "";
  for (let round = 0; round < ROUNDS; round++) {
    const decodeStart = performance.now();
    [wav = ""] = await decodeToWav(server.config.media, mp3, kit.dir, {
      format: "mp3",
      channels: null,
      maxSeconds: seconds + 60,
      signal: new AbortController().signal,
    });
    decodeTimes.push(performance.now() - decodeStart);

    const engineStart = performance.now();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(readFileSync(wav))], { type: "audio/wav" }), "audio.wav");
    form.append("model", "whisper-1");
    form.append("response_format", "verbose_json");
    const answer = await fetch(`${speech.url}/audio/transcriptions`, { method: "POST", body: form });
    await answer.json();
    engineTimes.push(performance.now() - engineStart);

    const recapStart = performance.now();
    const response = await fetch(`${server.url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/mpeg" },
      body: readFileSync(mp3),
    });
    const accepted = (await response.json()) as Body.Accepted;
    const status = await waitForJob(server, token, accepted.jobId);
    if (status !== "completed") throw new Error(`the bench's job ended ${status}`);
    recapTimes.push(performance.now() - recapStart);
  }
  const decode = median(decodeTimes);
  const engine = median(engineTimes);
  const recap = median(recapTimes);
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  lines.push(
    `# bench:media — ${new Date().toISOString()} — ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`,
    `audio: ${MINUTES} min of espeak-ng speech (MP3, 6 utterances a minute), ${ROUNDS} interleaved rounds, medians`,
    "",
    `decoding (ffmpeg MP3 → 16 kHz WAV): ${ms(decode)} = real-time factor ${(decode / 1000 / seconds).toFixed(4)}` +
      ` (${(seconds / (decode / 1000)).toFixed(0)}× faster than real time); rounds ${decodeTimes.map(ms).join(", ")}`,
    `engine alone (the stand-in, the decoded WAV posted to it): ${ms(engine)}; rounds ${engineTimes.map(ms).join(", ")}`,
    `Recap, upload to job completed (probe, decode, engine, align, store, analysis): ${ms(recap)}; rounds ${recapTimes.map(ms).join(", ")}`,
    `Recap ÷ engine alone: ${(recap / engine).toFixed(2)} (the stand-in engine takes a fraction of a real model's time)`,
    `Recap's own time per audio minute: ${((recap - engine) / MINUTES).toFixed(0)} ms`,
  );
  const text = lines.join("\n") + "\n";
  process.stdout.write(text);
  writeFileSync(join(ROOT, "bench", "results", "media.txt"), text);
} finally {
  await server.close();
  await speech.close();
  kit.close();
}

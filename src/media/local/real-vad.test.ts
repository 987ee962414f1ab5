/**
 * The real Silero VAD (the v4 Recap ships and uses, and v5) through the real segmenter, on a real human voice
 * (test/fixtures/media/jfk.wav) and on espeak-ng sentences made here: the utterances are where the speech was
 * put, within a stated tolerance, by both ways audio reaches the VAD (a live stream's LINEAR16 frames resampled
 * by src/live/protocol.ts, a recording probed and decoded by ffmpeg as a media job does) at 8, 16 and 48 kHz.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRecording } from "../../../test/helpers/audio.ts";
import { JFK, JFK_PHRASES, VAD_TOLERANCE_SECONDS, type Speech } from "../../../test/helpers/jfk.ts";
import { Linear16Resampler } from "../../live/protocol.ts";
import { SAMPLE_RATE } from "../engine.ts";
import { decodeToWav, probe } from "../ffmpeg.ts";
import { SHIPPED_VADS } from "../vad.ts";
import { readWavSamples } from "../wav.ts";
import { VadPool, type SpeechSegment } from "./segmenter.ts";

const SENTENCES = [
  "The meeting starts at nine tomorrow morning.",
  "Please bring the budget report with you.",
  "We will decide on the new office then.",
];

const RATES = [8_000, 16_000, 48_000] as const;
const FRAMES_MS = [20, 100, 250];

const dir = mkdtempSync(join(tmpdir(), "recap-real-vad-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 16-bit mono PCM of `file` at `rate`, as a LINEAR16 client would send it. */
function linear16(file: string, rate: number): Buffer {
  return execFileSync(
    "ffmpeg",
    ["-nostdin", "-v", "error", "-i", file, "-f", "s16le", "-ac", "1", "-ar", String(rate), "pipe:1"],
    { maxBuffer: 64 * 1024 * 1024 },
  );
}

/** Where the espeak-ng sentences are: runs of sound between the digital silences the test put there. */
function soundRuns(pcm16k: Buffer): { start: number; end: number }[] {
  const frame = SAMPLE_RATE / 100;
  const runs: { start: number; end: number }[] = [];
  for (let at = 0; at + frame * 2 <= pcm16k.length; at += frame * 2) {
    let peak = 0;
    for (let i = at; i < at + frame * 2; i += 2) peak = Math.max(peak, Math.abs(pcm16k.readInt16LE(i)));
    if (peak < 33) continue; // −60 dBFS: sox's silence is all zeros
    const [start, end] = [at / 2 / SAMPLE_RATE, (at / 2 + frame) / SAMPLE_RATE];
    const last = runs.at(-1);
    if (last && start - last.end < 0.5) last.end = end;
    else runs.push({ start, end });
  }
  return runs;
}

const seconds = (segments: SpeechSegment[]) =>
  segments.map(({ startSample, samples }) => ({
    start: startSample / SAMPLE_RATE,
    end: (startSample + samples.length) / SAMPLE_RATE,
  }));

function expectUtterancesAt(heard: { start: number; end: number }[], speech: Speech[], tolerance: number) {
  // One utterance per phrase: none cut inside one, none merged across a pause.
  expect(heard.map((span) => [span.start.toFixed(2), span.end.toFixed(2)])).toHaveLength(speech.length);
  heard.forEach((span, index) => {
    const put = speech[index]!;
    expect(Math.abs(span.start - put.start), `start of "${put.text}" at ${span.start}`).toBeLessThanOrEqual(
      tolerance,
    );
    expect(Math.abs(span.end - put.end), `end of "${put.text}" at ${span.end}`).toBeLessThanOrEqual(
      tolerance,
    );
  });
}

const recordings: Record<string, { file: string; speech: { v4: Speech[]; v5: Speech[] } }> = {};

beforeAll(() => {
  const espeak = join(dir, "sentences.wav");
  writeRecording(espeak, [
    { silence: 1 },
    { say: SENTENCES[0]! },
    { silence: 1.2 },
    { say: SENTENCES[1]! },
    { silence: 1.5 },
    { say: SENTENCES[2]! },
    { silence: 1 },
  ]);
  const sentences = soundRuns(linear16(espeak, SAMPLE_RATE)).map((run, index) => ({
    text: SENTENCES[index] ?? "(a sound no sentence made)",
    ...run,
  }));
  recordings["jfk.wav"] = {
    file: JFK,
    // Through sherpa-onnx 1.13.8, v5 does not hear "ask not" at its own threshold: why Recap ships v4.
    speech: { v4: JFK_PHRASES, v5: JFK_PHRASES.filter((phrase) => phrase.text !== "ask not") },
  };
  recordings["espeak-ng sentences"] = { file: espeak, speech: { v4: sentences, v5: sentences } };
});

describe.each(["v4", "v5"] as const)("the real Silero VAD %s", (version) => {
  const pool = new VadPool({ vadModel: SHIPPED_VADS[version].file });

  describe.each(["jfk.wav", "espeak-ng sentences"])("on %s", (name) => {
    it.each(RATES)(
      "cuts a live LINEAR16 stream at %i Hz where the speech is, in 20, 100 and 250 ms frames",
      (rate) => {
        const { file, speech } = recordings[name]!;
        const pcm = linear16(file, rate);
        for (const frameMs of FRAMES_MS) {
          const resampler = new Linear16Resampler(rate);
          const segmenter = pool.segmenter({ sourceSampleRate: rate });
          const frameBytes = (rate * frameMs * 2) / 1000;
          const segments: SpeechSegment[] = [];
          for (let at = 0; at < pcm.length; at += frameBytes)
            segments.push(...segmenter.push(resampler.push(pcm.subarray(at, at + frameBytes))));
          segments.push(...segmenter.flush());
          segmenter.release();
          expectUtterancesAt(seconds(segments), speech[version], VAD_TOLERANCE_SECONDS[rate]);
        }
      },
    );

    // At 8 kHz ffmpeg's resampler leaves nothing above 4 kHz, and the VAD hears jfk.wav only through the
    // narrowband view the probed rate selects (docs/MEDIA.md, The VAD).
    it.each(RATES)(
      "cuts a recording at %i Hz probed and decoded by ffmpeg where the speech is",
      async (rate) => {
        const { file, speech } = recordings[name]!;
        const work = mkdtempSync(join(dir, "decode-"));
        const input = join(work, "input.wav");
        execFileSync("ffmpeg", [
          "-nostdin",
          "-v",
          "error",
          "-i",
          file,
          "-ac",
          "1",
          "-ar",
          String(rate),
          input,
        ]);
        mkdirSync(join(work, "out"));
        const paths = { ffmpegPath: "ffmpeg", ffprobePath: "ffprobe" };
        const probed = await probe(paths, input);
        expect(probed.sampleRate).toBe(rate);
        const [decoded] = await decodeToWav(paths, input, join(work, "out"), {
          format: probed.format,
          channels: null,
          maxSeconds: 60,
          signal: new AbortController().signal,
        });
        const segmenter = pool.segmenter({ sourceSampleRate: probed.sampleRate });
        const segments: SpeechSegment[] = [];
        for await (const chunk of readWavSamples(decoded!)) segments.push(...segmenter.push(chunk));
        segments.push(...segmenter.flush());
        segmenter.release();
        expectUtterancesAt(seconds(segments), speech[version], VAD_TOLERANCE_SECONDS[rate]);
      },
    );
  });
});

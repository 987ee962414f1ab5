import { execFile, spawn, type ChildProcess } from "node:child_process";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { SAMPLE_RATE } from "./engine.ts";
import { MediaProblem } from "./problems.ts";

export interface FfmpegPaths {
  ffmpegPath: string;
  ffprobePath: string;
}

export interface ProbedMedia {
  /** The demuxer ffprobe read it with (one of MEDIA_FORMATS), named to the decoder so it reads it alike. */
  format: string;
  /** Null when the container does not say (a live capture, some WebM files). */
  durationMs: number | null;
  /** Channels of the first audio stream; 0 when the file has no audio. */
  channels: number;
  /** The first audio stream's sample rate (Hz); 0 when the file has no audio. */
  sampleRate: number;
  hasVideo: boolean;
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string; probe_score?: number };
  streams?: { codec_type?: string; channels?: number; sample_rate?: string; duration?: string }[];
}

/**
 * The demuxers recorded media is read with (ffmpeg's names): containers that hold one recording. Any other
 * format is refused before it is opened, above all those that open the files or URLs they name (HLS and other
 * playlists, concat lists, image sequences): a file of one app must never make ffmpeg read another's.
 */
export const MEDIA_FORMATS = [
  "wav",
  "w64",
  "mp3",
  "aac",
  "flac",
  "ogg",
  "mov",
  "matroska",
  "aiff",
  "caf",
  "asf",
  "avi",
  "mpegts",
  "amr",
];

/** What MEDIA_FORMATS are called by the people who send them. */
const FORMAT_NAMES =
  "WAV, MP3, M4A/MP4/MOV, AAC, FLAC, Ogg/Opus, WebM/MKV, AIFF, CAF, WMA/WMV, AVI, MPEG-TS or AMR";

/** The input options of every ffprobe and ffmpeg run on recorded media: local files, of MEDIA_FORMATS only. */
const INPUT_RULES = ["-protocol_whitelist", "file", "-format_whitelist", MEDIA_FORMATS.join(",")];

/**
 * Below this, ffprobe chose the format by the file's name alone, not its bytes (ffmpeg's AVPROBE_SCORE_RETRY):
 * random bytes named `.mp3` score 1, real media 51 or more.
 */
const LEAST_PROBE_SCORE = 25;

const notMedia = (detail: string) =>
  new MediaProblem(
    `the file is not a media file Recap reads (one audio or video recording: ${FORMAT_NAMES}; ` +
      "playlists and lists of other files are not read)",
    detail,
  );

/** How long ffprobe may read a file's headers. */
const PROBE_TIMEOUT_MS = 30_000;

/**
 * Reads what a file holds with ffprobe, from its headers only, opening nothing but the file. Throws MediaProblem
 * when it is not a recording in one of MEDIA_FORMATS with readable audio; a file with no audio stream is returned
 * with `channels` 0 for the caller to judge.
 */
export function probe(paths: FfmpegPaths, file: string, signal?: AbortSignal): Promise<ProbedMedia> {
  const args = [
    ...INPUT_RULES,
    "-v",
    "error",
    "-print_format",
    "json",
    "-show_format",
    "-show_streams",
    file,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      paths.ffprobePath,
      args,
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, signal },
      (error, stdout, stderr) => {
        if (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") {
            return reject(new Error(`ffprobe was not found at "${paths.ffprobePath}" (RECAP_FFMPEG_PATH)`));
          }
          if (signal?.aborted) return reject(signal.reason as Error);
          return reject(notMedia(firstLine(stderr)));
        }
        const output = JSON.parse(stdout) as FfprobeOutput;
        const format = output.format?.format_name?.split(",")[0] ?? "";
        const score = output.format?.probe_score ?? 0;
        if (!MEDIA_FORMATS.includes(format) || score < LEAST_PROBE_SCORE) {
          return reject(notMedia(`ffprobe read it as ${format || "nothing"} (probe score ${score})`));
        }
        const streams = output.streams ?? [];
        const audio = streams.find((stream) => stream.codec_type === "audio");
        // A stream ffprobe names but cannot describe (no channels, no rate) is not audio anyone can decode.
        if (audio !== undefined && !((audio.channels ?? 0) > 0 && Number(audio.sample_rate) > 0)) {
          return reject(notMedia(`its ${format} audio stream has no channels or sample rate`));
        }
        const seconds = Number(output.format?.duration ?? audio?.duration);
        resolve({
          format,
          durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : null,
          channels: audio?.channels ?? 0,
          sampleRate: Number(audio?.sample_rate ?? 0),
          hasVideo: streams.some((stream) => stream.codec_type === "video"),
        });
      },
    );
  });
}

/** ffmpeg's first line of complaint, for the log: without the heap addresses it prints (`[hls @ 0x55…]`). */
function firstLine(text: string): string {
  const line = text.split("\n").find((entry) => entry.trim() !== "") ?? "no detail";
  return line
    .replace(/ @ 0x[0-9a-f]+/gi, "")
    .trim()
    .slice(0, 300);
}

export interface DecodeOptions {
  /** The demuxer the file was probed with (ProbedMedia.format): ffmpeg reads it as that and nothing else. */
  format: string;
  /** One output mixing every channel (null), or one output per listed channel (0-based). */
  channels: number[] | null;
  /** Decoding stops here; reaching it fails the decode, so a file that lied about its length is caught. */
  maxSeconds: number;
  signal: AbortSignal;
}

/**
 * Decodes the first audio stream of `input` to 16 kHz mono 16-bit WAV files in `outDir` (`channel-N.wav`, or
 * `mix.wav`), with ffmpeg killed if `signal` aborts. Throws MediaProblem for a file ffmpeg cannot decode or
 * one longer than `maxSeconds`; returns the files' paths in the order of `channels`.
 */
export async function decodeToWav(
  paths: FfmpegPaths,
  input: string,
  outDir: string,
  options: DecodeOptions,
): Promise<string[]> {
  const outputs =
    options.channels === null
      ? [{ file: join(outDir, "mix.wav"), filter: null }]
      : options.channels.map((channel) => ({
          file: join(outDir, `channel-${channel}.wav`),
          filter: `pan=mono|c0=c${channel}`,
        }));
  const args = ["-nostdin", "-v", "error", "-y", ...INPUT_RULES, "-f", options.format, "-i", input];
  for (const output of outputs) {
    args.push("-map", "0:a:0", "-vn", "-sn", "-dn", "-map_metadata", "-1", "-bitexact");
    if (output.filter) args.push("-af", output.filter);
    args.push("-ac", "1", "-ar", String(SAMPLE_RATE), "-c:a", "pcm_s16le");
    args.push("-t", String(options.maxSeconds + 1), output.file);
  }
  // ffmpeg decodes hundreds of times faster than real time: a decode that takes longer than this is stuck.
  const limitMs = (60 + options.maxSeconds / 20) * 1000;
  const deadline = AbortSignal.timeout(limitMs);
  try {
    await run(paths.ffmpegPath, args, AbortSignal.any([options.signal, deadline]));
  } catch (error) {
    if (deadline.aborted && !options.signal.aborted) {
      throw new MediaProblem(`decoding took longer than ${Math.round(limitMs / 1000)} seconds`);
    }
    throw error;
  }
  for (const output of outputs) {
    const seconds = (await stat(output.file)).size / (SAMPLE_RATE * 2);
    if (seconds > options.maxSeconds) {
      throw new MediaProblem(
        `the media is longer than the limit of ${options.maxSeconds} seconds (RECAP_MEDIA_MAX_SECONDS)`,
      );
    }
  }
  return outputs.map((output) => output.file);
}

function run(command: string, args: string[], signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], signal });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < 8192) stderr += chunk;
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") {
        reject(new Error(`ffmpeg was not found at "${command}" (RECAP_FFMPEG_PATH)`));
      } else reject(error);
    });
    child.on("close", (code) => {
      if (signal.aborted) return reject(signal.reason as Error);
      if (code === 0) return resolve();
      reject(
        new MediaProblem(
          "the audio could not be decoded (the file is damaged or cut short)",
          firstLine(stderr),
        ),
      );
    });
  });
}

/**
 * Decodes any file ffmpeg reads to 16 kHz mono float samples, yielded as ffmpeg writes them (so a long file is
 * never held whole; `bin/recap models bench` and the engine's tests). Ending the iteration early stops ffmpeg.
 * @throws Error with ffmpeg's own message when it cannot decode the file
 */
export async function* decodeAudio(paths: FfmpegPaths, path: string): AsyncGenerator<Float32Array> {
  const ffmpeg = spawn(
    paths.ffmpegPath,
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

/** The compressed encodings a live stream may be sent in, as ffmpeg reads them. */
export type StreamEncoding = "FLAC" | "OPUS";

/**
 * The containers a live stream's bytes may come in, by encoding: how each begins, and the demuxer ffmpeg reads it
 * with. ffmpeg is never left to guess, so a playlist or a list of files sent as audio is refused before ffmpeg
 * sees it, as recorded media's MEDIA_FORMATS are (an HLS playlist names files ffmpeg would open).
 */
const STREAM_CONTAINERS: Record<StreamEncoding, { magic: Buffer; format: string }[]> = {
  FLAC: [{ magic: Buffer.from("fLaC"), format: "flac" }],
  OPUS: [
    { magic: Buffer.from("OggS"), format: "ogg" },
    { magic: Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), format: "matroska" },
  ],
};
const MAGIC_BYTES = 4;

/** What to send, said with the refusal of a stream that could not be decoded. */
const STREAM_HINTS: Record<StreamEncoding, string> = {
  FLAC: "send the bytes of a FLAC file as it is written",
  OPUS: "send Opus in Ogg or WebM",
};

/**
 * A compressed live stream decoded by ffmpeg as its bytes arrive (docs/LIVE.md, Encodings): FLAC, or Opus in an
 * Ogg or WebM container (what browsers' MediaRecorder makes), to 16 kHz mono 16-bit little-endian PCM handed to
 * `onPcm` in order. The container is told from the first bytes and named to ffmpeg, which opens nothing but its
 * input and flushes every packet, so what it decodes is not held back. `onFailed` is called once, as soon as the
 * bytes are known to be bad: they begin as no container of the encoding, or ffmpeg reports an error (it would
 * otherwise read on to the end of the stream); ffmpeg is stopped then. The problem's message is for the client,
 * its detail (ffmpeg's words) for the log.
 */
export class StreamDecoder {
  private child: ChildProcess | null = null;
  /** The first bytes, held until there are enough to tell the container. */
  private head: Buffer[] = [];
  private stderr = "";
  private written = 0;
  /** The input was ended or ffmpeg stopped by the caller: its exit is then reported by `end`, or not at all. */
  private stopped = false;
  /** Nothing more is reported: a failure was (by `onFailed` or `end`), or the caller stopped ffmpeg. */
  private done = false;
  private exited: Promise<number | null> = Promise.resolve(0);

  constructor(
    private readonly paths: FfmpegPaths,
    private readonly encoding: StreamEncoding,
    private readonly onPcm: (pcm: Buffer) => void,
    private readonly onFailed: (problem: MediaProblem) => void,
  ) {}

  write(bytes: Buffer): void {
    if (this.done || this.stopped) return;
    this.written += bytes.length;
    if (this.child !== null) {
      this.child.stdin?.write(bytes);
      return;
    }
    this.head.push(bytes);
    const head = Buffer.concat(this.head);
    if (head.length < MAGIC_BYTES) return;
    this.head = [];
    const container = STREAM_CONTAINERS[this.encoding].find(({ magic }) =>
      head.subarray(0, MAGIC_BYTES).equals(magic),
    );
    if (container === undefined)
      return this.fail(this.problem(`it begins with 0x${head.toString("hex", 0, MAGIC_BYTES)}`));
    this.start(container.format).stdin?.write(head);
  }

  /** Ends the input and waits until everything decoded has been handed on; throws when ffmpeg failed. */
  async end(): Promise<void> {
    if (this.done) return;
    this.stopped = true;
    if (this.child === null) {
      if (this.written > 0) throw this.problem(`only ${this.written} bytes arrived`);
      return;
    }
    this.child.stdin?.end();
    const code = await this.exited;
    if (code !== 0 && !this.done) {
      this.done = true;
      throw this.problem(this.ffmpegSaid(code));
    }
  }

  /** Stops ffmpeg at once (the connection failed). */
  kill(): void {
    this.done = true;
    this.stopped = true;
    this.child?.kill("SIGKILL");
  }

  private start(format: string): ChildProcess {
    const args = ["-v", "error", "-protocol_whitelist", "pipe", "-f", format];
    args.push("-probesize", "4096", "-analyzeduration", "0", "-fflags", "nobuffer", "-i", "pipe:0");
    args.push("-vn", "-ac", "1", "-ar", String(SAMPLE_RATE), "-c:a", "pcm_s16le");
    args.push("-f", "s16le", "-flush_packets", "1", "pipe:1");
    const child = spawn(this.paths.ffmpegPath, args, { stdio: ["pipe", "pipe", "pipe"] });
    this.child = child;
    child.stdout?.on("data", (pcm: Buffer) => {
      if (!this.done) this.onPcm(pcm);
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      if (this.stderr.length < 8192) this.stderr += chunk;
      // At `-v error` ffmpeg says only what is wrong, as it reads it: a whole line of it is the verdict. Once the
      // input has ended, `end` reports the exit instead, after what was decoded has been recognised.
      if (!this.stopped && this.stderr.includes("\n")) this.fail(this.problem(firstLine(this.stderr)));
    });
    // A write after ffmpeg stopped fails with EPIPE: the exit reports the reason.
    child.stdin?.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      child.on("error", () => resolve(null));
      child.on("close", (code) => resolve(code));
    });
    void this.exited.then((code) => {
      if (code !== 0 && !this.stopped) this.fail(this.problem(this.ffmpegSaid(code)));
    });
    return child;
  }

  private fail(problem: MediaProblem): void {
    if (this.done) return;
    this.done = true;
    this.child?.kill("SIGKILL");
    this.onFailed(problem);
  }

  private ffmpegSaid(code: number | null): string {
    return code === null ? "ffmpeg was not found at the configured path" : firstLine(this.stderr);
  }

  private problem(detail: string): MediaProblem {
    return new MediaProblem(
      `the ${this.encoding} stream could not be decoded (${STREAM_HINTS[this.encoding]})`,
      detail,
    );
  }
}

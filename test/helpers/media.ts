import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A line of speech placed in a recording: what is said, by which espeak-ng voice, from which second. */
export interface Utterance {
  text: string;
  atSeconds: number;
  voice?: string;
}

/**
 * Real media made with Debian's espeak-ng and ffmpeg in a temporary folder: speech at known places on one or
 * several channels, then encoded in the container and codec a test names.
 */
export class MediaKit {
  readonly dir = mkdtempSync(join(tmpdir(), "recap-media-"));
  private count = 0;

  private next(extension: string): string {
    this.count += 1;
    return join(this.dir, `${this.count}.${extension}`);
  }

  /** One channel of speech at 16 kHz lasting `seconds`, each utterance starting at its second. */
  async speech(utterances: Utterance[], seconds: number): Promise<string> {
    const inputs: string[] = [];
    const filters: string[] = [];
    for (const [index, utterance] of utterances.entries()) {
      const wav = this.next("wav");
      await run("espeak-ng", ["-v", utterance.voice ?? "en-us", "-s", "160", "-w", wav, utterance.text]);
      inputs.push("-i", wav);
      const delay = Math.round(utterance.atSeconds * 1000);
      filters.push(`[${index}:a]aresample=16000,adelay=${delay}:all=1[d${index}]`);
    }
    const out = this.next("wav");
    const mix =
      utterances.length === 0
        ? ["-f", "lavfi", "-i", `anullsrc=r=16000:cl=mono`, "-t", String(seconds)]
        : [
            ...inputs,
            "-filter_complex",
            `${filters.join(";")};${utterances.map((_, index) => `[d${index}]`).join("")}amix=inputs=${utterances.length}:normalize=0,apad[out]`,
            "-map",
            "[out]",
            "-t",
            String(seconds),
          ];
    await run("ffmpeg", ["-v", "error", "-y", ...mix, "-ac", "1", "-ar", "16000", out]);
    return out;
  }

  /** Channels (each a mono file) side by side in one file: a call recording, agent left, customer right. */
  async channels(files: string[]): Promise<string> {
    const out = this.next("wav");
    const inputs = files.flatMap((file) => ["-i", file]);
    const labels = files.map((_, index) => `[${index}:a]`).join("");
    await run("ffmpeg", [
      "-v",
      "error",
      "-y",
      ...inputs,
      "-filter_complex",
      `${labels}amerge=inputs=${files.length}[out]`,
      "-map",
      "[out]",
      out,
    ]);
    return out;
  }

  /** The audio in another container and codec: mp3, m4a (AAC), ogg (Opus), webm (Opus), flac, wav. */
  async encode(input: string, format: "mp3" | "m4a" | "ogg" | "webm" | "flac" | "wav"): Promise<string> {
    const codec = {
      mp3: "libmp3lame",
      m4a: "aac",
      ogg: "libopus",
      webm: "libopus",
      flac: "flac",
      wav: "pcm_s16le",
    };
    const out = this.next(format);
    await run("ffmpeg", ["-v", "error", "-y", "-i", input, "-c:a", codec[format], out]);
    return out;
  }

  /** A small H.264 video with the audio as its sound track (or with none). */
  async video(
    audio: string | null,
    seconds: number,
    container: "mp4" | "webm" | "mov" = "mp4",
  ): Promise<string> {
    const out = this.next(container);
    const picture = ["-f", "lavfi", "-i", `testsrc=size=160x120:rate=10:duration=${seconds}`];
    const sound = audio === null ? [] : ["-i", audio];
    const codecs =
      container === "webm"
        ? ["-c:v", "libvpx", "-c:a", "libopus"]
        : ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"];
    await run("ffmpeg", ["-v", "error", "-y", ...picture, ...sound, ...codecs, "-shortest", out]);
    return out;
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * Serves files from a folder for the URL routes, and the ways a URL goes wrong: `/redirect?to=`, `/slow` (a
 * kilobyte, then never the rest) and `/stall` (the headers, then nothing: each such request is counted).
 */
export class MediaHost {
  private readonly server: Server;
  readonly files = new Map<string, string>();
  /** Requests of `/stall` received so far. */
  stalled = 0;
  constructor() {
    this.server = createServer((request, response) => {
      const path = request.url ?? "/";
      if (path.startsWith("/redirect?to=")) {
        response.writeHead(302, { location: decodeURIComponent(path.slice("/redirect?to=".length)) }).end();
        return;
      }
      if (path === "/slow") {
        response.writeHead(200, { "content-type": "audio/mpeg" });
        response.write(Buffer.alloc(1024));
        return;
      }
      if (path === "/stall") {
        this.stalled += 1;
        response.writeHead(200, { "content-type": "audio/mpeg" });
        response.flushHeaders();
        return;
      }
      const file = this.files.get(path);
      if (!file) return void response.writeHead(404).end();
      response.writeHead(200, { "content-type": "application/octet-stream" }).end(readFileSync(file));
    });
  }
  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }
  url(path: string, host = "127.0.0.1"): string {
    return `http://${host}:${(this.server.address() as AddressInfo).port}${path}`;
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FastifyBaseLogger } from "fastify";
import type { MediaSettings } from "../../config.ts";
import { DomainError, invalid, unprocessable } from "../../errors.ts";
import { SAMPLE_RATE } from "../../media/engine.ts";
import { decodeToWav, probe, type ProbedMedia } from "../../media/ffmpeg.ts";
import { MediaProblem } from "../../media/problems.ts";
import type { Speech } from "../../media/speech.ts";
import { readWavSpans } from "../../media/wav.ts";
import type { Accepted, IngestionService } from "../ingestion/ingestion.service.ts";
import type { JobsRepository } from "../jobs/jobs.repository.ts";
import type { WebhookTargets } from "../jobs/webhook-targets.ts";
import type { MediaRepository } from "./media.repository.ts";
import { checkChannels, optionsOf, optionsOfQuery, type MediaOptions } from "./media-options.ts";
import type { MediaFileQuery, MediaUrlBody } from "./media.schemas.ts";

export type MediaKind = "audio" | "video";

/** A stretch of a conversation's media time, in milliseconds from its start. */
export interface MediaSpan {
  startMs: number;
  endMs: number;
}

/** One of a conversation's recordings as a page plays it: a stored upload or a URL, placed in media time. */
export type PlayableRecording = ({ file: string; contentType: string | null } | { url: string }) & {
  kind: MediaKind;
  offsetMs: number;
  durationMs: number | null;
};

/**
 * Recorded audio and video (docs/MEDIA.md): takes submissions (an upload streamed to disk and probed, or a
 * URL checked and fetched later, by the job: media-job.ts), and finds a conversation's stored recordings.
 */
export class MediaService {
  constructor(
    private readonly deps: {
      settings: MediaSettings;
      speech: Speech;
      media: MediaRepository;
      jobs: JobsRepository;
      ingestion: IngestionService;
      mediaTargets: WebhookTargets;
      logger: FastifyBaseLogger;
    },
  ) {}

  /** The uploads being received and submitted, which stop() waits for. */
  private readonly uploading = new Set<Promise<Accepted>>();

  private get settings(): MediaSettings {
    return this.deps.settings;
  }

  /** The least rate an upload must keep arriving at (RECAP_MEDIA_MIN_UPLOAD_BYTES_PER_SECOND). */
  get minUploadBytesPerSecond(): number {
    return this.settings.minUploadBytesPerSecond;
  }

  /** Throws `unavailable` (503) with how to set an engine up when none is, and for diarization its models. */
  requireEngine(options: { diarization: boolean }): void {
    const status = this.deps.speech.status();
    if (!status.engine) throw new DomainError("unavailable", status.setupHint);
    if (options.diarization && !status.diarization) {
      throw new DomainError("unavailable", status.diarizationHint);
    }
  }

  /**
   * Stores an uploaded file (streamed to disk, at most RECAP_MEDIA_MAX_BYTES), checks that ffmpeg reads audio
   * in it within RECAP_MEDIA_MAX_SECONDS, and submits it. Throws payload_too_large, invalid (not media, no
   * audio, a bad option) or not_found for `conversationId`, leaving nothing stored.
   */
  async submitUpload(
    appId: string,
    body: Readable,
    upload: { contentType: string | null; declaredBytes: number | null; kind: MediaKind },
    query: MediaFileQuery,
    conversationId?: string,
  ): Promise<Accepted> {
    const submission = this.storeUpload(appId, body, upload, query, conversationId);
    this.uploading.add(submission);
    try {
      return await submission;
    } finally {
      this.uploading.delete(submission);
    }
  }

  /**
   * Waits for the uploads being received to end, each removing its partial file: at shutdown their
   * connections are cut (http/shutdown.ts), and the process must not exit before they have cleaned up.
   */
  async stop(): Promise<void> {
    await Promise.allSettled(this.uploading);
  }

  /**
   * Removes, at start, what a process that ended without stopping left under RECAP_MEDIA_DIR: the working
   * folder (`work/<jobId>`) of every job not scheduled or in progress, and every file in `incoming/` untouched
   * for longer than `uploadIdleMs` (another process sharing the folder may be receiving the rest). Returns
   * how many it removed.
   */
  async removeLeftovers(uploadIdleMs: number): Promise<number> {
    const listed = (folder: string) => readdir(folder).catch(() => [] as string[]);
    const incoming = join(this.settings.dir, "incoming");
    const before = Date.now() - uploadIdleMs;
    const idle = [];
    for (const name of await listed(incoming)) {
      const modified = await stat(join(incoming, name)).catch(() => null);
      if (modified !== null && modified.mtimeMs < before) idle.push(join(incoming, name));
    }
    const work = join(this.settings.dir, "work");
    const folders = await listed(work);
    const unfinished = await this.deps.jobs.unfinishedAmong(folders);
    const done = folders.filter((name) => !unfinished.has(name)).map((name) => join(work, name));
    const leftovers = [...idle, ...done];
    await Promise.all(leftovers.map((path) => rm(path, { recursive: true, force: true })));
    return leftovers.length;
  }

  private async storeUpload(
    appId: string,
    body: Readable,
    upload: { contentType: string | null; declaredBytes: number | null; kind: MediaKind },
    query: MediaFileQuery,
    conversationId?: string,
  ): Promise<Accepted> {
    const options = optionsOfQuery(query);
    this.requireEngine({ diarization: options.diarization !== null && options.channels.length === 0 });
    // Refused from its headers, at once: the answer closes the connection, so nothing of the body is read.
    if (upload.declaredBytes !== null && upload.declaredBytes > this.settings.maxBytes) {
      throw tooLarge(this.settings.maxBytes);
    }
    const id = randomUUID();
    const stored = `${id}${extensionOf(upload.contentType)}`;
    const incoming = join(this.settings.dir, "incoming");
    await mkdir(incoming, { recursive: true });
    const partial = join(incoming, stored);
    try {
      const bytes = await this.receive(body, partial);
      if (bytes === 0) throw invalid("the body is empty: send the media file as the request body");
      const probed = await this.probeSubmitted(partial);
      checkChannels(options, probed);
      const uploads = join(this.settings.dir, "uploads");
      await mkdir(uploads, { recursive: true });
      await rename(partial, join(uploads, stored));
      try {
        return await this.deps.ingestion.submit(
          appId,
          {
            name: query.name,
            webhookUrl: query.webhookUrl,
            confidenceThreshold: query.confidenceThreshold,
            languageCode: query.languageCode,
            messages: [],
            media: {
              id,
              kind: upload.kind,
              sourceUrl: null,
              storedFile: stored,
              contentType: upload.contentType,
              bytes,
              durationMs: probed.durationMs,
              options: JSON.stringify(options),
            },
          },
          conversationId,
        );
      } catch (error) {
        await rm(join(uploads, stored), { force: true });
        throw error;
      }
    } finally {
      await rm(partial, { force: true });
    }
  }

  /** Submits a media URL, fetched by the job; throws invalid for a URL Recap will not fetch or a bad option. */
  async submitUrl(
    appId: string,
    body: MediaUrlBody,
    kind: MediaKind,
    conversationId?: string,
  ): Promise<Accepted> {
    const options = optionsOf(body);
    this.requireEngine({ diarization: options.diarization !== null && options.channels.length === 0 });
    await this.deps.mediaTargets.check(body.url);
    return this.deps.ingestion.submit(
      appId,
      {
        name: body.name,
        webhookUrl: body.webhookUrl,
        confidenceThreshold: body.confidenceThreshold,
        languageCode: body.languageCode,
        metadata: body.metadata,
        messages: [],
        media: {
          id: randomUUID(),
          kind,
          sourceUrl: new URL(body.url).href,
          storedFile: null,
          contentType: null,
          bytes: null,
          durationMs: null,
          options: JSON.stringify(options),
        },
      },
      conversationId,
    );
  }

  /** Writes the body to `file`; above the limit, stops writing, reads on a little (drain) and throws 413. */
  private async receive(body: Readable, file: string): Promise<number> {
    let bytes = 0;
    const limit = this.settings.maxBytes;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > limit ? tooLarge(limit) : null, chunk);
      },
    });
    // The request is piped, not put in the pipeline, so a refusal leaves it open to drain and answer.
    const written = pipeline(counted, createWriteStream(file));
    body.on("close", () => {
      if (!body.readableEnded) counted.destroy(new Error("aborted"));
    });
    body.pipe(counted);
    try {
      await written;
    } catch (error) {
      body.unpipe(counted);
      if (error instanceof DomainError) {
        await drain(body);
        throw error;
      }
      throw invalid("the upload ended before the whole file arrived");
    }
    return bytes;
  }

  private async probeSubmitted(file: string): Promise<ProbedMedia> {
    let probed: ProbedMedia;
    try {
      probed = await probe(this.settings, file);
    } catch (error) {
      if (!(error instanceof MediaProblem)) throw error;
      this.deps.logger.info({ detail: error.detail }, `an upload was refused: ${error.message}`);
      throw invalid(`body: ${error.message}`);
    }
    if (probed.channels === 0) throw invalid("body: the file has no audio stream");
    if (probed.durationMs !== null && probed.durationMs > this.settings.maxSeconds * 1000) {
      throw new DomainError(
        "payload_too_large",
        `the media is ${Math.round(probed.durationMs / 1000)} seconds long; the limit is ${this.settings.maxSeconds} (RECAP_MEDIA_MAX_SECONDS)`,
      );
    }
    return probed;
  }

  /** The stored uploads of a conversation, to remove once its rows are deleted. */
  async release(conversationId: string): Promise<() => Promise<void>> {
    const files = (await this.deps.media.listOfConversation(conversationId)).flatMap((row) =>
      row.stored_file === null ? [] : [join(this.settings.dir, "uploads", row.stored_file)],
    );
    return async () => {
      await Promise.all(files.map((file) => unlink(file).catch(() => undefined)));
    };
  }

  /**
   * One speaker's speech: the samples (16 kHz mono) of the conversation's stored uploads within `spans` (media
   * time, in order), at most `maxSeconds` of them, decoded into a working folder removed before it answers; of a
   * recording whose channelMetadata named the speaker, that channel alone. Throws unprocessable when the
   * conversation has no recording (made from text) or the recording holding the spans was a URL (not kept) or is
   * gone, conflict while one of its media jobs has not finished.
   */
  async speechOf(
    conversationId: string,
    spans: readonly MediaSpan[],
    speaker: { name: string; email: string | null },
    maxSeconds: number,
  ): Promise<Float32Array> {
    const rows = await this.deps.media.listOfConversation(conversationId);
    if (rows.length === 0) {
      throw unprocessable(
        `conversation ${conversationId} has no stored recording (it was made from text, or streamed live, whose ` +
          "audio Recap does not keep): a voice is enrolled from a conversation made from audio or video",
      );
    }
    if ((await this.deps.jobs.unfinishedAmong(rows.map((row) => row.job_id))).size > 0) {
      throw new DomainError(
        "conflict",
        `conversation ${conversationId} is still being transcribed: enrol the voice once its job has completed`,
      );
    }
    const maxSamples = Math.round(maxSeconds * SAMPLE_RATE);
    const parts: Float32Array[] = [];
    let total = 0;
    for (const row of rows) {
      const end = row.offset_ms + (row.duration_ms ?? Number.POSITIVE_INFINITY);
      const within = spans
        .filter((span) => span.endMs > row.offset_ms && span.startMs < end)
        .map((span) => ({
          startMs: Math.max(span.startMs, row.offset_ms) - row.offset_ms,
          endMs: Math.min(span.endMs, end) - row.offset_ms,
        }));
      if (within.length === 0 || total >= maxSamples) continue;
      const file = row.stored_file === null ? null : join(this.settings.dir, "uploads", row.stored_file);
      if (file === null || !(await stat(file).catch(() => null))) {
        throw unprocessable(
          `conversation ${conversationId}'s recording ${row.stored_file === null ? "was fetched from a URL, which Recap does not keep" : "is no longer stored"}: ` +
            "a voice is enrolled from an uploaded recording",
        );
      }
      const samples = await this.decodeSpans(file, within, {
        channel: channelOf(JSON.parse(row.options) as MediaOptions, speaker),
        maxSamples: maxSamples - total,
      });
      parts.push(samples);
      total += samples.length;
    }
    const speech = new Float32Array(total);
    let at = 0;
    for (const part of parts) {
      speech.set(part, at);
      at += part.length;
    }
    return speech;
  }

  /** Decodes a stored upload (one channel, or the mix) into a working folder of its own and cuts the spans. */
  private async decodeSpans(
    file: string,
    spans: MediaSpan[],
    options: { channel: number | null; maxSamples: number },
  ): Promise<Float32Array> {
    const work = join(this.settings.dir, "work", `voice-${randomUUID()}`);
    await mkdir(work, { recursive: true });
    try {
      const probed = await probe(this.settings, file);
      const [wav = ""] = await decodeToWav(this.settings, file, work, {
        format: probed.format,
        channels: options.channel === null ? null : [options.channel],
        maxSeconds: this.settings.maxSeconds,
        // Nothing stops an enrolment once begun: decodeToWav's own deadline bounds it.
        signal: new AbortController().signal,
      });
      return await readWavSpans(wav, spans, options.maxSamples);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /**
   * The conversation's recordings in media time, first to last: each one's stored upload (path and type) or URL,
   * where it starts in the conversation and how long it is. An append is listed once its job has placed it
   * (given it an offset, with its lines); a stored file that is gone is left out.
   */
  async recordingsOf(conversationId: string): Promise<PlayableRecording[]> {
    const rows = await this.deps.media.listOfConversation(conversationId);
    // An appended recording's offset is 0 until its job places it after the ones before (media-job.ts, addLines).
    const placed = rows.filter((row, index) => index === 0 || row.offset_ms > 0);
    const recordings = await Promise.all(
      placed.map(async (row): Promise<PlayableRecording | null> => {
        const timing = {
          kind: row.kind === "video" ? ("video" as const) : ("audio" as const),
          offsetMs: row.offset_ms,
          durationMs: row.duration_ms,
        };
        if (row.stored_file !== null) {
          const file = join(this.settings.dir, "uploads", row.stored_file);
          if (!(await stat(file).catch(() => null))) return null;
          return { file, contentType: row.content_type, ...timing };
        }
        return row.source_url === null ? null : { url: row.source_url, ...timing };
      }),
    );
    return recordings.filter((recording) => recording !== null);
  }
}

/** The channel channelMetadata gave the speaker (0-based), matched by e-mail, else by name; null for the mix. */
function channelOf(options: MediaOptions, speaker: { name: string; email: string | null }): number | null {
  const email = speaker.email?.toLowerCase();
  const entry =
    options.channels.find((channel) => email !== undefined && channel.email?.toLowerCase() === email) ??
    options.channels.find((channel) => channel.name === speaker.name);
  return entry === undefined ? null : entry.channel - 1;
}

/** How much of a refused upload is read and discarded, so its client can read the answer before the connection closes. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/** Reads and discards the rest of a refused body, up to DRAIN_BYTES; the answer then closes the connection. */
function drain(body: Readable): Promise<void> {
  if (body.readableEnded || body.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const stop = () => {
      body.off("data", count);
      body.pause();
      resolve();
    };
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_BYTES) stop();
    };
    body.on("data", count);
    body.once("end", stop);
    body.once("error", stop);
    body.resume();
  });
}

function tooLarge(maxBytes: number): DomainError {
  return new DomainError(
    "payload_too_large",
    `the media is larger than the limit of ${maxBytes} bytes (RECAP_MEDIA_MAX_BYTES)`,
  );
}

const EXTENSIONS: Record<string, string> = {
  "audio/wav": ".wav",
  "audio/wave": ".wav",
  "audio/x-wav": ".wav",
  "audio/mpeg": ".mp3",
  "audio/mp3": ".mp3",
  "audio/mp4": ".m4a",
  "audio/m4a": ".m4a",
  "audio/x-m4a": ".m4a",
  "audio/aac": ".aac",
  "audio/ogg": ".ogg",
  "audio/opus": ".opus",
  "audio/webm": ".weba",
  "audio/flac": ".flac",
  "audio/x-flac": ".flac",
  "video/mp4": ".mp4",
  "video/webm": ".webm",
  "video/quicktime": ".mov",
  "video/x-matroska": ".mkv",
};

function extensionOf(contentType: string | null): string {
  return (contentType && EXTENSIONS[contentType]) || "";
}

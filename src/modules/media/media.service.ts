import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FastifyBaseLogger } from "fastify";
import { Value } from "typebox/value";
import type { Clock } from "../../clock.ts";
import type { MediaSettings } from "../../config.ts";
import type { JobRow, MediaRow } from "../../db/schema.ts";
import type { Transaction } from "../../db/transaction.ts";
import { DomainError, invalid } from "../../errors.ts";
import { numericId } from "../../ids.ts";
import { alignLines, storedWords, type ChannelTranscript } from "../../media/align.ts";
import type { RecognizedSegment, SpeakerTurn } from "../../media/engine.ts";
import { decodeToWav, probe, type ProbedMedia } from "../../media/ffmpeg.ts";
import { fetchMedia } from "../../media/fetch-media.ts";
import { MediaProblem } from "../../media/problems.ts";
import type { Speech } from "../../media/speech.ts";
import { readWavSamples, wavDurationMs } from "../../media/wav.ts";
import type { TranscriptionMetrics } from "../../metrics/metrics.ts";
import type { ConversationsRepository } from "../conversations/conversations.repository.ts";
import type { Accepted, IngestionService } from "../ingestion/ingestion.service.ts";
import type { JobsRepository } from "../jobs/jobs.repository.ts";
import type { WebhookTargets } from "../jobs/webhook-targets.ts";
import type { MediaRepository } from "./media.repository.ts";
import { ChannelMetadata, type MediaFileQuery, type MediaUrlBody } from "./media.schemas.ts";

export type MediaKind = "audio" | "video";

/** What a submission asked of recognition, as kept with the media (JSON in `media.options`). */
export interface MediaOptions {
  languageCode: string | null;
  vocabulary: string[];
  /** Speaker diarization, with the number of speakers when the caller knew it; null when not asked. */
  diarization: { speakerCount: number | null } | null;
  /** One speaker per listed channel (1-based); empty: every channel mixed into one. */
  channels: { channel: number; name: string; email: string | null }[];
}

/** The shares of a media job's progress each step reports into. */
const PROGRESS = { fetched: 0.1, decoded: 0.15, recognised: 0.85, diarized: 0.95 };

/** How often a job's progress is written at most. */
const PROGRESS_EVERY_MS = 2000;

/**
 * Recorded audio and video (docs/MEDIA.md): takes submissions (an upload streamed to disk and probed, or a
 * URL checked and fetched later), and runs the media part of their jobs: fetch, probe and decode, recognise,
 * diarise, align, then hand the lines to the conversation as messages. Each step's result is kept with the
 * media row, so a job taken up again resumes at the step it had reached.
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
      transaction: Transaction<{ media: MediaRepository; conversations: ConversationsRepository }>;
      clock: Clock;
      logger: FastifyBaseLogger;
      metrics: TranscriptionMetrics;
    },
  ) {}

  private get settings(): MediaSettings {
    return this.deps.settings;
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
    const options = optionsOfQuery(query);
    this.requireEngine({ diarization: options.diarization !== null && options.channels.length === 0 });
    if (upload.declaredBytes !== null && upload.declaredBytes > this.settings.maxBytes) {
      await drain(body);
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
          sourceUrl: body.url,
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
      if (error instanceof MediaProblem) throw invalid(`body: ${error.message}`);
      throw error;
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

  /**
   * The media part of a job: nothing for a text job; for a media job, its file's lines added to the
   * conversation as the job's messages (the analysis then runs as for text). Throws MediaProblem (the job
   * fails with its message) or, when `signal` aborts, the abort, with ffmpeg and the engine stopped.
   */
  async transcribeForJob(job: JobRow, signal: AbortSignal): Promise<void> {
    const media = await this.deps.media.findByJob(job.id);
    if (!media || job.kind !== "media") return;
    const work = join(this.settings.dir, "work", job.id);
    await mkdir(work, { recursive: true });
    const progress = this.progressOf(job);
    try {
      const options = JSON.parse(media.options) as MediaOptions;
      let wavs: string[] | null = null;
      const decoded = async () => (wavs ??= await this.decode(media, options, work, signal, progress));
      let channels = media.segments === null ? null : (JSON.parse(media.segments) as RecognizedSegment[][]);
      if (channels === null) {
        channels = await this.recognise(await decoded(), options, signal, progress);
        const durationMs = await wavDurationMs((await decoded())[0] ?? "");
        await this.deps.media.update(media.id, {
          segments: JSON.stringify(channels),
          duration_ms: durationMs,
        });
        media.duration_ms = durationMs;
      }
      let turns = media.turns === null ? null : (JSON.parse(media.turns) as SpeakerTurn[]);
      if (turns === null && options.diarization !== null && options.channels.length === 0) {
        turns = await this.diarize(media, options, (await decoded())[0] ?? "", signal, progress);
      }
      await this.addLines(job, media, options, channels, turns);
    } finally {
      await progress.flush();
      if (!signal.aborted) await rm(work, { recursive: true, force: true });
    }
  }

  /** Writes the job's progress at most every two seconds, and always the last figure on flush. */
  private progressOf(job: JobRow) {
    let last = 0;
    let pending: number | null = null;
    const write = async (value: number) => {
      pending = null;
      last = Date.now();
      await this.deps.jobs.setProgress(job, value).catch(() => undefined);
    };
    return {
      report: (value: number) => {
        if (Date.now() - last >= PROGRESS_EVERY_MS) void write(value);
        else pending = value;
      },
      flush: async () => {
        if (pending !== null) await write(pending);
      },
    };
  }

  private async decode(
    media: MediaRow,
    options: MediaOptions,
    work: string,
    signal: AbortSignal,
    progress: { report(value: number): void },
  ): Promise<string[]> {
    let input: string;
    if (media.stored_file !== null) input = join(this.settings.dir, "uploads", media.stored_file);
    else {
      input = join(work, "source");
      await fetchMedia(media.source_url ?? "", input, {
        guard: this.deps.mediaTargets,
        maxBytes: this.settings.maxBytes,
        timeoutMs: this.settings.fetchTimeoutSeconds * 1000,
        signal,
        onBytes: (received, expected) =>
          expected !== null && progress.report((received / expected) * PROGRESS.fetched),
      });
    }
    const probed = await probe(this.settings, input, signal);
    if (probed.channels === 0) throw new MediaProblem("the media has no audio stream");
    if (probed.durationMs !== null && probed.durationMs > this.settings.maxSeconds * 1000) {
      throw new MediaProblem(
        `the media is ${Math.round(probed.durationMs / 1000)} seconds long; the limit is ${this.settings.maxSeconds} (RECAP_MEDIA_MAX_SECONDS)`,
      );
    }
    checkChannels(options, probed, (message) => new MediaProblem(message));
    const wavs = await decodeToWav(this.settings, input, work, {
      channels: options.channels.length === 0 ? null : options.channels.map((entry) => entry.channel - 1),
      maxSeconds: this.settings.maxSeconds,
      signal,
    });
    progress.report(PROGRESS.decoded);
    return wavs;
  }

  private async recognise(
    wavs: string[],
    options: MediaOptions,
    signal: AbortSignal,
    progress: { report(value: number): void },
  ): Promise<RecognizedSegment[][]> {
    const engine = await this.deps.speech.engine();
    const channels: RecognizedSegment[][] = [];
    const total = (await Promise.all(wavs.map((wav) => wavDurationMs(wav)))).reduce((a, b) => a + b, 0);
    // Timed from a loaded engine: the real-time factor is the recognition's, not the model's first load.
    const started = performance.now();
    let done = 0;
    for (const wav of wavs) {
      const length = await wavDurationMs(wav);
      const span = PROGRESS.recognised - PROGRESS.decoded;
      channels.push(
        await engine.transcribe(readWavSamples(wav), {
          ...(options.languageCode !== null && { languageCode: options.languageCode }),
          vocabulary: options.vocabulary,
          signal,
          onProgress: (ms) => progress.report(PROGRESS.decoded + (span * (done + ms)) / Math.max(total, 1)),
        }),
      );
      done += length;
    }
    this.deps.metrics.transcribed(total / 1000, (performance.now() - started) / 1000);
    return channels;
  }

  /** Diarization is its own step: when it fails the transcript is kept, with one unnamed speaker. */
  private async diarize(
    media: MediaRow,
    options: MediaOptions,
    wav: string,
    signal: AbortSignal,
    progress: { report(value: number): void },
  ): Promise<SpeakerTurn[]> {
    const diarizer = await this.deps.speech.diarizer();
    if (!diarizer) return [];
    let turns: SpeakerTurn[] = [];
    let failure: string | null = null;
    try {
      turns = await diarizer.diarize(wav, {
        ...(options.diarization?.speakerCount != null && { speakerCount: options.diarization.speakerCount }),
        signal,
        onProgress: (fraction) =>
          progress.report(PROGRESS.recognised + (PROGRESS.diarized - PROGRESS.recognised) * fraction),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      failure = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn({ mediaId: media.id, err: error }, "diarization failed; the transcript is kept");
    }
    await this.deps.media.update(media.id, { turns: JSON.stringify(turns), diarization_error: failure });
    return turns;
  }

  /**
   * Adds the aligned lines as the job's messages, after the media before it in the conversation (its media
   * time continues theirs), once: a job taken up again after this step finds its messages there.
   */
  private async addLines(
    job: JobRow,
    media: MediaRow,
    options: MediaOptions,
    channels: RecognizedSegment[][],
    turns: SpeakerTurn[] | null,
  ): Promise<void> {
    const speakers = options.channels.map((entry) => ({ name: entry.name, email: entry.email }));
    const transcripts: ChannelTranscript[] = channels.map((segments, index) => ({
      segments,
      speaker: speakers[index] ?? null,
    }));
    const lines = alignLines(transcripts, turns);
    if (lines.length === 0) throw new MediaProblem("no speech was recognised in the media");
    await this.deps.transaction(async ({ conversations, media: mediaRows }) => {
      const conversation = await conversations.lockForWrite(job.conversation_id);
      if (!conversation) return;
      if ((await conversations.listMessagesOfJob(job.id)).length > 0) return;
      const earlier = (await mediaRows.listOfConversation(job.conversation_id)).filter(
        (row) =>
          row.created_at < media.created_at || (row.created_at === media.created_at && row.id < media.id),
      );
      const start = Date.parse(conversation.start_time);
      const lastEnd = conversation.end_time === null ? 0 : Date.parse(conversation.end_time) - start;
      const offsetMs = Math.max(lastEnd, ...earlier.map((row) => row.offset_ms + (row.duration_ms ?? 0)));
      await mediaRows.update(media.id, { offset_ms: offsetMs });
      const first = await conversations.nextMessagePosition(job.conversation_id);
      const at = (ms: number) => new Date(start + offsetMs + ms).toISOString();
      await conversations.insertMessages(
        lines.map((line, index) => ({
          id: numericId(),
          conversation_id: job.conversation_id,
          job_id: job.id,
          position: first + index,
          text: line.text,
          from_name: line.speaker?.name ?? null,
          from_user_id: null,
          from_email: line.speaker?.email ?? null,
          member_id: null,
          start_time: at(line.startMs),
          end_time: at(line.endMs),
          hidden: 0,
          words: storedWords(line),
        })),
      );
    });
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

  /** The conversation's first media: its stored upload's path and type, or its URL; null when it has none. */
  async playableOf(
    conversationId: string,
  ): Promise<
    { file: string; contentType: string | null; kind: MediaKind } | { url: string; kind: MediaKind } | null
  > {
    const [first] = await this.deps.media.listOfConversation(conversationId);
    if (!first) return null;
    const kind = first.kind === "video" ? "video" : "audio";
    if (first.stored_file !== null) {
      const file = join(this.settings.dir, "uploads", first.stored_file);
      if (!(await stat(file).catch(() => null))) return null;
      return { file, contentType: first.content_type, kind };
    }
    return first.source_url === null ? null : { url: first.source_url, kind };
  }
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

/** Every channel metadata entry must name a channel the file has; throws invalid (or `problem`) if not. */
function checkChannels(
  options: MediaOptions,
  probed: ProbedMedia,
  problem: (message: string) => Error = (message) => invalid(message),
): void {
  for (const [index, entry] of options.channels.entries()) {
    if (entry.channel > probed.channels) {
      throw problem(
        `channelMetadata[${index}].channel is ${entry.channel} but the audio has ${probed.channels} channel${probed.channels === 1 ? "" : "s"}`,
      );
    }
  }
}

/** The options of a URL submission's body, checked; throws invalid naming the field. */
export function optionsOf(body: {
  languageCode?: string | undefined;
  customVocabulary?: string[] | undefined;
  enableSpeakerDiarization?: boolean | undefined;
  diarizationSpeakerCount?: number | undefined;
  channelMetadata?: ChannelMetadata | undefined;
}): MediaOptions {
  const channels = (body.channelMetadata ?? []).map((entry, index) => ({
    channel: entry.channel,
    name: entry.speaker.name?.trim() || entry.speaker.email?.trim() || `Channel ${entry.channel}`,
    email: entry.speaker.email?.trim() || null,
    index,
  }));
  const seen = new Set<number>();
  for (const entry of channels) {
    if (seen.has(entry.channel)) {
      throw invalid(`channelMetadata[${entry.index}].channel ${entry.channel} is listed twice`);
    }
    seen.add(entry.channel);
  }
  if (body.diarizationSpeakerCount !== undefined && body.enableSpeakerDiarization !== true) {
    throw invalid("diarizationSpeakerCount needs enableSpeakerDiarization=true");
  }
  return {
    languageCode: body.languageCode ?? null,
    vocabulary: body.customVocabulary ?? [],
    diarization:
      body.enableSpeakerDiarization === true ? { speakerCount: body.diarizationSpeakerCount ?? null } : null,
    channels: channels
      .sort((a, b) => a.channel - b.channel)
      .map(({ channel, name, email }) => ({ channel, name, email })),
  };
}

/** The options of an upload's query: lists come repeated or as JSON text. Throws invalid naming the field. */
export function optionsOfQuery(query: MediaFileQuery): MediaOptions {
  let channelMetadata: ChannelMetadata | undefined;
  if (query.channelMetadata !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(query.channelMetadata);
    } catch {
      throw invalid('query.channelMetadata must be JSON: [{"channel":1,"speaker":{"name":"…"}}]');
    }
    if (!Value.Check(ChannelMetadata, parsed)) {
      const first = Value.Errors(ChannelMetadata, parsed)[0];
      throw invalid(
        `query.channelMetadata${first?.instancePath.replaceAll("/", ".") ?? ""} ${first?.message ?? "is invalid"}`,
      );
    }
    channelMetadata = parsed;
  }
  return optionsOf({
    languageCode: query.languageCode,
    customVocabulary: vocabularyOf(query.customVocabulary),
    enableSpeakerDiarization: query.enableSpeakerDiarization,
    diarizationSpeakerCount: query.diarizationSpeakerCount,
    channelMetadata,
  });
}

function vocabularyOf(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const entries = Array.isArray(value) ? value : [value];
  const words = entries.flatMap((entry) => {
    const text = entry.trim();
    if (!text.startsWith("[")) return [text];
    try {
      const parsed = JSON.parse(text) as unknown;
      if (Array.isArray(parsed) && parsed.every((word) => typeof word === "string")) return parsed;
    } catch {
      // Not JSON after all: the entry is one phrase that starts with "[".
    }
    return [text];
  });
  const cleaned = words.map((word) => word.trim()).filter((word) => word !== "");
  if (cleaned.length > 500) throw invalid("query.customVocabulary must have at most 500 entries");
  const long = cleaned.findIndex((word) => word.length > 100);
  if (long >= 0) throw invalid(`query.customVocabulary[${long}] must be at most 100 characters`);
  return cleaned;
}

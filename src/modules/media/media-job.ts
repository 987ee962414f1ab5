import { mkdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { FastifyBaseLogger } from "fastify";
import type { MediaSettings } from "../../config.ts";
import type { JobRow, MediaRow } from "../../db/schema.ts";
import type { Transaction } from "../../db/transaction.ts";
import { numericId } from "../../ids.ts";
import {
  alignLines,
  labelledTurns,
  storedWords,
  type AlignedLine,
  type ChannelSpeaker,
  type ChannelTranscript,
} from "../../media/align.ts";
import type { RecognizedSegment, SpeakerTurn } from "../../media/engine.ts";
import { decodeToWav, probe } from "../../media/ffmpeg.ts";
import { fetchMedia } from "../../media/fetch-media.ts";
import { EngineUnreachable, MediaProblem } from "../../media/problems.ts";
import type { Speech } from "../../media/speech.ts";
import { readWavSamples, readWavSpans, wavDurationMs } from "../../media/wav.ts";
import type { TranscriptionMetrics } from "../../metrics/metrics.ts";
import type { ConversationsRepository } from "../conversations/conversations.repository.ts";
import { resolveSpeakers } from "../conversations/members.ts";
import { JobProblem, ServiceUnreachable } from "../jobs/job-failures.ts";
import type { JobsRepository } from "../jobs/jobs.repository.ts";
import type { WebhookTargets } from "../jobs/webhook-targets.ts";
import type { VoiceMatch } from "../voices/voice-matching.ts";
import type { VoicesService } from "../voices/voices.service.ts";
import type { MediaRepository } from "./media.repository.ts";
import { checkChannels, type MediaOptions } from "./media-options.ts";

/** The shares of a media job's progress each step reports into. */
const PROGRESS = { fetched: 0.1, decoded: 0.15, recognised: 0.85, diarized: 0.95 };

/** How often a job's progress is written at most. */
const PROGRESS_EVERY_MS = 2000;

/** A media file decoded: one 16 kHz WAV per channel transcribed, and the rate its audio was recorded at. */
interface DecodedMedia {
  wavs: string[];
  sampleRate: number;
}

/**
 * The media part of a job (docs/MEDIA.md): fetch, probe and decode, recognise, diarise, align, then hand the
 * lines to the conversation as messages. Each step's result is kept with the media row, so a job taken up
 * again resumes at the step it had reached.
 */
export class MediaJobSteps {
  constructor(
    private readonly deps: {
      settings: MediaSettings;
      speech: Speech;
      voices: Pick<VoicesService, "recogniseSpeakers" | "keepHeardVoices">;
      media: MediaRepository;
      jobs: JobsRepository;
      mediaTargets: WebhookTargets;
      transaction: Transaction<{ media: MediaRepository; conversations: ConversationsRepository }>;
      logger: FastifyBaseLogger;
      metrics: TranscriptionMetrics;
    },
  ) {}

  private get settings(): MediaSettings {
    return this.deps.settings;
  }

  /**
   * The media part of a job: nothing for a text job; for a media job, its file's lines added to the
   * conversation as the job's messages (the analysis then runs as for text). Throws JobProblem for what is
   * wrong with the media (the job fails with its message) or, when `signal` aborts, the abort, with ffmpeg and
   * the engine stopped.
   */
  async transcribeForJob(job: JobRow, signal: AbortSignal): Promise<void> {
    try {
      await this.transcribe(job, signal);
    } catch (error) {
      throw jobErrorOf(error);
    }
  }

  /**
   * A media job's fetch stage, run apart from the transcription slots: its URL's media into the job's working
   * folder, where the transcription finds it. Throws JobProblem for a URL that cannot be fetched, or the abort.
   */
  async fetchForJob(job: JobRow, signal: AbortSignal): Promise<void> {
    const media = await this.deps.media.findByJob(job.id);
    if (!media || media.source_url === null) return;
    const work = join(this.settings.dir, "work", job.id);
    await mkdir(work, { recursive: true });
    const progress = this.progressOf(job);
    try {
      await this.fetchSource(media, work, signal, progress);
    } catch (error) {
      if (!signal.aborted) await rm(work, { recursive: true, force: true });
      throw jobErrorOf(error);
    } finally {
      await progress.flush();
    }
  }

  /**
   * Fetches the media's URL to `source` in the working folder, through a partial file renamed once whole, so
   * a fetch cut short (a process that died) is never taken for the file.
   */
  private async fetchSource(
    media: MediaRow,
    work: string,
    signal: AbortSignal,
    progress: { report(value: number): void },
  ): Promise<void> {
    const source = join(work, "source");
    await fetchMedia(media.source_url ?? "", `${source}.part`, {
      guard: this.deps.mediaTargets,
      maxBytes: this.settings.maxBytes,
      timeoutMs: this.settings.fetchTimeoutSeconds * 1000,
      signal,
      onBytes: (received, expected) =>
        expected !== null && progress.report((received / expected) * PROGRESS.fetched),
    });
    await rename(`${source}.part`, source);
  }

  private async transcribe(job: JobRow, signal: AbortSignal): Promise<void> {
    const media = await this.deps.media.findByJob(job.id);
    if (!media || job.kind !== "media") return;
    const work = join(this.settings.dir, "work", job.id);
    await mkdir(work, { recursive: true });
    const progress = this.progressOf(job);
    let keepWork = false;
    try {
      const options = JSON.parse(media.options) as MediaOptions;
      let decoding: DecodedMedia | null = null;
      const decoded = async () => (decoding ??= await this.decode(media, options, work, signal, progress));
      let channels = media.segments === null ? null : (JSON.parse(media.segments) as RecognizedSegment[][]);
      if (channels === null) {
        channels = await this.recognise(await decoded(), options, signal, progress);
        const durationMs = await wavDurationMs((await decoded()).wavs[0] ?? "");
        await this.deps.media.update(media.id, {
          segments: JSON.stringify(channels),
          duration_ms: durationMs,
        });
        media.duration_ms = durationMs;
      }
      let turns = media.turns === null ? null : (JSON.parse(media.turns) as SpeakerTurn[]);
      if (turns === null && options.diarization !== null && options.channels.length === 0) {
        turns = await this.diarize(media, options, (await decoded()).wavs[0] ?? "", signal, progress);
      }
      // One channel's speakers are all in its one WAV; on several channels a speaker is the channel.
      const wavOf = async (speaker: number) =>
        (await decoded()).wavs[options.channels.length === 0 ? 0 : speaker] ?? "";
      const voiceTurns = await this.voiceTurnsOf(job, options, channels, turns);
      const voices =
        voiceTurns.length === 0 ? [] : await this.recogniseVoices(job, media, voiceTurns, wavOf, signal);
      const stored = await this.addLines(job, media, options, channels, turns, voices);
      // A fetched file is not kept: its speakers' voices are kept now, for the owner to save them later.
      if (media.stored_file === null && stored.length > 0) {
        await this.keepVoices(job, media, stored, (line) => wavOf(line.turnSpeaker ?? 0));
      }
    } catch (error) {
      // The runner tries the job again while retries are left (RECAP_ASR_RETRIES): the fetched source stays for it.
      keepWork = error instanceof EngineUnreachable && job.retries < this.settings.asrRetries;
      throw error;
    } finally {
      await progress.flush();
      if (!signal.aborted && !keepWork) await rm(work, { recursive: true, force: true });
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
  ): Promise<DecodedMedia> {
    let input: string;
    if (media.stored_file !== null) input = join(this.settings.dir, "uploads", media.stored_file);
    else {
      input = join(work, "source");
      // The fetch stage left it here; a job scheduled before there was one (migration 020) fetches it now.
      if (!(await stat(input).catch(() => null))) await this.fetchSource(media, work, signal, progress);
    }
    const probed = await probe(this.settings, input, signal).catch((error: unknown) => {
      throw this.logged(media, error);
    });
    if (probed.channels === 0) throw new MediaProblem("the media has no audio stream");
    if (probed.durationMs !== null && probed.durationMs > this.settings.maxSeconds * 1000) {
      throw new MediaProblem(
        `the media is ${Math.round(probed.durationMs / 1000)} seconds long; the limit is ${this.settings.maxSeconds} (RECAP_MEDIA_MAX_SECONDS)`,
      );
    }
    checkChannels(options, probed, (message) => new MediaProblem(message));
    const wavs = await decodeToWav(this.settings, input, work, {
      format: probed.format,
      channels: options.channels.length === 0 ? null : options.channels.map((entry) => entry.channel - 1),
      maxSeconds: this.settings.maxSeconds,
      signal,
    }).catch((error: unknown) => {
      throw this.logged(media, error);
    });
    progress.report(PROGRESS.decoded);
    return { wavs, sampleRate: probed.sampleRate };
  }

  /** Logs what ffmpeg said of a file it refused, which the job's message leaves out; returns the error. */
  private logged(media: MediaRow, error: unknown): unknown {
    if (error instanceof MediaProblem && error.detail !== null) {
      this.deps.logger.info({ mediaId: media.id, detail: error.detail }, `media refused: ${error.message}`);
    }
    return error;
  }

  private async recognise(
    { wavs, sampleRate }: DecodedMedia,
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
          sourceSampleRate: sampleRate,
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
   * The speakers voice matching compares with the app's profiles (docs/VOICES.md, Matching): local diarization's
   * turns; else, on one channel, the engine's own speaker labels (a remote engine's `diarized_json`); else each
   * channel whose speaker `channelMetadata` gave neither a name nor an e-mail ("Channel N"), as one speaker
   * numbered by its channel. None for a job whose lines are
   * stored already (taken up again after that step): its speakers were matched then.
   */
  private async voiceTurnsOf(
    job: JobRow,
    options: MediaOptions,
    channels: RecognizedSegment[][],
    turns: SpeakerTurn[] | null,
  ): Promise<SpeakerTurn[]> {
    const speakers =
      turns !== null && turns.length > 0
        ? turns
        : options.channels.length === 0
          ? labelledTurns(channels[0] ?? [])
          : channels.flatMap((segments, channel) =>
              options.channels[channel]?.unnamed
                ? segments.map(({ startMs, endMs }) => ({ speaker: channel, startMs, endMs }))
                : [],
            );
    if (speakers.length === 0) return [];
    const stored = await this.deps.transaction(({ conversations }) => conversations.hasMessagesOfJob(job.id));
    return stored ? [] : speakers;
  }

  /**
   * Keeps each speaker's voice of a recording Recap does not keep (fetched from a URL), when the app keeps voices
   * (docs/VOICES.md, Enrolment): the speaker's lines read from the WAV `wavOf` the line. A failure is logged; the
   * job does not depend on it.
   */
  private async keepVoices(
    job: JobRow,
    media: MediaRow,
    lines: AlignedLine[],
    wavOf: (line: AlignedLine) => Promise<string>,
  ): Promise<void> {
    const speakers = new Map<string, { speaker: ChannelSpeaker; first: AlignedLine; lines: AlignedLine[] }>();
    for (const line of lines) {
      if (line.speaker === null) continue;
      const key = `${line.speaker.email ?? ""} ${line.speaker.name}`;
      const entry = speakers.get(key) ?? { speaker: line.speaker, first: line, lines: [] };
      entry.lines.push(line);
      speakers.set(key, entry);
    }
    try {
      await this.deps.voices.keepHeardVoices(
        job.app_id,
        job.conversation_id,
        [...speakers.values()].map(({ speaker, first, lines: own }) => ({
          speaker,
          read: async (maxSamples: number) =>
            readWavSpans(
              await wavOf(first),
              own.map(({ startMs, endMs }) => ({ startMs, endMs })),
              maxSamples,
            ),
        })),
      );
    } catch (error) {
      this.deps.logger.warn({ mediaId: media.id, err: error }, "the speakers' voices were not kept");
    }
  }

  /**
   * The app's voice profiles matched with the recording's speakers (docs/VOICES.md, Matching), each read from
   * the WAV `wavOf` its speaker number. A failure is logged and the speakers stay "Speaker N": the transcript does
   * not depend on it.
   */
  private async recogniseVoices(
    job: JobRow,
    media: MediaRow,
    turns: SpeakerTurn[],
    wavOf: (speaker: number) => Promise<string>,
    signal: AbortSignal,
  ): Promise<VoiceMatch[]> {
    try {
      return await this.deps.voices.recogniseSpeakers(job.app_id, turns, async (speaker, spans, maxSamples) =>
        readWavSpans(await wavOf(speaker), spans, maxSamples),
      );
    } catch (error) {
      if (signal.aborted) throw error;
      this.deps.logger.warn(
        { mediaId: media.id, err: error },
        "voice matching failed; speakers stay unnamed",
      );
      return [];
    }
  }

  /**
   * Adds the aligned lines as the job's messages, after the media before it in the conversation (its media
   * time continues theirs), once: a job taken up again after this step finds its messages there. Answers the
   * lines stored, none when they were stored already.
   */
  private async addLines(
    job: JobRow,
    media: MediaRow,
    options: MediaOptions,
    channels: RecognizedSegment[][],
    turns: SpeakerTurn[] | null,
    voices: VoiceMatch[],
  ): Promise<AlignedLine[]> {
    const speakers = options.channels.map((entry) => ({ name: entry.name, email: entry.email }));
    const transcripts: ChannelTranscript[] = channels.map((segments, index) => ({
      segments,
      speaker: speakers[index] ?? null,
    }));
    const voiceOf = new Map(voices.map((match) => [match.speaker, match]));
    // A confident match names the speaker's lines; a suggestion leaves them to "Speaker N".
    const aligned = alignLines(transcripts, turns);
    const lines = aligned.map((line) => {
      const match = line.turnSpeaker === undefined ? undefined : voiceOf.get(line.turnSpeaker);
      return match?.confident
        ? { ...line, speaker: { name: match.profile.name, email: match.profile.email } }
        : line;
    });
    if (lines.length === 0) throw new MediaProblem("no speech was recognised in the media");
    return this.deps.transaction(async ({ conversations, media: mediaRows }) => {
      const conversation = await conversations.lockForWrite(job.conversation_id);
      if (!conversation) return [];
      if (await conversations.hasMessagesOfJob(job.id)) return [];
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
      if (voices.length > 0) await this.markVoices(conversations, job, aligned, voices);
      return lines;
    });
  }

  /**
   * Gives the job's lines their members now (members.ts), so that each matched speaker's member keeps the voice
   * that named it, or the one it suggests.
   */
  private async markVoices(
    conversations: ConversationsRepository,
    job: JobRow,
    lines: { turnSpeaker?: number; speaker: { name: string } | null }[],
    voices: VoiceMatch[],
  ): Promise<void> {
    await resolveSpeakers(conversations, job.conversation_id, await conversations.listMessagesOfJob(job.id));
    const stored = await conversations.listMessagesOfJob(job.id);
    for (const match of voices) {
      const first = lines.findIndex((line) => line.turnSpeaker === match.speaker);
      const memberId = stored[first]?.member_id;
      if (!memberId) continue;
      const score = Math.round(match.score * 1000) / 1000;
      await conversations.updateMember(
        memberId,
        match.confident
          ? {
              voice_id: match.profile.id,
              voice_score: score,
              diarized_name: lines[first]?.speaker?.name ?? `Speaker ${match.speaker + 1}`,
              suggested_voice_id: null,
              suggested_voice_name: null,
              suggested_voice_score: null,
            }
          : {
              suggested_voice_id: match.profile.id,
              suggested_voice_name: match.profile.name,
              suggested_voice_score: score,
            },
      );
    }
  }
}

/** A media error as the job runner reads it: the media's problem, or an engine to try again later. */
function jobErrorOf(error: unknown): unknown {
  if (error instanceof MediaProblem) return new JobProblem(error.message, { cause: error });
  if (error instanceof EngineUnreachable) return new ServiceUnreachable(error.message, { cause: error });
  return error;
}

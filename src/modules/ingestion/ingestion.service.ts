import type { Clock } from "../../clock.ts";
import type { Transaction } from "../../db/transaction.ts";
import { invalid, notFound } from "../../errors.ts";
import { numericId, uuid } from "../../ids.ts";
import type { ConversationsRepository } from "../conversations/conversations.repository.ts";
import type { JobsService, JobWrites } from "../jobs/jobs.service.ts";
import type { MediaRepository } from "../media/media.repository.ts";
import type { WebhookTargets } from "../jobs/webhook-targets.ts";
import type { ProcessTextBody } from "./ingestion.schemas.ts";
import type { TranscriptCue } from "./transcript.ts";

export interface IncomingMessage {
  text: string;
  fromName: string | null;
  fromUserId: string | null;
  fromEmail: string | null;
  startTime: string | null;
  endTime: string | null;
}

/** A media file the submission's job transcribes first (the media module's row, docs/MEDIA.md). */
export interface MediaAttachment {
  id: string;
  kind: "audio" | "video";
  sourceUrl: string | null;
  storedFile: string | null;
  contentType: string | null;
  bytes: number | null;
  durationMs: number | null;
  /** The recognition options, as JSON. */
  options: string;
}

export interface Submission {
  name?: string | undefined;
  /**
   * When a new conversation starts, if not at its earliest message: for an imported transcript, media
   * position 0 (the moment of the import), so a message's timeOffset is its cue's position in the media.
   */
  startTime?: string | undefined;
  messages: IncomingMessage[];
  confidenceThreshold?: number | undefined;
  webhookUrl?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** The language the submitter named (BCP-47); the analysis takes it instead of detecting one. */
  languageCode?: string | undefined;
  /** Media to transcribe: the job is then a media job, and its messages come from the file. */
  media?: MediaAttachment | undefined;
}

export interface Accepted {
  conversationId: string;
  jobId: string;
}

/** Maps the Symbl `process/text` body to a submission; throws `invalid` naming a bad message field. */
export function submissionFromText(body: ProcessTextBody): Submission {
  return {
    name: body.name,
    confidenceThreshold: body.confidenceThreshold,
    webhookUrl: body.webhookUrl,
    metadata: body.metadata,
    messages: body.messages.map((message, index) => {
      const start = message.duration?.startTime ?? null;
      const end = message.duration?.endTime ?? null;
      if (start !== null && end !== null && Date.parse(end) < Date.parse(start)) {
        throw invalid(`messages[${index}].duration.endTime must not be before startTime`);
      }
      return {
        text: message.payload.content,
        fromName: message.from?.name?.trim() || null,
        fromUserId: message.from?.userId?.trim() || null,
        fromEmail: message.from?.email?.trim() || null,
        startTime: start === null ? null : new Date(start).toISOString(),
        endTime: end === null ? null : new Date(end).toISOString(),
      };
    }),
  };
}

/**
 * Maps parsed transcript cues to a submission whose conversation starts at `start`, which stands for media
 * position 0: each message starts at `start` plus its cue's position, so the first cue at 00:01:00 is one
 * minute in, not the conversation's start.
 */
function submissionFromTranscript(
  cues: TranscriptCue[],
  start: Date,
  options: { name?: string | undefined; webhookUrl?: string | undefined },
): Submission {
  return {
    name: options.name,
    startTime: start.toISOString(),
    webhookUrl: options.webhookUrl,
    messages: cues.map((cue) => ({
      text: cue.text,
      fromName: cue.speaker,
      fromUserId: null,
      fromEmail: null,
      startTime: new Date(start.getTime() + cue.startMs).toISOString(),
      endTime: new Date(start.getTime() + cue.endMs).toISOString(),
    })),
  };
}

/** Stores submissions durably and schedules the job that processes them. */
export class IngestionService {
  constructor(
    private readonly transaction: Transaction<
      { conversations: ConversationsRepository; media: MediaRepository } & JobWrites
    >,
    private readonly clock: Clock,
    private readonly jobs: Pick<JobsService, "schedule" | "scheduleUnlessWaiting" | "scheduled">,
    private readonly webhookTargets: WebhookTargets,
  ) {}

  /**
   * Creates a conversation (or appends to `conversationId`) with the submission's messages, a scheduled
   * job and its first webhook event, in one transaction. Throws not_found for a conversation the app
   * cannot see, invalid for a webhookUrl Recap will not call.
   */
  submit(appId: string, submission: Submission, conversationId?: string): Promise<Accepted> {
    return this.store(appId, submission, this.clock.now(), conversationId);
  }

  /**
   * Creates a conversation from a transcript file's cues, as `submit` does. A WebVTT or SRT file gives
   * positions in the media and no date, so the conversation starts at the moment it is stored (its
   * `created_at`), which stands for media position 0; a start equal to the arrival is how the page knows
   * it has no date to show (summary-page.presenter.ts). Throws as `submit`.
   */
  importTranscript(
    appId: string,
    cues: TranscriptCue[],
    options: { name?: string | undefined; webhookUrl?: string | undefined },
  ): Promise<Accepted> {
    const now = this.clock.now();
    return this.store(appId, submissionFromTranscript(cues, now, options), now);
  }

  private async store(
    appId: string,
    submission: Submission,
    arrival: Date,
    conversationId?: string,
  ): Promise<Accepted> {
    if (submission.webhookUrl !== undefined) await this.webhookTargets.check(submission.webhookUrl);
    const now = arrival.toISOString();
    const jobId = uuid();
    const accepted = await this.transaction(async (repos) => {
      const { conversations } = repos;
      let id = conversationId;
      if (id === undefined) {
        id = numericId();
        const startTimes = submission.messages.flatMap((m) => (m.startTime ? [m.startTime] : [])).sort();
        await conversations.insert({
          id,
          app_id: appId,
          name: submission.name?.trim() || "Untitled conversation",
          start_time: submission.startTime ?? startTimes[0] ?? now,
          end_time: null,
          metadata: JSON.stringify(submission.metadata ?? {}),
          confidence_threshold: submission.confidenceThreshold ?? null,
          language_given: submission.languageCode ?? null,
          created_at: now,
          updated_at: now,
        });
      } else {
        const existing = await conversations.lockForWrite(id, appId);
        if (!existing) throw notFound("conversation");
        await conversations.update(id, {
          updated_at: now,
          ...(submission.name?.trim() && { name: submission.name.trim() }),
          ...(submission.confidenceThreshold !== undefined && {
            confidence_threshold: submission.confidenceThreshold,
          }),
          ...(submission.languageCode !== undefined && { language_given: submission.languageCode }),
          ...(submission.metadata !== undefined && {
            metadata: JSON.stringify({
              ...(JSON.parse(existing.metadata) as Record<string, unknown>),
              ...submission.metadata,
            }),
          }),
        });
      }
      const first = await conversations.nextMessagePosition(id);
      await conversations.insertMessages(
        submission.messages.map((message, index) => ({
          id: numericId(),
          conversation_id: id,
          job_id: jobId,
          position: first + index,
          text: message.text,
          from_name: message.fromName,
          from_user_id: message.fromUserId,
          from_email: message.fromEmail,
          member_id: null,
          start_time: message.startTime,
          end_time: message.endTime,
          hidden: 0,
        })),
      );
      const media = submission.media;
      if (media) {
        await repos.media.insert({
          id: media.id,
          app_id: appId,
          conversation_id: id,
          job_id: jobId,
          kind: media.kind,
          source_url: media.sourceUrl,
          stored_file: media.storedFile,
          content_type: media.contentType,
          bytes: media.bytes,
          duration_ms: media.durationMs,
          offset_ms: 0,
          options: media.options,
          segments: null,
          turns: null,
          diarization_error: null,
          created_at: now,
        });
      }
      await this.jobs.schedule(repos, {
        id: jobId,
        kind: media ? "media" : "text",
        ...(media?.sourceUrl != null && { stage: "fetch" as const }),
        appId,
        conversationId: id,
        webhookUrl: submission.webhookUrl === undefined ? null : new URL(submission.webhookUrl).href,
        now,
      });
      return { conversationId: id, jobId };
    });
    this.jobs.scheduled();
    return accepted;
  }

  /**
   * Makes sure the conversation is analysed again from its messages as they are now (after an edit, a
   * hidden or restored line): schedules a job with no new messages, unless one not yet started is waiting,
   * which will read the same. Returns that job's id. Throws not_found for a conversation the app cannot see.
   */
  async scheduleReanalysis(appId: string, conversationId: string): Promise<string> {
    const { jobId, created } = await this.transaction(async (repos) => {
      if (!(await repos.conversations.lockForWrite(conversationId, appId))) throw notFound("conversation");
      const now = this.clock.now().toISOString();
      return this.jobs.scheduleUnlessWaiting(repos, { appId, conversationId, now });
    });
    if (created) this.jobs.scheduled();
    return jobId;
  }
}

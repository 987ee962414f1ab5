import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../../clock.ts";
import type { Transaction } from "../../db/transaction.ts";
import { DomainError, notFound } from "../../errors.ts";
import { numericId, uuid } from "../../ids.ts";
import type { Speaker, StartRequest } from "../../live/protocol.ts";
import type { LiveRecognition, LiveRecognitionOptions, RecognizedSegment } from "../../media/engine.ts";
import { storedWords } from "../../media/align.ts";
import type { Speech } from "../../media/speech.ts";
import type { SpeechKeeper } from "../../media/speech-keeper.ts";
import { MediaProblem } from "../../media/problems.ts";
import type { ConversationsRepository } from "../conversations/conversations.repository.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import type { JobsService, JobWrites } from "../jobs/jobs.service.ts";
import type { TrackersService } from "../trackers/trackers.service.ts";
import type { VoicesService } from "../voices/voices.service.ts";
import type { DetectedTracker, TrackerDefinition } from "../../analysis/trackers.ts";

/** A conversation being streamed, shared by the connections that joined it on this process. */
interface SharedStream {
  /** Known once `ready` has resolved. */
  conversationId: string;
  /** This stream made the conversation (it did not join one another process streams). */
  created: boolean;
  /**
   * This process's hold on the stream: a job in progress that it renews while the stream runs (so the page
   * marks the conversation live), handed to the job runners when the last connection here ends, or taken up
   * by one when this process dies. The lines stored here are stored under it.
   */
  jobId: string;
  /** The conversation is found or written, and the hold written. */
  ready: Promise<void>;
  connections: number;
  messages: number;
  renewal: NodeJS.Timeout | undefined;
}

/** One connection's part of a conversation being streamed. */
export interface LiveConversation {
  appId: string;
  conversationId: string;
  jobId: string;
  /** Position 0 of this connection's audio. */
  startedAt: Date;
  speaker: Speaker;
  shared: SharedStream;
  /** The app and connection id its conversation is found by. */
  key: string;
  /** The app's trackers as the stream started: each final is matched against them. */
  trackers: TrackerDefinition[];
  /** The speaker's speech kept for their voice, when the app has voice profiles on (docs/VOICES.md); else null. */
  voice: SpeechKeeper | null;
}

export interface StoredLine {
  id: string;
  text: string;
  startTime: string;
  endTime: string;
}

/**
 * Symbl's Streaming API on the speech engine (docs/LIVE.md): opens a conversation when a stream starts,
 * stores each final utterance as a message as soon as it is recognised (so a dropped connection or a crash
 * loses at most the utterance under way), and when the stream ends schedules the text job that analyses
 * the conversation and fires its webhooks.
 */
export class LiveService {
  /** The conversations being streamed on this process, by app and connection id. */
  private readonly streams = new Map<string, SharedStream>();

  constructor(
    private readonly deps: {
      transaction: Transaction<{ conversations: ConversationsRepository } & JobWrites>;
      jobs: Pick<JobsService, "openLive" | "findLive" | "renewLive" | "endLive" | "scheduled" | "getJob">;
      conversations: Pick<ConversationsService, "getInsights" | "getTopics">;
      trackers: Pick<TrackersService, "list" | "matchLines">;
      voices: Pick<VoicesService, "keeperFor" | "keepLiveVoice">;
      speech: Speech;
      /** RECAP_LIVE_INTERIM_SECONDS: how much new audio passes between two interim results; 0 for none. */
      interimEveryMs: number;
      clock: Clock;
      /** How long a hold lasts unrenewed (RECAP_JOB_LEASE_SECONDS): a stream's process that dies is found after it. */
      leaseMs: number;
    },
  ) {}

  /**
   * Starts recognising a stream on the process's engine. Throws service_unavailable when no engine is set
   * up or it cannot stream now (a remote engine's VAD is damaged), invalid when it cannot take the language.
   */
  async listen(
    start: StartRequest,
    options: Omit<LiveRecognitionOptions, "languageCode" | "interimEveryMs">,
  ): Promise<LiveRecognition> {
    const status = this.deps.speech.status();
    if (status.engine === null) throw new DomainError("unavailable", status.setupHint);
    const engine = await this.deps.speech.engine();
    try {
      return engine.listen({
        ...options,
        interimEveryMs: this.deps.interimEveryMs,
        sourceSampleRate: start.sampleRateHertz,
        ...(start.languageCode !== null && { languageCode: start.languageCode }),
      });
    } catch (error) {
      if (error instanceof MediaProblem)
        throw new DomainError("invalid", `config.languageCode: ${error.message}`);
      throw new DomainError("unavailable", (error as Error).message);
    }
  }

  /**
   * Joins the conversation that connections of the app with the same connection id are streaming, on this
   * process or another (one connection per participant, as Symbl allowed), or creates it; this process holds
   * a job on it while any of its connections to it is open.
   */
  async open(appId: string, connectionId: string, start: StartRequest): Promise<LiveConversation> {
    const startedAt = this.deps.clock.now();
    const key = `${appId} ${connectionId}`;
    let shared = this.streams.get(key);
    if (shared === undefined) {
      const stream: SharedStream = {
        conversationId: "",
        created: false,
        jobId: uuid(),
        ready: Promise.resolve(),
        connections: 0,
        messages: 0,
        renewal: undefined,
      };
      stream.ready = this.hold(stream, appId, connectionId, start, startedAt.toISOString());
      shared = stream;
      this.streams.set(key, shared);
      shared.ready.catch(() => this.streams.delete(key));
    }
    shared.connections += 1;
    try {
      await shared.ready;
    } catch (error) {
      shared.connections -= 1;
      throw error;
    }
    const { conversationId, jobId } = shared;
    const [trackers, voice] = await Promise.all([
      this.deps.trackers.list(appId),
      this.deps.voices.keeperFor(appId),
    ]);
    return { appId, conversationId, jobId, startedAt, speaker: start.speaker, shared, key, trackers, voice };
  }

  /** Finds or writes the stream's conversation and this process's hold on it, then keeps the hold renewed. */
  private async hold(
    stream: SharedStream,
    appId: string,
    connectionId: string,
    start: StartRequest,
    now: string,
  ): Promise<void> {
    const leaseUntil = () => new Date(this.deps.clock.now().getTime() + this.deps.leaseMs).toISOString();
    stream.conversationId = await this.deps.transaction(async (repos) => {
      const streamed = await this.deps.jobs.findLive(repos, appId, connectionId, now);
      const conversationId = streamed?.conversationId ?? numericId();
      stream.created = streamed === null;
      if (streamed === null) {
        await repos.conversations.insert({
          id: conversationId,
          app_id: appId,
          name: start.meetingTitle ?? "Untitled conversation",
          start_time: now,
          end_time: null,
          metadata: JSON.stringify({}),
          confidence_threshold: start.confidenceThreshold,
          language_given: start.languageCode,
          created_at: now,
          updated_at: now,
        });
      }
      await this.deps.jobs.openLive(repos, {
        id: stream.jobId,
        appId,
        conversationId,
        connectionId,
        now,
        leaseExpiresAt: leaseUntil(),
      });
      return conversationId;
    });
    // A renewal that fails is tried again at the next beat; a hold that lapses meanwhile is taken up by a job
    // runner, and the stream's end then schedules another job for what came after.
    stream.renewal = setInterval(() => {
      this.deps.jobs.renewLive(stream.jobId, leaseUntil()).catch(() => undefined);
    }, this.deps.leaseMs / 3);
    stream.renewal.unref();
  }

  /** Stores one final utterance as the conversation's next message, at once. */
  async addLine(live: LiveConversation, segment: RecognizedSegment): Promise<StoredLine> {
    const start = live.startedAt.getTime();
    const line: StoredLine = {
      id: numericId(),
      text: segment.text,
      startTime: new Date(start + segment.startMs).toISOString(),
      endTime: new Date(start + segment.endMs).toISOString(),
    };
    await this.deps.transaction(async ({ conversations }) => {
      if (!(await conversations.lockForWrite(live.conversationId, live.appId)))
        throw notFound("conversation");
      await conversations.insertMessages([
        {
          id: line.id,
          conversation_id: live.conversationId,
          job_id: live.jobId,
          position: await conversations.nextMessagePosition(live.conversationId),
          text: line.text,
          from_name: live.speaker.name,
          from_user_id: live.speaker.userId,
          from_email: null,
          member_id: null,
          start_time: line.startTime,
          end_time: line.endTime,
          hidden: 0,
          words: storedWords(segment),
        },
      ]);
      await conversations.update(live.conversationId, { updated_at: this.deps.clock.now().toISOString() });
    });
    live.shared.messages += 1;
    return line;
  }

  /** The app's trackers found in a stored line (Symbl's `tracker_response`, sent as each final is stored). */
  async trackersIn(live: LiveConversation, line: StoredLine): Promise<DetectedTracker[]> {
    if (live.trackers.length === 0) return [];
    return (await this.deps.trackers.matchLines(live.trackers, [{ id: line.id, text: line.text }])).trackers;
  }

  /**
   * Keeps the voice of the connection's speaker from what it said, when the app keeps voices; a failure is logged,
   * never the stream's.
   */
  async keepVoice(live: LiveConversation, logger: FastifyBaseLogger): Promise<void> {
    if (live.voice === null) return;
    try {
      await this.deps.voices.keepLiveVoice(live.conversationId, live.speaker, live.voice);
    } catch (error) {
      logger.warn({ conversationId: live.conversationId, err: error }, "the speaker's voice was not kept");
    }
  }

  /**
   * Ends one connection; when it was the last on this process, hands the process's hold to the job runners to
   * analyse the lines (the webhooks follow), or drops it when nothing was said here (and the conversation, when
   * the stream made it and it is still empty), and the page is no longer marked live by it. Returns the id of the job that analyses the stream, or null.
   */
  async finish(live: LiveConversation): Promise<string | null> {
    const { shared } = live;
    shared.connections -= 1;
    if (shared.connections > 0) return null;
    if (this.streams.get(live.key) === shared) this.streams.delete(live.key);
    clearInterval(shared.renewal);
    const now = this.deps.clock.now().toISOString();
    const jobId = await this.deps.transaction(async (repos) => {
      await repos.conversations.lockForWrite(live.conversationId, live.appId);
      const analysis = await this.deps.jobs.endLive(
        repos,
        { id: shared.jobId, appId: live.appId, conversationId: live.conversationId, now },
        shared.messages > 0,
      );
      // A stream that heard nothing (silence, undecodable bytes) leaves no empty conversation in the lists, when it
      // made the conversation and nothing else was put in it meanwhile (a line from another process, a link).
      if (analysis === null && shared.created)
        await repos.conversations.deleteIfEmpty(live.appId, live.conversationId);
      return analysis;
    });
    if (jobId !== null) this.deps.jobs.scheduled();
    return jobId;
  }

  /**
   * Waits up to `waitMs` for the stream's job (run by whichever process claims it) and reads what it found:
   * the insights above the conversation's confidence threshold and the topics. Null when the job did not
   * complete in time or failed.
   */
  async analysed(live: LiveConversation, jobId: string, waitMs: number) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { status } = await this.deps.jobs.getJob(live.appId, jobId);
      if (status === "completed") break;
      if (status === "failed" || Date.now() >= deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [insights, topics] = await Promise.all([
      this.deps.conversations.getInsights(live.appId, live.conversationId),
      this.deps.conversations.getTopics(live.appId, live.conversationId),
    ]);
    return { insights, topics };
  }
}

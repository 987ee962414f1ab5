import type { FastifyBaseLogger } from "fastify";
import type { WebSocket } from "@fastify/websocket";
import { DomainError, invalid } from "../../errors.ts";
import { statusOf } from "../../http/errors.ts";
import { events, Linear16Resampler, parseRequest, type StartRequest } from "../../live/protocol.ts";
import { SAMPLE_RATE, type LiveRecognition, type RecognizedSegment } from "../../media/engine.ts";
import { StreamDecoder, type FfmpegPaths } from "../../media/ffmpeg.ts";
import { EngineFailed, EngineUnreachable, type MediaProblem } from "../../media/problems.ts";
import type { LiveConversation, LiveService } from "./live.service.ts";

export interface ConnectionLimits {
  /** A connection that sends nothing for this long is ended as if it had stopped. */
  idleMs: number;
  /** A connection must send its start_request within this. */
  startMs: number;
  /** Audio received but not yet recognised, past which the connection is ended rather than fall behind. */
  maxBacklogBytes: number;
  /** Frames received but not yet handled, past which likewise (a flood of tiny frames). */
  maxBacklogFrames: number;
  /** The longest stream (RECAP_MEDIA_MAX_SECONDS): past it the stream is ended as if it had stopped. */
  maxStreamMs: number;
  /** How long a connection may stay open (RECAP_LIVE_MAX_CONNECTION_SECONDS), whatever it sends: likewise. */
  maxConnectionMs: number;
  /** How long a stopped stream waits for its analysis before it completes without insights. */
  analysisWaitMs: number;
}

/** The close code an error ends a connection with: 4000 plus its HTTP status (4400, 4401, 4503…). */
export const closeCodeOf = (error: DomainError) => 4000 + statusOf(error);

/**
 * One WebSocket connection speaking Symbl's Streaming API (docs/LIVE.md): start_request, binary LINEAR16
 * frames, stop_request. Frames are handled one at a time, in order; an error is sent as Symbl's error event
 * and closes the connection with its code. However the connection ends (stop_request, the client going
 * away, an idle timeout), the lines stored so far are analysed by a job.
 */
export class LiveConnection {
  private work: Promise<void> = Promise.resolve();
  private backlogBytes = 0;
  private backlogFrames = 0;
  private live: LiveConversation | null = null;
  private recognition: LiveRecognition | null = null;
  private resampler: Linear16Resampler | null = null;
  /** ffmpeg, for a stream sent as FLAC or Opus; null for LINEAR16. */
  private decoder: StreamDecoder | null = null;
  private readonly decodedPcm: Buffer[] = [];
  /** The stream passed RECAP_MEDIA_MAX_SECONDS: nothing more is recognised. */
  private tooLong = false;
  private starting = false;
  /** Set once the stream is ending: frames that still arrive are ignored. */
  private stopping = false;
  private ended = false;
  private timer: NodeJS.Timeout;
  /** Ends the connection at `maxConnectionMs`, however much it still sends (a trickle holds no slot for ever). */
  private readonly deadline: NodeJS.Timeout;
  private sequence = 0;
  /** 16 kHz samples received. */
  private samples = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly appId: string,
    private readonly connectionId: string,
    private readonly service: LiveService,
    private readonly limits: ConnectionLimits,
    private readonly ffmpeg: FfmpegPaths,
    private readonly logger: FastifyBaseLogger,
    private readonly onEnded: () => void,
  ) {
    this.timer = setTimeout(
      () => this.fail(invalid(`no start_request within ${limits.startMs / 1000} s`)),
      limits.startMs,
    );
    this.deadline = setTimeout(() => {
      this.send(
        events.error(
          "payload_too_large",
          `the connection passed ${limits.maxConnectionMs / 1000} s (RECAP_LIVE_MAX_CONNECTION_SECONDS): it was ended`,
        ),
      );
      this.enqueue(() => this.end(true));
    }, limits.maxConnectionMs);
    socket.on("message", (data: Buffer, isBinary: boolean) => this.receive(data, isBinary));
    socket.on("close", () => {
      // The connection no longer counts against the limits; what it sent is still recognised and stored.
      this.onEnded();
      this.enqueue(() => this.end(false));
    });
    socket.on("error", () => undefined);
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (this.stopping) return;
    if (this.live !== null) this.touch();
    if (!isBinary) {
      let request;
      try {
        request = parseRequest(data.toString("utf8"));
      } catch (error) {
        return this.fail(error);
      }
      if (request.type === "start_request") {
        if (this.starting) return this.fail(invalid("start_request was already sent on this connection"));
        this.starting = true;
        return this.enqueue(() => this.start(request.start));
      }
      return this.enqueue(() => this.end(true));
    }
    if (!this.starting) return this.fail(invalid("audio arrived before the start_request"));
    this.backlogBytes += data.length;
    this.backlogFrames += 1;
    if (this.refusedOverBacklog()) return;
    this.enqueue(async () => {
      this.backlogBytes -= data.length;
      this.backlogFrames -= 1;
      if (this.stopping) return;
      if (this.decoder !== null) return this.decoder.write(data);
      if (!(await this.recognise(data))) return this.end(true);
    });
  }

  /**
   * Recognises PCM at the stream's rate (LINEAR16 as sent, or what ffmpeg decoded); false once the stream has
   * passed its longest length (the caller ends it).
   */
  private async recognise(pcm: Buffer): Promise<boolean> {
    if (!this.recognition || !this.resampler || this.tooLong) return !this.tooLong;
    const chunk = this.resampler.push(pcm);
    this.samples += chunk.length;
    if ((this.samples * 1000) / SAMPLE_RATE > this.limits.maxStreamMs) {
      this.tooLong = true;
      this.send(
        events.error(
          "payload_too_large",
          `the stream passed ${this.limits.maxStreamMs / 1000} s (RECAP_MEDIA_MAX_SECONDS): it was ended`,
        ),
      );
      return false;
    }
    this.live?.voice?.push(chunk);
    await this.recognition.push(chunk);
    return true;
  }

  /** PCM that ffmpeg decoded from a compressed stream: held in order, recognised in the connection's turn. */
  private decoded(pcm: Buffer): void {
    // A drain queued or running takes every chunk held when it gets there: only the first needs one.
    const drainWaiting = this.decodedPcm.length > 0;
    this.decodedPcm.push(pcm);
    this.backlogBytes += pcm.length;
    if (this.refusedOverBacklog() || drainWaiting) return;
    this.enqueue(() => this.drainDecoded());
  }

  /** Ends the stream when more audio waits than the limits allow: it arrives faster than it is recognised. */
  private refusedOverBacklog(): boolean {
    if (
      this.backlogBytes <= this.limits.maxBacklogBytes &&
      this.backlogFrames <= this.limits.maxBacklogFrames
    )
      return false;
    this.fail(
      new DomainError(
        "unavailable",
        "the audio arrives faster than it can be recognised: the stream was ended",
      ),
    );
    return true;
  }

  private async drainDecoded(): Promise<void> {
    for (let pcm = this.decodedPcm.shift(); pcm !== undefined; pcm = this.decodedPcm.shift()) {
      this.backlogBytes -= pcm.length;
      if (this.ended || !(await this.recognise(pcm))) {
        this.decodedPcm.length = 0;
        if (!this.stopping) await this.end(true);
        return;
      }
    }
  }

  private enqueue(step: () => Promise<void>): void {
    this.work = this.work.then(step).catch((error: unknown) => this.fail(error));
  }

  private touch(): void {
    this.timer.refresh();
  }

  private async start(start: StartRequest): Promise<void> {
    if (this.stopping) return;
    const recognition = await this.service.listen(start, {
      onInterim: (segment) => this.result(segment, false),
      onFinal: (segment) => this.final(segment),
    });
    try {
      this.live = await this.service.open(this.appId, this.connectionId, start);
    } catch (error) {
      // Nothing was pushed: ending it reports nothing and gives its VAD back.
      await recognition.end();
      throw error;
    }
    this.recognition = recognition;
    if (start.encoding === "LINEAR16") this.resampler = new Linear16Resampler(start.sampleRateHertz);
    else {
      this.resampler = new Linear16Resampler(SAMPLE_RATE);
      this.decoder = new StreamDecoder(
        this.ffmpeg,
        start.encoding,
        (pcm) => this.decoded(pcm),
        (problem) => this.fail(this.undecodable(problem)),
      );
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.enqueue(() => this.end(true)), this.limits.idleMs);
    this.send(events.startedListening());
    this.send(events.recognitionStarted(this.live.conversationId));
    this.send(events.conversationCreated(this.live.conversationId));
  }

  private memberId(): string {
    return this.live?.speaker.userId ?? this.live?.conversationId ?? "";
  }

  private result(segment: RecognizedSegment, isFinal: boolean): void {
    if (this.live === null || this.ended) return;
    this.send(events.recognitionResult(segment, isFinal, this.live.speaker, this.memberId()));
  }

  private async final(segment: RecognizedSegment): Promise<void> {
    if (this.live === null) return;
    this.live.voice?.keep(segment.startMs, segment.endMs);
    const line = await this.service.addLine(this.live, segment);
    this.result(segment, true);
    this.sequence += 1;
    if (!this.ended)
      this.send(events.messageResponse(this.sequence, line, this.live.speaker, this.memberId()));
    const trackers = await this.service.trackersIn(this.live, line);
    if (trackers.length > 0 && !this.ended) this.send(events.trackerResponse(this.sequence, trackers));
  }

  /** Recognises what is left, schedules the analysis; answers and closes when the client is still there. */
  private async end(answer: boolean): Promise<void> {
    if (this.ended) return;
    this.stopping = true;
    clearTimeout(this.timer);
    clearTimeout(this.deadline);
    const live = this.live;
    let jobId: string | null = null;
    /**
     * What went wrong as the stream ended (bytes ffmpeg could not decode, 4400; the engine failing on the last
     * utterance, 4503): said, and the close gives its code; the lines stored so far are analysed all the same.
     */
    let failure: DomainError | null = null;
    try {
      if (live !== null && this.recognition !== null) {
        try {
          if (this.decoder !== null) {
            // What ffmpeg still holds is decoded and recognised before the stream's last utterance is closed.
            failure = await this.decoder.end().then(
              () => null,
              (problem: unknown) => this.undecodable(problem as MediaProblem),
            );
            if (failure !== null) this.send(events.error(failure.code, failure.message));
            await this.drainDecoded();
          }
        } finally {
          // However the stream ends, its recognition ends too: that frees what it holds (the engine's VAD).
          await this.recognition.end().catch((error: unknown) => {
            const engine = this.engineFailure(error);
            if (engine === null) throw error;
            failure ??= engine;
            this.send(events.error(engine.code, engine.message));
          });
        }
        await this.service.keepVoice(live, this.logger);
        jobId = await this.service.finish(live);
      }
    } finally {
      this.ended = true;
      this.onEnded();
    }
    if (answer && live !== null && jobId !== null) {
      // Symbl sent insights as they were found; Recap finds them once the stream's analysis has run.
      const found = await this.service.analysed(live, jobId, this.limits.analysisWaitMs);
      if (found !== null) {
        if (found.insights.length > 0) this.send(events.insightResponse(found.insights));
        if (found.topics.length > 0) this.send(events.topicResponse(found.topics));
      }
    }
    if (answer && live !== null) {
      this.send(events.conversationCompleted(live.conversationId, null));
      this.send(events.recognitionStopped(live.conversationId));
    }
    if (failure === null) this.socket.close(1000);
    else this.socket.close(closeCodeOf(failure), failure.code);
  }

  /**
   * The client's error for a speech engine that failed on an utterance (did not answer, or not with a
   * transcription), naming the cause; what its server said goes to the log. Null for any other error.
   */
  private engineFailure(error: unknown): DomainError | null {
    if (!(error instanceof EngineUnreachable || error instanceof EngineFailed)) return null;
    this.logger.warn(
      { err: error, ...(error instanceof EngineFailed && { answer: error.detail }) },
      "live recognition failed",
    );
    return new DomainError(
      "unavailable",
      `${error.message}: the stream was ended, and the lines recognised so far are kept`,
    );
  }

  /** The client's error for a stream ffmpeg could not decode; what ffmpeg said goes to the log, at debug. */
  private undecodable(problem: MediaProblem): DomainError {
    this.logger.debug({ ffmpeg: problem.detail }, problem.message);
    return invalid(problem.message);
  }

  /** Sends Symbl's error event and closes with the error's code; an unexpected error is logged, not shown. */
  fail(error: unknown): void {
    const known = error instanceof DomainError ? error : this.engineFailure(error);
    if (known === null) this.logger.error({ err: error }, "live connection failed");
    const domain = known ?? new DomainError("unavailable", "the stream could not be processed");
    this.send(events.error(domain.code, domain.message));
    this.socket.close(closeCodeOf(domain), domain.code);
    this.decoder?.kill();
    if (!this.ended && this.live === null) {
      this.ended = true;
      this.stopping = true;
      clearTimeout(this.timer);
      clearTimeout(this.deadline);
      this.onEnded();
    }
  }

  private send(event: object): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(event));
  }
}

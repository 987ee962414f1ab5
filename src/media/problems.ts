/**
 * What is wrong with a piece of media, said for the person who sent it: a submission refused with it answers
 * 400, a job failed with it carries the message as its error. `detail` is what ffmpeg said, for the server's
 * log only: it may name the server's paths.
 */
export class MediaProblem extends Error {
  constructor(
    message: string,
    readonly detail: string | null = null,
  ) {
    super(message);
    this.name = "MediaProblem";
  }
}

/**
 * The speech engine's server did not answer (refused, reset, timed out) or failed (HTTP 5xx): nothing is wrong
 * with the media, and the same request may succeed later. The message names no address.
 */
export class EngineUnreachable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "EngineUnreachable";
  }
}

/**
 * The speech engine's server answered, but not with a transcription (a 4xx, or a body that is not JSON). The
 * message says so without the body, which goes in `detail`, for the server's log only.
 */
export class EngineFailed extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = "EngineFailed";
  }
}

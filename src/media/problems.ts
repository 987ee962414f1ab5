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

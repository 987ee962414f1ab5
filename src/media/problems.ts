/**
 * What is wrong with a piece of media, said for the person who sent it: a submission refused with it answers
 * 400, a job failed with it carries the message as its error.
 */
export class MediaProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MediaProblem";
  }
}

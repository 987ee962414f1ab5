/**
 * A failure the job's submitter caused or can act on (a recording with no speech, a URL that answers 404):
 * the job fails with this message, shown to them (GET /v1/job, the webhook, the console) and logged without a
 * stack, since the server did nothing wrong.
 */
export class JobProblem extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "JobProblem";
  }
}

/** What a job that failed on the server says to its submitter: no internals, only where to look. */
export function serverFailureMessage(jobId: string): string {
  return `the job failed on the server (id ${jobId}); see the server log`;
}

/**
 * The job's work needs a service that did not answer (the remote speech engine: refused, reset, timed out, or
 * a 5xx): the runner puts the job back to be tried again later, with backoff, within its bound, and fails it
 * with this message after the last try.
 */
export class ServiceUnreachable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ServiceUnreachable";
  }
}

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

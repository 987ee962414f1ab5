import type { JobStatus } from "../modules/jobs/jobs.repository.ts";
import type { Services } from "../services.ts";

const POLL_MS = 250;

/**
 * Runs jobs in this process until the given one has finished, and returns its final status. A server on
 * the same database may claim the job first; the command then waits for that server to finish it, and takes
 * it over if that server dies (its lease runs out). Either way the analysis is stored when this returns.
 */
export async function runJobUntilFinished(
  { jobRunner, jobs }: Pick<Services, "jobRunner" | "jobs">,
  appId: string,
  jobId: string,
): Promise<JobStatus> {
  for (;;) {
    await jobRunner.runUntilIdle();
    const { status } = await jobs.getJob(appId, jobId);
    if (status === "completed" || status === "failed") return status;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

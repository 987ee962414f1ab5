import { notFound } from "../../errors.ts";
import type { JobsRepository, JobStatus } from "./jobs.repository.ts";

export class JobsService {
  constructor(private readonly jobs: JobsRepository) {}

  /** Throws not_found when the app cannot see the job. */
  async getJob(appId: string, jobId: string): Promise<{ id: string; status: JobStatus }> {
    const job = await this.jobs.find(appId, jobId);
    if (!job) throw notFound("job");
    return { id: job.id, status: job.status as JobStatus };
  }
}

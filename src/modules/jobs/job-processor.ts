import type { Analyzer } from "../../analysis/types.ts";
import type { JobRow } from "../../db/schema.ts";
import type { Transaction } from "../../db/transaction.ts";
import {
  prepareAnalysis,
  storeAnalysis,
  type AnalysisRepositories,
  type ConversationWrites,
} from "../conversations/analysis-store.ts";
import type { Claim, JobsRepository } from "./jobs.repository.ts";

/**
 * Processes one job in three steps: the conversations module resolves the new messages' speakers and says
 * what to analyse, the analyzer's worker analyses it, and the conversations module stores the result. Each
 * transaction first checks the job's claim (throwing ClaimTakenOver when another process has taken the job
 * over), so a process that stalled past its lease writes nothing.
 */
export function createJobProcessor(deps: {
  transaction: Transaction<{ jobs: JobsRepository } & AnalysisRepositories>;
  analyzer: Analyzer;
}) {
  const fencedBy =
    (claim: Claim): ConversationWrites =>
    (work) =>
      deps.transaction(async (repos) => {
        await repos.jobs.holdClaim(claim);
        return work(repos);
      });
  return async function processJob(job: JobRow): Promise<void> {
    const fenced = fencedBy(job);
    const input = await prepareAnalysis(fenced, job.conversation_id, job.id);
    if (!input) return;
    const result = await deps.analyzer.analyze(input);
    await storeAnalysis(fenced, job.conversation_id, result);
  };
}

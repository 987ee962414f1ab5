import type { FastifyBaseLogger } from "fastify";
import { isAnalysedLanguage } from "../../analysis/language.ts";
import type { AnalysisEngines, Analyzer, Refiner } from "../../analysis/types.ts";
import type { JobRow } from "../../db/schema.ts";
import type { Transaction } from "../../db/transaction.ts";
import {
  prepareAnalysis,
  storeAnalysis,
  type AnalysisRepositories,
  type ConversationWrites,
} from "../conversations/analysis-store.ts";
import type { Claim, JobsRepository } from "./jobs.repository.ts";

const LOCAL_ENGINES: AnalysisEngines = {
  summary: "local",
  decisions: "local",
  chapters: "local",
  actionItems: "local",
};

/**
 * Processes one job in three steps: the conversations module resolves the new messages' speakers and says
 * what to analyse, the analyzer's worker analyses it (then, when a language model is configured, the refiner
 * asks it to rewrite parts, in this process: it is network I/O), and the conversations module stores the
 * result with the engine of each part. Each transaction first checks the job's claim (throwing
 * ClaimTakenOver when another process has taken the job over), so a process that stalled past its lease
 * writes nothing.
 */
export function createJobProcessor(deps: {
  transaction: Transaction<{ jobs: JobsRepository } & AnalysisRepositories>;
  analyzer: Analyzer;
  /** The configured language model and where to log what it wrote; absent: no network, every part local. */
  languageModel?: { refiner: Refiner; logger: FastifyBaseLogger };
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
    const local = await deps.analyzer.analyze(input);
    const model = deps.languageModel;
    // The model's prompts and evidence checks are English, as is the local result they start from.
    if (!model || !isAnalysedLanguage(local.languageCode)) {
      return storeAnalysis(fenced, job.conversation_id, local, LOCAL_ENGINES);
    }
    const { result, engines, fallbacks } = await model.refiner.refine(input, local);
    const context = { jobId: job.id, conversationId: job.conversation_id };
    for (const { part, reason } of fallbacks) {
      model.logger.warn({ ...context, part, reason }, "language model failed; this part stays local");
    }
    model.logger.info({ ...context, engines }, "analysis engines");
    await storeAnalysis(fenced, job.conversation_id, result, engines);
  };
}

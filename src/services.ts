import type { FastifyBaseLogger } from "fastify";
import type { Analyzer } from "./analysis/types.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { DatabaseHandle } from "./db/database.ts";
import { TokenService } from "./http/tokens.ts";
import { AppsRepository } from "./modules/apps/apps.repository.ts";
import { AppsService } from "./modules/apps/apps.service.ts";
import { ConversationsService } from "./modules/conversations/conversations.service.ts";
import { ExperiencesService, PageEditsService } from "./modules/experiences/experiences.service.ts";
import { PageAssets } from "./modules/experiences/page-assets.ts";
import { IngestionService } from "./modules/ingestion/ingestion.service.ts";
import { createJobProcessor } from "./modules/jobs/job-processor.ts";
import { JobsRepository } from "./modules/jobs/jobs.repository.ts";
import { JobRunner } from "./modules/jobs/jobs.runner.ts";
import { JobsService } from "./modules/jobs/jobs.service.ts";
import { WebhookEventsRepository } from "./modules/jobs/webhook-events.repository.ts";
import { WebhookTargets } from "./modules/jobs/webhook-targets.ts";
import { WebhookSender } from "./modules/jobs/webhooks.ts";
import { inTransaction } from "./db/transaction.ts";

export interface ServiceDeps {
  config: Readonly<Config>;
  database: DatabaseHandle;
  clock: Clock;
  secret: string;
  analyzer: Analyzer;
  logger: FastifyBaseLogger;
}

/** Wires every service once; the HTTP app and the CLI share this. */
export function createServices(deps: ServiceDeps) {
  const { config, database, clock, secret, analyzer, logger } = deps;
  const db = database.db;
  const jobsRepository = new JobsRepository(db);
  const apps = new AppsService(new AppsRepository(db), clock);
  const webhookTargets = new WebhookTargets(new Set(config.webhookAllowHosts));
  const webhooks = new WebhookSender({
    events: new WebhookEventsRepository(db),
    apps,
    targets: webhookTargets,
    clock,
    logger,
  });
  const jobRunner = new JobRunner({
    jobs: jobsRepository,
    transaction: (work) => inTransaction(db, work),
    process: createJobProcessor(db, analyzer),
    webhooks,
    clock,
    logger,
    leaseSeconds: config.jobLeaseSeconds,
  });
  const conversations = new ConversationsService(db, clock);
  const ingestion = new IngestionService(db, clock, jobRunner, webhookTargets);
  return {
    apps,
    tokens: new TokenService(secret, config.tokenTtlSeconds, clock),
    conversations,
    experiences: new ExperiencesService({
      db,
      clock,
      secret,
      publicUrl: config.publicUrl,
      apps,
      conversations,
    }),
    pageEdits: new PageEditsService({ db, clock, conversations, ingestion }),
    pageAssets: new PageAssets(),
    ingestion,
    jobs: new JobsService(jobsRepository),
    jobRunner,
    webhooks,
  };
}

export type Services = ReturnType<typeof createServices>;

import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import { createQuestionAnswerer } from "./analysis/llm/answerer.ts";
import { createModelRefiner } from "./analysis/llm/refiner.ts";
import type { Analyzer } from "./analysis/types.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { DatabaseHandle } from "./db/database.ts";
import type { Database } from "./db/schema.ts";
import { createTransaction } from "./db/transaction.ts";
import { AppsRepository } from "./modules/apps/apps.repository.ts";
import { AppsService } from "./modules/apps/apps.service.ts";
import { TokenService } from "./modules/auth/tokens.ts";
import { ConsoleSessions } from "./modules/console/console-sessions.ts";
import { ConsoleSessionsRepository } from "./modules/console/console-sessions.repository.ts";
import { ConversationsRepository } from "./modules/conversations/conversations.repository.ts";
import { ConversationIntelligenceService } from "./modules/conversations/conversation-intelligence.service.ts";
import { ConversationsService } from "./modules/conversations/conversations.service.ts";
import { ExperiencesRepository } from "./modules/experiences/experiences.repository.ts";
import { ExperiencesService } from "./modules/experiences/experiences.service.ts";
import { LinkViewsRepository } from "./modules/experiences/link-views.repository.ts";
import { LinkViews } from "./modules/experiences/link-views.ts";
import { IngestionService } from "./modules/ingestion/ingestion.service.ts";
import { createJobProcessor } from "./modules/jobs/job-processor.ts";
import { JobsRepository } from "./modules/jobs/jobs.repository.ts";
import { JobRunner, JobRunners, type JobRunnerOptions } from "./modules/jobs/jobs.runner.ts";
import { JobsService, type JobKind } from "./modules/jobs/jobs.service.ts";
import { MediaJobSteps } from "./modules/media/media-job.ts";
import { MediaService } from "./modules/media/media.service.ts";
import { LiveService } from "./modules/live/live.service.ts";
import type { Speech } from "./media/speech.ts";
import type { Metrics } from "./metrics/metrics.ts";
import { WebhookEventsRepository } from "./modules/jobs/webhook-events.repository.ts";
import { WebhookTargets } from "./modules/jobs/webhook-targets.ts";
import { WebhookSender } from "./modules/jobs/webhooks.ts";
import { MediaRepository } from "./modules/media/media.repository.ts";
import { PageAssets } from "./modules/summary-page/page-assets.ts";
import { PageCache } from "./modules/summary-page/page-cache.ts";
import { PageEditsService } from "./modules/summary-page/page-edits.service.ts";
import { SummaryPageService } from "./modules/summary-page/summary-page.service.ts";
import { WebFonts } from "./modules/summary-page/web-fonts.ts";
import { AskService } from "./modules/search/ask.service.ts";
import { SearchRepository } from "./modules/search/search.repository.ts";
import { SearchService } from "./modules/search/search.service.ts";
import { TrackersRepository } from "./modules/trackers/trackers.repository.ts";
import { TrackersService } from "./modules/trackers/trackers.service.ts";
import { VoicesRepository } from "./modules/voices/voices.repository.ts";
import { VoicesService } from "./modules/voices/voices.service.ts";
import { canonicalHost, hostOf } from "./urls.ts";

export interface ServiceDeps {
  config: Readonly<Config>;
  database: DatabaseHandle;
  clock: Clock;
  secret: string;
  analyzer: Analyzer;
  /** The speech engine media jobs use (media/speech.ts). */
  speech: Speech;
  logger: FastifyBaseLogger;
  /** The app's metrics: each part that counts something is handed its interface. */
  metrics: Metrics;
}

/** The longest wait between two tries of a job whose speech engine did not answer (docs/MEDIA.md, The job). */
const ASR_RETRY_MAX_DELAY_SECONDS = 300;

/** What this process keeps of made summary pages (docs/PAGES.md, Compression and caching). */
const PAGE_CACHE_BYTES = 32 * 1024 * 1024;

/** Every repository, on the database or on one transaction: the only place that builds them. */
export function repositoriesOf(db: Kysely<Database>) {
  return {
    apps: new AppsRepository(db),
    consoleSessions: new ConsoleSessionsRepository(db),
    conversations: new ConversationsRepository(db),
    experiences: new ExperiencesRepository(db),
    linkViews: new LinkViewsRepository(db),
    jobs: new JobsRepository(db),
    webhookEvents: new WebhookEventsRepository(db),
    trackers: new TrackersRepository(db),
    media: new MediaRepository(db),
    voices: new VoicesRepository(db),
    search: new SearchRepository(db),
  };
}

/**
 * The composition root: builds the repositories once and wires every service on them, each with what it
 * needs, `transaction(work)` included (work gets the repositories bound to one transaction). The HTTP app
 * and the CLI share this.
 */
export function createServices(deps: ServiceDeps) {
  const { config, database, clock, secret, analyzer, speech, logger, metrics } = deps;
  const repositories = repositoriesOf(database.db);
  const transaction = createTransaction(database.db, repositoriesOf);

  const publicHost = canonicalHost(hostOf(new URL(config.publicUrl))) ?? "";
  const apps = new AppsService(repositories.apps, clock, publicHost);
  const webhookTargets = new WebhookTargets(new Set(config.webhookAllowHosts));
  const webhooks = new WebhookSender({
    events: repositories.webhookEvents,
    apps,
    targets: webhookTargets,
    clock,
    logger,
    metrics: metrics.webhooks,
  });
  const processJob = createJobProcessor({
    transaction,
    analyzer,
    ...(config.llm && { languageModel: { refiner: createModelRefiner(config.llm), logger } }),
  });
  const runnerOf = (
    kind: JobKind,
    process: JobRunnerOptions["process"],
    options: Pick<JobRunnerOptions, "stage" | "passedOn" | "retries"> = {},
  ) =>
    new JobRunner({
      ...options,
      kind,
      jobs: repositories.jobs,
      transaction,
      process,
      webhooks,
      clock,
      logger,
      leaseSeconds: config.jobLeaseSeconds,
      metrics: metrics.jobs,
    });
  // The media runners join once the media service they run exists (below).
  const runners = [runnerOf("text", (job) => processJob(job))];
  const jobRunner = new JobRunners(runners);
  const jobs = new JobsService(repositories.jobs, jobRunner);
  const conversations = new ConversationsService(
    repositories.conversations,
    transaction,
    clock,
    { release: (conversationId) => media.release(conversationId) },
    jobs,
  );
  const ingestion = new IngestionService(transaction, clock, jobs, webhookTargets);
  const mediaTargets = new WebhookTargets(new Set(config.media.allowHosts), {
    field: "url",
    allowVariable: "RECAP_MEDIA_ALLOW_HOSTS",
  });
  const media = new MediaService({
    settings: config.media,
    speech,
    media: repositories.media,
    jobs: repositories.jobs,
    ingestion,
    mediaTargets,
    logger,
  });
  const voices = new VoicesService({
    voices: repositories.voices,
    transaction,
    apps,
    conversations,
    media,
    speech,
    matching: config.voiceMatching,
    clock,
    logger,
  });
  const mediaJobSteps = new MediaJobSteps({
    settings: config.media,
    speech,
    voices,
    media: repositories.media,
    jobs: repositories.jobs,
    mediaTargets,
    transaction,
    logger,
    metrics: metrics.transcription,
  });
  // A media URL is fetched by runners of its own, so a slow or stalled one never holds a transcription slot.
  for (let i = 0; i < config.media.fetchConcurrency; i++) {
    runners.push(
      runnerOf("media", (job, signal) => mediaJobSteps.fetchForJob(job, signal), {
        stage: "fetch",
        passedOn: () => jobRunner.scheduled(),
      }),
    );
  }
  const retries = {
    count: config.media.asrRetries,
    firstDelaySeconds: config.media.asrRetrySeconds,
    maxDelaySeconds: ASR_RETRY_MAX_DELAY_SECONDS,
  };
  for (let i = 0; i < config.media.asrConcurrency; i++) {
    runners.push(
      runnerOf(
        "media",
        async (job, signal) => {
          await mediaJobSteps.transcribeForJob(job, signal);
          await processJob(job);
        },
        { retries },
      ),
    );
  }
  const experiences = new ExperiencesService({
    experiences: repositories.experiences,
    clock,
    secret,
    publicUrl: config.publicUrl,
    apps,
    conversations,
    hasOwnMedia: async (conversationId) => (await media.recordingsOf(conversationId)).length > 0,
  });
  // Fonts come from the catalogue the operator configured (its host may be internal) and the public
  // hosts its stylesheets name, through the same address rules as webhooks.
  const webFonts = new WebFonts({
    catalogueUrl: config.fontCatalogueUrl,
    cacheDir: config.fontCacheDir,
    guard: new WebhookTargets(
      new Set(config.fontCatalogueUrl === null ? [] : [hostOf(new URL(config.fontCatalogueUrl))]),
    ),
    clock,
    logger,
  });
  const trackers = new TrackersService({
    trackers: repositories.trackers,
    transaction,
    conversations,
    analyzer,
    clock,
  });
  const live = new LiveService({
    transaction,
    jobs,
    conversations,
    trackers,
    voices,
    speech,
    clock,
    leaseMs: config.jobLeaseSeconds * 1000,
    interimEveryMs: Math.round(config.media.liveInterimSeconds * 1000),
  });
  const search = new SearchService({ search: repositories.search, conversations, secret });
  const pageCache = new PageCache(PAGE_CACHE_BYTES, metrics.pageCache);
  metrics.readOnScrape({
    unfinishedJobs: () => jobs.unfinishedJobs(),
    poolUse: () => database.poolUse(),
    pageCacheBytes: () => pageCache.heldBytes,
    speechServer: () => speech.status().reachability,
  });
  return {
    apps,
    tokens: new TokenService(secret, config.tokenTtlSeconds, clock),
    consoleSessions: new ConsoleSessions({ sessions: repositories.consoleSessions, apps, clock }),
    conversations,
    conversationIntelligence: new ConversationIntelligenceService(conversations, analyzer),
    trackers,
    experiences,
    summaryPage: new SummaryPageService({ conversations, apps, trackers, media, jobs, clock }),
    linkViews: new LinkViews({ transaction, clock, secret, logger, metrics: metrics.linkViews }),
    pageEdits: new PageEditsService({ conversations, ingestion }),
    pageAssets: new PageAssets(),
    pageCache,
    webFonts,
    ingestion,
    media,
    voices,
    search,
    ask: new AskService({
      search,
      conversations,
      answerer: config.llm && createQuestionAnswerer(config.llm),
    }),
    live,
    speech,
    jobs,
    jobRunner,
    webhooks,
  };
}

export type Services = ReturnType<typeof createServices>;

import type { Kysely } from "kysely";
import { ConversationsRepository } from "../modules/conversations/conversations.repository.ts";
import { JobsRepository } from "../modules/jobs/jobs.repository.ts";
import { WebhookEventsRepository } from "../modules/jobs/webhook-events.repository.ts";
import type { Database } from "./schema.ts";

export interface Repositories {
  conversations: ConversationsRepository;
  jobs: JobsRepository;
  webhookEvents: WebhookEventsRepository;
}

/** Runs `work` in one transaction with repositories bound to it; everything or nothing is written. */
export function inTransaction<T>(
  db: Kysely<Database>,
  work: (repos: Repositories) => Promise<T>,
): Promise<T> {
  return db.transaction().execute((trx) =>
    work({
      conversations: new ConversationsRepository(trx),
      jobs: new JobsRepository(trx),
      webhookEvents: new WebhookEventsRepository(trx),
    }),
  );
}

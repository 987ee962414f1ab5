import type { FastifyBaseLogger } from "fastify";

export interface WebhookEvent {
  jobId: string;
  status: string;
}

const ATTEMPTS = 3;
const TIMEOUT_MS = 5_000;

/**
 * POSTs job status changes to their webhook URL. Deliveries for one job go out one after another, so a
 * receiver sees `in_progress` before `completed`; each is tried up to three times, and failures are
 * logged, never thrown: a slow or broken receiver cannot hold up processing.
 */
export class WebhookNotifier {
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly logger: FastifyBaseLogger,
    private readonly retryDelayMs = 1_000,
  ) {}

  send(url: string, event: WebhookEvent): void {
    const previous = this.queues.get(event.jobId) ?? Promise.resolve();
    const next = previous.then(() => this.deliver(url, event));
    this.queues.set(event.jobId, next);
    void next.then(() => {
      if (this.queues.get(event.jobId) === next) this.queues.delete(event.jobId);
    });
  }

  /** Waits for every delivery in flight; used at shutdown. */
  async flush(): Promise<void> {
    await Promise.all(this.queues.values());
  }

  private async deliver(url: string, event: WebhookEvent): Promise<void> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", "user-agent": "Recap-Webhook/1" },
          body: JSON.stringify(event),
          signal: AbortSignal.timeout(TIMEOUT_MS),
          redirect: "manual",
        });
        if (response.ok) return;
        this.logger.warn(
          { jobId: event.jobId, status: response.status, attempt },
          "webhook answered an error",
        );
      } catch (error) {
        this.logger.warn({ jobId: event.jobId, attempt, err: error }, "webhook delivery failed");
      }
      if (attempt < ATTEMPTS)
        await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs * attempt));
    }
  }
}

// /metrics (docs/OPERATIONS.md, Metrics): served only to the token or on a port of its own, and read back
// through a real Prometheus after known traffic.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { listenForMetrics } from "../../src/http/metrics.ts";
import { generateToken, messageOf } from "../helpers/api.ts";
import { startMain, startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { createLink, onServer, timedLines } from "../helpers/factories.ts";
import { MediaKit } from "../helpers/media.ts";
import type { Child } from "../helpers/processes.ts";
import { prometheusBinary, startPrometheus } from "../helpers/prometheus.ts";
import { startSpeechServer } from "../helpers/speech-server.ts";
import { freePort, until, untilValue } from "../helpers/wait.ts";

const prometheus = prometheusBinary();
const TOKEN = "metrics-token-0123456789abcdef";

/** GET /metrics on the server, with `authorization` when given. */
const scrape = (url: string, authorization?: string) =>
  fetch(url, { headers: authorization === undefined ? {} : { authorization } });

/** The value of one sample line in the text format (`name{labels} value`), or undefined when absent. */
function sampleIn(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A webhook receiver on 127.0.0.1 that answers the first delivery with a 500 and every later one with 200. */
class FlakyReceiver {
  readonly statuses: string[] = [];
  private answered = 0;
  private readonly server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const failing = this.answered++ === 0;
      if (!failing) this.statuses.push((JSON.parse(body) as { status: string }).status);
      response.statusCode = failing ? 500 : 200;
      response.end();
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    if (address === null || typeof address === "string") throw new Error("no address");
    return `http://127.0.0.1:${address.port}/hook`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe.each(await dialects())("metrics on %s", (dialect) => {
  it("has no /metrics when neither RECAP_METRICS_TOKEN nor RECAP_METRICS_PORT is set", async () => {
    const server = await startTestServer(dialect);
    try {
      const answer = await scrape(`${server.url}/metrics`, `Bearer ${TOKEN}`);
      expect(answer.status).toBe(404);
      expect(await messageOf(answer)).toBe("Route GET /metrics not found");
    } finally {
      await server.close();
    }
  });

  describe("on the app's port with RECAP_METRICS_TOKEN", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(dialect, { env: { RECAP_METRICS_TOKEN: TOKEN } });
    });
    afterAll(() => server.close());

    it("answers 401 without the token, with another one or in another scheme; the token reads the text format", async () => {
      const url = `${server.url}/metrics`;
      for (const authorization of [
        undefined,
        `Bearer ${TOKEN}x`,
        `Bearer ${TOKEN.slice(1)}`,
        `Basic ${TOKEN}`,
      ]) {
        const refused = await scrape(url, authorization);
        expect(refused.status, authorization).toBe(401);
        expect(refused.headers.get("www-authenticate")).toBe("Bearer");
        expect(await messageOf(refused)).toBe("/metrics needs 'Authorization: Bearer <RECAP_METRICS_TOKEN>'");
      }
      const answer = await scrape(url, `Bearer ${TOKEN}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      const text = await answer.text();
      expect(text).toContain("# TYPE http_request_duration_seconds histogram");
      expect(sampleIn(text, "process_cpu_seconds_total")).toBeGreaterThan(0);
      expect(sampleIn(text, 'recap_jobs{kind="text",state="scheduled"}')).toBe(0);
      // SQLite has no pool to report; PostgreSQL's is RECAP_DATABASE_POOL_SIZE (10 by default).
      expect(sampleIn(text, "recap_database_pool_max_connections")).toBe(
        dialect === "postgres" ? 10 : undefined,
      );
    });

    it("labels a request by its route's template, and every unknown path as one route", async () => {
      const { token } = await server.newApp();
      const path = "/v1/conversations/1234567890123456";
      expect((await server.api(token, path)).status).toBe(404);
      const unknown = `/no-such-${randomBytes(6).toString("hex")}`;
      expect((await fetch(server.url + unknown)).status).toBe(404);
      const text = await (await scrape(`${server.url}/metrics`, `Bearer ${TOKEN}`)).text();
      expect(
        sampleIn(
          text,
          'http_request_duration_seconds_count{method="GET",route="/v1/conversations/:conversationId",status_code="404"}',
        ),
      ).toBe(1);
      expect(
        sampleIn(
          text,
          'http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}',
        ),
      ).toBe(1);
      expect(text).not.toContain(unknown);
      expect(text).not.toContain(path);
    });

    it("counts live connections while they are open", async () => {
      const { token } = await server.newApp();
      const open = async () =>
        sampleIn(
          await (await scrape(`${server.url}/metrics`, `Bearer ${TOKEN}`)).text(),
          "recap_live_connections",
        );
      expect(await open()).toBe(0);
      const socket = new WebSocket(
        `${server.url.replace("http", "ws")}/v1/streaming/metrics-test?access_token=${token}`,
      );
      await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
      expect(await untilValue(async () => ((await open()) === 1 ? 1 : undefined), 10_000)).toBe(1);
      socket.close();
      expect(await untilValue(async () => ((await open()) === 0 ? 0 : undefined), 10_000)).toBe(0);
    });
  });

  it("serves the app's metrics on a listener of their own, asking for the token when one is set", async () => {
    const server = await startTestServer(dialect, { env: { RECAP_METRICS_PORT: String(await freePort()) } });
    // What main.ts starts on RECAP_METRICS_PORT, here with a token as well.
    const listener = await listenForMetrics({
      metrics: server.metrics,
      token: TOKEN,
      port: await freePort(),
      host: "127.0.0.1",
      logger: pino({ level: "silent" }),
    });
    try {
      // Without RECAP_METRICS_TOKEN the app's own port has no /metrics.
      expect((await scrape(`${server.url}/metrics`, `Bearer ${TOKEN}`)).status).toBe(404);
      for (const authorization of [undefined, `Bearer ${TOKEN}x`]) {
        const refused = await scrape(listener.url, authorization);
        expect(refused.status).toBe(401);
        expect(refused.headers.get("www-authenticate")).toBe("Bearer");
      }
      const answer = await scrape(listener.url, `Bearer ${TOKEN}`);
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(
        sampleIn(
          text,
          'http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}',
        ),
      ).toBe(1);
      expect((await fetch(listener.url, { method: "POST" })).status).toBe(405);
    } finally {
      await listener.close();
      await server.close();
    }
  });

  it("reports a media job's recognised seconds, the time recognising them and its queue wait apart from its work", async () => {
    const kit = new MediaKit();
    const speech = await startSpeechServer("openai", () => "Dana will send the numbers by Friday");
    // A slow engine: each answer is held this long, so the recognition takes at least as long.
    speech.delayMs = 500;
    const server = await startTestServer(dialect, {
      env: { RECAP_ASR_URL: speech.url, RECAP_MEDIA_DIR: join(kit.dir, "store") },
    });
    try {
      const { token } = await server.newApp();
      const recording = await kit.speech(
        [{ text: "Dana will send the numbers by Friday", atSeconds: 1 }],
        12,
      );
      const response = await fetch(`${server.url}/v1/process/audio`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
        body: readFileSync(recording),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      const { jobId } = (await response.json()) as { jobId: string };
      expect(await waitForJob(server, token, jobId)).toBe("completed");

      const { body: text } = await server.metrics.scrape();
      const media = sampleIn(text, "recap_transcription_media_seconds_total");
      const processing = sampleIn(text, "recap_transcription_processing_seconds_total");
      expect(media).toBeCloseTo(12, 1);
      expect(processing).toBeGreaterThanOrEqual(0.5);
      expect(sampleIn(text, "recap_transcription_real_time_factor_count")).toBe(1);
      expect(sampleIn(text, "recap_transcription_real_time_factor_sum")).toBeCloseTo(processing! / media!, 6);
      expect(sampleIn(text, 'recap_job_queue_wait_seconds_count{kind="media"}')).toBe(1);
      expect(sampleIn(text, 'recap_job_work_seconds_count{kind="media",outcome="completed"}')).toBe(1);
      expect(
        sampleIn(text, 'recap_job_work_seconds_sum{kind="media",outcome="completed"}'),
      ).toBeGreaterThanOrEqual(processing!);
      expect(sampleIn(text, 'recap_job_queue_wait_seconds_count{kind="text"}')).toBeUndefined();
    } finally {
      await server.close();
      await speech.close();
      kit.close();
    }
  });

  describe.skipIf(prometheus === null)("scraped by a real Prometheus", () => {
    it("reads back through Prometheus' query API what known traffic did", async () => {
      const server = await startTestServer(dialect, {
        env: {
          RECAP_METRICS_TOKEN: TOKEN,
          RECAP_TOKEN_RATE_LIMIT_PER_MINUTE: "2",
          RECAP_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
        },
      });
      const receiver = new FlakyReceiver();
      const webhookUrl = await receiver.listen();
      const scraper = await startPrometheus(prometheus!, { target: new URL(server.url).host, token: TOKEN });
      try {
        // Three text submissions, the first with a webhook whose first delivery fails.
        const { appId, appSecret, token } = await server.newApp();
        const conversations: string[] = [];
        for (let i = 0; i < 3; i++) {
          const accepted = await server.ingest(token, {
            name: `Planning ${i}`,
            messages: timedLines([
              ["Ann Lee", "Good morning, let's start with the budget."],
              ["Bob Stone", "I will send the report by Friday."],
            ]),
            ...(i === 0 && { webhookUrl }),
          });
          conversations.push(accepted.conversationId);
        }
        await until(() => receiver.statuses.includes("completed"), "the webhook's last event", {
          tries: 200,
          everyMs: 100,
        });
        expect(receiver.statuses).toEqual(["scheduled", "in_progress", "completed"]);

        // A route with a parameter, a path no route has, a summary page seen twice, a refused token request.
        expect((await server.api(token, `/v1/conversations/${conversations[0]}`)).status).toBe(200);
        expect((await fetch(`${server.url}/no-such-page`)).status).toBe(404);
        const link = await createLink(server, token, conversations[0]!, { name: "verbose-text-summary" });
        for (let i = 0; i < 2; i++) {
          const page = await fetch(onServer(server, link.url));
          expect(page.status).toBe(200);
          await page.arrayBuffer();
        }
        const tokenStatuses = [];
        for (let i = 0; i < 3; i++)
          tokenStatuses.push((await generateToken(server.url, appId, appSecret)).status);
        expect(tokenStatuses).toEqual([200, 200, 429]);

        // Every figure was counted before its answer was read; a scrape that started later has them all.
        await scraper.scrapedAfter(Date.now() + 250);
        const value = (expression: string) => scraper.value(expression);
        const requests = (labels: string) =>
          value(`http_request_duration_seconds_count{job="recap",${labels}}`);
        expect(await requests('method="POST",route="/v1/process/text",status_code="201"')).toBe(3);
        expect(
          await requests('method="GET",route="/v1/conversations/:conversationId",status_code="200"'),
        ).toBe(1);
        expect(await requests('method="GET",route="unmatched",status_code="404"')).toBe(1);
        expect(await requests('method="GET",route="/s/:link",status_code="200"')).toBe(2);
        expect(await requests('method="POST",route="/oauth2/token::generate",status_code="200"')).toBe(2);
        expect(await requests('method="POST",route="/oauth2/token::generate",status_code="429"')).toBe(1);
        expect(await scraper.query('http_request_duration_seconds_count{route=~".*no-such.*"}')).toEqual([]);

        expect(await value('recap_rate_limit_refusals_total{limit="credentials"}')).toBe(1);
        expect(await value('recap_rate_limit_refusals_total{limit="app"}')).toBe(0);
        expect(await value('recap_job_queue_wait_seconds_count{kind="text"}')).toBe(3);
        expect(await value('recap_job_work_seconds_count{kind="text",outcome="completed"}')).toBe(3);
        expect(await scraper.query('recap_job_work_seconds_count{outcome!="completed"}')).toEqual([]);
        expect(await value('recap_jobs{kind="text",state="scheduled"}')).toBe(0);
        expect(await value('recap_jobs{kind="text",state="in_progress"}')).toBe(0);
        expect(await value('recap_webhook_attempts_total{outcome="delivered"}')).toBe(3);
        expect(await value('recap_webhook_attempts_total{outcome="failed"}')).toBe(1);
        expect(await value('recap_webhook_attempts_total{outcome="abandoned"}')).toBe(0);
        expect(await value("recap_link_views_total")).toBe(2);
        expect(await value('recap_page_cache_lookups_total{result="miss"}')).toBe(1);
        expect(await value('recap_page_cache_lookups_total{result="hit"}')).toBe(1);
        expect(await value("recap_page_cache_bytes")).toBeGreaterThan(0);
        expect(await value("recap_live_connections")).toBe(0);
        expect(await value("process_resident_memory_bytes")).toBeGreaterThan(0);
        if (dialect === "postgres") {
          expect(await value("recap_database_pool_max_connections")).toBe(10);
          expect(await value("recap_database_pool_connections")).toBeGreaterThan(0);
        } else {
          expect(await scraper.query('{__name__=~"recap_database_pool_.*"}')).toEqual([]);
        }
      } finally {
        await scraper.close();
        await receiver.close();
        await server.close();
      }
    });
  });
});

// main.ts starts the metrics' own listener; one dialect is enough (the listener knows no database).
describe("RECAP_METRICS_PORT on the server process", () => {
  let child: Child | undefined;
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    child?.process.kill("SIGKILL");
    await database?.drop();
  });

  it("serves /metrics there without a token when none is set, and not on the API's port", async () => {
    const metricsPort = await freePort();
    child = startMain(database, 0, [], {
      HOST: "127.0.0.1",
      RECAP_FONT_CATALOGUE_URL: "off",
      RECAP_METRICS_PORT: String(metricsPort),
      RECAP_METRICS_TOKEN: "",
    });
    const output = child.output;
    const apiUrl = await untilValue(
      () => /Recap listening on (http:\/\/[\d.]+:\d+)/.exec(output())?.[1],
      60_000,
    );
    const metricsUrl = await untilValue(
      () => /Metrics served on (http:\/\/\S+\/metrics)/.exec(output())?.[1],
      60_000,
    );
    if (apiUrl === undefined || metricsUrl === undefined)
      throw new Error(`the server did not start:\n${output()}`);
    expect(metricsUrl).toBe(`http://127.0.0.1:${metricsPort}/metrics`);

    const answer = await scrape(metricsUrl);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
    expect(sampleIn(text, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect((await scrape(`${apiUrl}/metrics`)).status).toBe(404);
    const elsewhere = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
    expect(elsewhere.status).toBe(404);
    expect(await messageOf(elsewhere)).toBe("Route GET /healthz not found");
  });
});

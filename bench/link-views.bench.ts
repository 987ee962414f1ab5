/**
 * What counting a view costs the page: GET /s/{token} through the real app with view counting on, and with
 * `linkViews.record` replaced by a no-op in the same run, interleaved in rounds so both see the same machine.
 * A small page (three lines) makes the counting's share as large as it gets. Every request has its own
 * user agent, so each is a new viewer (a hash and a set entry, the dearest case); the batched writes happen
 * during the run, as in production. Times are medians of sequential requests on one keep-alive connection.
 *
 * Usage: node --import tsx bench/link-views.bench.ts   (writes bench/results/link-views.txt)
 */
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import { apiClient } from "../test/helpers/api.ts";
import { startTestServer } from "../test/helpers/app.ts";
import type * as Body from "../test/helpers/bodies.ts";
import { createLink, onServer, planningMeeting } from "../test/helpers/factories.ts";
import { median } from "./timing.ts";

const ROOT = resolve(import.meta.dirname, "..");
const RUNS = 200;
const WARMUP = 20;
const ROUNDS = 4;

// Page views by one address would soon reach the per-address rate limit, which is not what is measured.
const server = await startTestServer("sqlite", { env: { RECAP_RATE_LIMIT_PER_MINUTE: "0" } });
const lines: string[] = [];
try {
  const { token } = await server.newApp();
  const conversationId = await planningMeeting(server, token);
  const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
  const pageUrl = onServer(server, link.url);
  let viewer = 0;
  const timeRequests = async (): Promise<number[]> => {
    const once = async () => {
      const start = performance.now();
      const response = await fetch(pageUrl, { headers: { "user-agent": `bench viewer ${viewer++}` } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${pageUrl} answered ${response.status}`);
      return performance.now() - start;
    };
    for (let i = 0; i < WARMUP; i++) await once();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await once());
    return times;
  };

  const { linkViews } = server.services;
  const counted0 = "bench-record-only";
  const record = linkViews.record.bind(linkViews);
  const counting: number[] = [];
  const notCounting: number[] = [];
  // Which goes first alternates between rounds, so neither gains from its place in the round.
  for (let round = 0; round < ROUNDS; round++) {
    for (const counted of round % 2 === 0 ? [true, false] : [false, true]) {
      linkViews.record = counted ? record : () => undefined;
      (counted ? counting : notCounting).push(...(await timeRequests()));
    }
  }
  linkViews.record = record;
  // record() alone, in process: what each view adds to the request (a hash and a set entry).
  const recordTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    for (let n = 0; n < 10_000; n++)
      record(counted0, { address: `10.0.0.${n % 250}`, userAgent: `bench ${n}` });
    recordTimes.push(((performance.now() - start) * 1000) / 10_000);
  }
  await linkViews.flush();
  const listed = await apiClient(server.url, token).get<Body.ExperienceLinkList>("/v1/experiences");
  const counted = listed.body.experiences[0];

  const withMs = median(counting);
  const withoutMs = median(notCounting);
  lines.push(
    `Link view counting bench (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"})`,
    `GET /s/{token} of a three-line meeting (SQLite), median of ${counting.length} sequential requests each ` +
      `(${ROUNDS} interleaved rounds of ${RUNS}, after warm-up), every request a new viewer:`,
    `  counting views (record + batched writes): ${withMs.toFixed(2)} ms`,
    `  record replaced by a no-op:               ${withoutMs.toFixed(2)} ms`,
    `  ratio with / without:                     ${(withMs / withoutMs).toFixed(3)} ×`,
    `  record() alone, in process (median of 5 × 10,000 new viewers): ${median(recordTimes).toFixed(1)} µs a view`,
    `Counted afterwards: ${counted?.views ?? 0} views, ${counted?.distinctViewers ?? 0} distinct viewers ` +
      `(${ROUNDS * (RUNS + WARMUP)} requests counted)`,
  );
} finally {
  await server.close();
}
const report = lines.join("\n") + "\n";
process.stdout.write(report);
writeFileSync(join(ROOT, "bench/results/link-views.txt"), report);

/**
 * The summary page of a very long meeting beside a one-hour one, in the same run: QMSum val/Bed015 (a
 * real meeting of about an hour, 1,257 lines) and 17,000 lines of QMSum train meetings one after another
 * (a 4 MB process/text body). For each: the page's bytes as sent, the first GET of the page (nothing of it
 * rendered yet) and the first GET after a change (a rename through the link), each with the longest
 * event-loop stall the server had while answering it, a GET of the kept page, and in Chromium the time to
 * DOMContentLoaded (with the page's script), the document's height and the transcript lines in it.
 *
 * Usage: npm run build:client && node --import tsx bench/long-page.bench.ts   (writes bench/results/long-page.txt)
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { launchChromium } from "../test/browser/browser.ts";
import { startTestServer } from "../test/helpers/app.ts";
import { createLink, onServer } from "../test/helpers/factories.ts";
import { getBytes } from "../test/helpers/raw-http.ts";
import { joinedMeetings, loadMeeting, toProcessTextBody } from "../test/helpers/qmsum.ts";
import { median } from "./timing.ts";

const ROOT = resolve(import.meta.dirname, "..");
const LONG_LINES = 17_000;
const KEPT_RUNS = 10;
const BROWSER_RUNS = 3;

execFileSync("node", [join(ROOT, "scripts/build-client.mjs")]);
const server = await startTestServer("sqlite", { env: { RECAP_RATE_LIMIT_PER_MINUTE: "0" } });
const browser = await launchChromium();
const stalls = monitorEventLoopDelay({ resolution: 1 });
stalls.enable();

/** One GET of `url`: its time and the longest event-loop stall while it was answered, in ms. */
async function timedGet(url: string): Promise<{ ms: number; stall: number; bytes: number }> {
  stalls.reset();
  const start = performance.now();
  const response = await fetch(url);
  const bytes = (await response.arrayBuffer()).byteLength;
  const ms = performance.now() - start;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  // The histogram hears of a stall when its timer fires after it: let it fire before reading.
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { ms, stall: stalls.max / 1e6, bytes };
}

/** Opens the page in a fresh Chromium context: DOMContentLoaded (ms after navigation start), height, lines. */
async function inChromium(url: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "load" });
  const measured = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    return {
      contentLoaded: navigation?.domContentLoadedEventEnd ?? NaN,
      height: document.documentElement.scrollHeight,
      lines: document.querySelectorAll(".line").length,
    };
  });
  await context.close();
  return measured;
}

const lines: string[] = [];
try {
  const { token } = await server.newApp();
  const meetings = [
    { label: "Bed015 (about an hour)", body: toProcessTextBody(loadMeeting("val", "Bed015.json")) },
    { label: `${LONG_LINES.toLocaleString("en")} lines`, body: joinedMeetings("train", LONG_LINES) },
  ];
  const results = [];
  for (const { label, body } of meetings) {
    const { conversationId } = await server.ingest(token, body);
    const url = onServer(
      server,
      (await createLink(server, token, conversationId, { name: "verbose-text-summary", readOnly: true })).url,
    );
    const editable = onServer(
      server,
      (await createLink(server, token, conversationId, { name: "verbose-text-summary" })).url,
    );
    const first = await timedGet(url);
    const renamed = await fetch(`${editable}/conversation`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: `${body.name} (renamed)` }),
    });
    if (renamed.status !== 200) throw new Error(`rename answered ${renamed.status}`);
    const afterChange = await timedGet(url);
    const kept: number[] = [];
    for (let i = 0; i < KEPT_RUNS; i++) kept.push((await timedGet(url)).ms);
    const sizes = [];
    for (const encoding of ["identity", "gzip", "br"]) {
      sizes.push(
        `${encoding} ${(await getBytes(url, { "accept-encoding": encoding })).body.length.toLocaleString("en")} B`,
      );
    }
    const opened = [];
    for (let i = 0; i < BROWSER_RUNS; i++) opened.push(await inChromium(url));
    results.push({
      label,
      count: body.messages.length,
      first,
      afterChange,
      kept: median(kept),
      sizes,
      contentLoaded: median(opened.map((o) => o.contentLoaded)),
      height: opened[0]?.height ?? 0,
      domLines: opened[0]?.lines ?? 0,
    });
  }
  lines.push(
    `Long page bench (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"})`,
    "A read-only verbose-text-summary page (SQLite); times in ms; a stall is the longest the server's event loop",
    "was held while answering (monitorEventLoopDelay).",
    "",
  );
  for (const r of results) {
    lines.push(
      `${r.label}: ${r.count.toLocaleString("en")} lines`,
      `  page as sent: ${r.sizes.join(" · ")}`,
      `  first GET (nothing rendered yet):  ${r.first.ms.toFixed(0)} ms, stall ${r.first.stall.toFixed(0)} ms`,
      `  first GET after a rename:          ${r.afterChange.ms.toFixed(0)} ms, stall ${r.afterChange.stall.toFixed(0)} ms`,
      `  GET of the kept page (median of ${KEPT_RUNS}): ${r.kept.toFixed(1)} ms`,
      `  Chromium, 1366×900 (median of ${BROWSER_RUNS}): DOMContentLoaded ${r.contentLoaded.toFixed(0)} ms; ` +
        `document ${r.height.toLocaleString("en")} px tall, ${r.domLines.toLocaleString("en")} lines in it`,
      "",
    );
  }
  const [hour, long] = results;
  if (hour && long) {
    lines.push(
      "The long meeting against the one-hour one:",
      `  DOMContentLoaded ${(long.contentLoaded / hour.contentLoaded).toFixed(2)} ×, ` +
        `first GET ${(long.first.ms / hour.first.ms).toFixed(2)} ×, ` +
        `longest stall ${(long.first.stall / hour.first.stall).toFixed(2)} ×, ` +
        `page bytes ${(long.first.bytes / hour.first.bytes).toFixed(2)} ×`,
    );
  }
} finally {
  stalls.disable();
  await browser.close();
  await server.close();
}
const report = lines.join("\n") + "\n";
process.stdout.write(report);
writeFileSync(join(ROOT, "bench/results/long-page.txt"), report);

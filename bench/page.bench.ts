/**
 * The summary page for the largest QMSum val meeting (Bed015): server render time through the real app
 * (link check, database reads, rendering) and of the pure render function alone, beside serving the same
 * bytes as a static file from a plain node:http server in the same run; the bytes each form of the page
 * takes on the wire per Accept-Encoding; and the gzipped size of the page's script and stylesheet. Times are
 * medians of sequential requests on one keep-alive connection (fetch asks for gzip, as browsers do).
 *
 * Usage: npm run build:client && node --import tsx bench/page.bench.ts   (writes bench/results/page.txt)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { getBytes } from "../test/helpers/raw-http.ts";
import { renderPage } from "../src/pages/render-page.ts";
import { startTestServer } from "../test/helpers/app.ts";
import { loadMeeting, toProcessTextBody } from "../test/helpers/qmsum.ts";
import { median } from "./timing.ts";

const ROOT = resolve(import.meta.dirname, "..");
const RUNS = 40;
const WARMUP = 8;
const MEETING = "Bed015.json";

async function timeRequests(url: string): Promise<number[]> {
  const once = async () => {
    const start = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    return performance.now() - start;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await once());
  return times;
}

execFileSync("node", [join(ROOT, "scripts/build-client.mjs")]);
const server = await startTestServer("sqlite");
const staticDir = mkdtempSync(join(tmpdir(), "recap-bench-"));
const lines: string[] = [];
try {
  const { token } = await server.newApp();
  const { conversationId } = await server.ingest(token, toProcessTextBody(loadMeeting("val", MEETING)));
  const created = await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
    method: "POST",
    body: {
      name: "verbose-text-summary",
      color: { background: "#10243e" },
      font: { family: "Source Sans 3" },
    },
  });
  const linkUrl = new URL(((await created.json()) as { url: string }).url);
  const pageUrl = server.url + linkUrl.pathname;

  // The same bytes, written to a file and served by node:http reading the file on every request.
  const html = Buffer.from(await (await fetch(pageUrl)).arrayBuffer());
  const file = join(staticDir, "page.html");
  writeFileSync(file, html);
  const staticServer = createServer((_request, response) => {
    const body = readFileSync(file);
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length });
    response.end(body);
  });
  await new Promise<void>((done) => staticServer.listen(0, "127.0.0.1", done));
  const staticUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}/page.html`;

  // Interleave the two so both see the same machine state.
  const pageTimes: number[] = [];
  const staticTimes: number[] = [];
  for (let round = 0; round < 3; round++) {
    pageTimes.push(...(await timeRequests(pageUrl)));
    staticTimes.push(...(await timeRequests(staticUrl)));
  }
  staticServer.close();

  const linkToken = linkUrl.pathname.split("/").pop() ?? "";
  const openPage = async () =>
    server.services.summaryPage.open(
      await server.services.experiences.openLink(linkToken, linkUrl.host),
      linkToken,
    );
  const { view } = await openPage();
  const readTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await openPage();
    readTimes.push(performance.now() - start);
  }
  const renderTimes: number[] = [];
  const context = {
    styleNonce: "n",
    scriptUrl: "s.js",
    stylesheetUrl: "s.css",
    fontStylesheetUrl: null,
    selfPath: "t",
    verbatim: false,
    part: null,
  };
  // The page as the route sends it: its bytes.
  const render = () => renderPage(view, context).bytes;
  for (let i = 0; i < WARMUP; i++) render();
  for (let i = 0; i < RUNS * 3; i++) {
    const start = performance.now();
    render();
    renderTimes.push(performance.now() - start);
  }

  // Bytes on the wire as the server sends them for each Accept-Encoding (compressed by @fastify/compress).
  const transferred: string[] = [];
  for (const [label, url] of [
    ["page HTML", pageUrl],
    ["JSON     ", `${pageUrl}.json`],
    ["Markdown ", `${pageUrl}.md`],
  ] as const) {
    const sizes: string[] = [];
    for (const encoding of ["identity", "gzip", "br"]) {
      const answer = await getBytes(url, { "accept-encoding": encoding });
      sizes.push(`${encoding} ${answer.body.length.toLocaleString("en")} B`);
    }
    transferred.push(`  ${label}  ${sizes.join(" · ")}`);
  }

  const js = readFileSync(join(ROOT, "public/page.js"));
  const css = readFileSync(join(ROOT, "public/page.css"));
  const gz = (buffer: Buffer) => gzipSync(buffer, { level: 9 }).length;
  const pageMs = median(pageTimes);
  const staticMs = median(staticTimes);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

  lines.push(
    `Summary page bench (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"})`,
    `Meeting: QMSum val/${MEETING}: ${view.messages.length} lines, ${view.attendees.length} attendees, ` +
      `${view.summary.length} summary items, ${view.topics.length} topics, ${view.insights.length} insights (SQLite)`,
    `Page HTML: ${kb(html.length)} (${kb(gz(html))} gzipped)`,
    "",
    `median of ${pageTimes.length} sequential requests (3 interleaved rounds of ${RUNS}, after warm-up):`,
    `  GET /s/{token} through the app (link check + reads + render): ${pageMs.toFixed(2)} ms`,
    `  the same bytes as a static file (node:http + readFileSync):   ${staticMs.toFixed(2)} ms`,
    `  ratio app / static:                                           ${(pageMs / staticMs).toFixed(1)} ×`,
    `  openLink + summaryPage.open alone: the database reads (median of ${readTimes.length}): ${median(readTimes).toFixed(2)} ms`,
    `  renderPage(view) to bytes, in process (median of ${renderTimes.length}):       ${median(renderTimes).toFixed(2)} ms`,
    "",
    "Transferred, by Accept-Encoding:",
    ...transferred,
    "",
    `Browser assets (gzip -9): page.js ${kb(gz(js))} (${kb(js.length)} raw) + page.css ${kb(gz(css))} (${kb(css.length)} raw) = ${kb(gz(js) + gz(css))} of the 40 KB budget`,
  );
} finally {
  await server.close();
  rmSync(staticDir, { recursive: true, force: true });
}
const report = lines.join("\n") + "\n";
process.stdout.write(report);
writeFileSync(join(ROOT, "bench/results/page.txt"), report);

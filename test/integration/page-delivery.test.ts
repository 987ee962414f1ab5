// How the page reaches a browser: its web font from its own origin, compression, and validators. None of
// this touches the database beyond opening a link, so it runs on SQLite only.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { createLink, onServer, planningMeeting, timedLines } from "../helpers/factories.ts";
import { startFontCatalogue, TEST_FONT, type FontCatalogue } from "../helpers/font-catalogue.ts";
import { ROOT } from "../helpers/processes.ts";
import { getBytes } from "../helpers/raw-http.ts";

/** The directives of a page's CSP, by name. */
function directives(csp: string | null): Map<string, string> {
  return new Map(
    (csp ?? "").split(";").map((part) => {
      const [name = "", ...values] = part.trim().split(" ");
      return [name, values.join(" ")];
    }),
  );
}

/** A port nothing listens on (taken and released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

async function brandedPage(server: TestServer, family: string): Promise<string> {
  const { token } = await server.newApp();
  const id = await planningMeeting(server, token);
  const link = await createLink(server, token, id, { name: "verbose-text-summary", font: { family } });
  return onServer(server, link.url);
}

describe("the page's web font", () => {
  let catalogue: FontCatalogue;
  let server: TestServer;

  beforeAll(async () => {
    catalogue = await startFontCatalogue();
    server = await startTestServer("sqlite", { env: catalogue.env });
  });
  afterAll(async () => {
    await server.close();
    await catalogue.close();
  });

  it("is fetched once, kept on disk and served from the page's own origin; the CSP names no other font host", async () => {
    const pageUrl = await brandedPage(server, "Source Sans 3");
    const pages = await Promise.all(Array.from({ length: 5 }, () => fetch(pageUrl)));
    expect(catalogue.requests).toEqual(["/css2?family=Source+Sans+3&display=swap", "/files/latin-400.woff2"]);

    for (const page of pages) {
      const csp = directives(page.headers.get("content-security-policy"));
      expect(csp.get("font-src")).toBe("'self'");
      expect(csp.get("style-src")).toMatch(/^'self' 'nonce-[\w+/=]+'$/);
      const html = await page.text();
      expect(html).not.toContain(catalogue.url);
      expect(html).toMatch(/<link rel="stylesheet" href="\.\.\/assets\/fonts\/[0-9a-f]{32}\.css" \/>/);
    }
    const html = await (await fetch(pageUrl)).text();
    const cssUrl = new URL(/href="(\.\.\/assets\/fonts\/[^"]+)"/.exec(html)?.[1] ?? "", pageUrl);
    const css = await fetch(cssUrl);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const stylesheet = await css.text();
    expect(stylesheet).toMatch(
      /^@font-face\{font-family:"Source Sans 3";src:url\([0-9a-f]{32}\.woff2\) format\("woff2"\);font-style:normal;font-weight:400;font-display:swap;unicode-range:U\+0000-00FF/,
    );
    const fontUrl = new URL(/url\(([^)]+)\)/.exec(stylesheet)?.[1] ?? "", cssUrl);
    const font = await getBytes(fontUrl.href);
    expect(font.status).toBe(200);
    expect(font.headers["content-type"]).toBe("font/woff2");
    expect(font.headers["content-encoding"]).toBeUndefined();
    expect(font.body.equals(TEST_FONT)).toBe(true);
    expect(catalogue.requests).toHaveLength(2);

    // A restart with the catalogue gone still serves the font from the cache directory.
    const again = await startTestServer("sqlite", {
      env: { ...catalogue.env, RECAP_FONT_CATALOGUE_URL: `http://127.0.0.1:${await closedPort()}` },
    });
    try {
      const restartedPage = await (await fetch(await brandedPage(again, "Source Sans 3"))).text();
      expect(restartedPage).toContain(cssUrl.pathname.slice("/assets/fonts/".length));
      const cached = await getBytes(`${again.url}${fontUrl.pathname}`);
      expect(cached.body.equals(TEST_FONT)).toBe(true);
    } finally {
      await again.close();
    }
  });

  it("falls back to a system font, saying nothing, when the catalogue is down or lacks the family", async () => {
    const emptyCache = mkdtempSync(join(tmpdir(), "recap-fonts-"));
    const down = await startTestServer("sqlite", {
      env: {
        RECAP_FONT_CATALOGUE_URL: `http://127.0.0.1:${await closedPort()}`,
        RECAP_FONT_CACHE_DIR: emptyCache,
      },
    });
    try {
      for (const [where, family] of [
        [down, "Source Sans 3"],
        [server, "No Such Family"],
      ] as const) {
        const page = await fetch(await brandedPage(where, family));
        expect(page.status).toBe(200);
        expect(directives(page.headers.get("content-security-policy")).get("font-src")).toBe("'self'");
        const html = await page.text();
        expect(html).not.toContain("assets/fonts/");
        expect(html).toContain(`--font:"${family}", system-ui`);
        expect(html).not.toMatch(/unavailable|could not|failed|error/i);
      }
      expect(catalogue.requests.filter((path) => path.includes("No+Such+Family"))).toHaveLength(1);
    } finally {
      await down.close();
      rmSync(emptyCache, { recursive: true, force: true });
    }
  });

  it("fetches fonts only from allowed hosts, only woff2 and only so much, else falls back", async () => {
    // Another server on the catalogue's host: internal, and not the catalogue, so never asked.
    const decoy = await startFontCatalogue();
    for (const misbehaving of [
      { fontSource: "http://169.254.169.254/latest/meta-data.woff2" },
      { fontSource: `${decoy.url}/files/latin-400.woff2` },
      { fontSource: "https://user:secret@fonts.test/a.woff2" },
      { fontBody: Buffer.from("<html>not a font</html>") },
      { fontBody: Buffer.concat([TEST_FONT, Buffer.alloc(2 * 1024 * 1024)]) },
    ]) {
      const bad = await startFontCatalogue(misbehaving);
      const served = await startTestServer("sqlite", { env: bad.env });
      try {
        const html = await (await fetch(await brandedPage(served, "Source Sans 3"))).text();
        expect(html, JSON.stringify(misbehaving).slice(0, 80)).not.toContain("assets/fonts/");
        const fetchedFont = bad.requests.includes("/files/latin-400.woff2");
        expect(fetchedFont).toBe(misbehaving.fontBody !== undefined);
      } finally {
        await served.close();
        await bad.close();
      }
    }
    expect(decoy.requests).toEqual([]);
    await decoy.close();
  });

  it("never serves a file it did not cache, whatever the name", async () => {
    for (const name of ["0".repeat(32) + ".woff2", "..%2Fsecret", "recap.db", "x.family"]) {
      expect((await fetch(`${server.url}/assets/fonts/${name}`)).status, name).toBe(404);
    }
  });
});

describe("compression and validators", () => {
  let server: TestServer;
  let pageUrl: string;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, "public", "page.js")))
      execFileSync("node", [join(ROOT, "scripts/build-client.mjs")]);
    server = await startTestServer("sqlite");
    const { token } = await server.newApp();
    // Long enough that every form of the page is over the 1 KB below which nothing is compressed.
    const { conversationId } = await server.ingest(token, {
      name: "Budget review",
      messages: timedLines(
        Array.from({ length: 30 }, (_, i) => [
          i % 2 ? "Ann Lee" : "Bob Stone",
          `Line ${i} about the budget.`,
        ]),
      ),
    });
    pageUrl = onServer(
      server,
      (await createLink(server, token, conversationId, { name: "verbose-text-summary" })).url,
    );
  });
  afterAll(() => server.close());

  it("compresses the page, its JSON and Markdown and its assets with brotli or gzip as Accept-Encoding asks", async () => {
    const html = await (await fetch(pageUrl)).text();
    const script = new URL(/<script src="([^"]+)"/.exec(html)?.[1] ?? "", pageUrl).href;
    const styles = new URL(
      /<link rel="stylesheet" href="(\.\.\/assets\/page\.css[^"]*)"/.exec(html)?.[1] ?? "",
      pageUrl,
    ).href;
    // The page's nonce differs on every answer: compare its text without it.
    const withoutNonce = (text: string) => text.replace(/nonce="[^"]+"/, "");
    for (const url of [pageUrl, `${pageUrl}.json`, `${pageUrl}.md`, script, styles]) {
      const plain = await getBytes(url);
      expect(plain.headers["content-encoding"], url).toBeUndefined();
      const identity = await getBytes(url, { "accept-encoding": "identity" });
      expect(identity.headers["content-encoding"], url).toBeUndefined();
      for (const [accept, encoding, decode] of [
        ["gzip, deflate, br", "br", brotliDecompressSync],
        ["br;q=0.5, gzip", "gzip", gunzipSync],
        ["gzip", "gzip", gunzipSync],
      ] as const) {
        const packed = await getBytes(url, { "accept-encoding": accept });
        expect(packed.status, url).toBe(200);
        expect(packed.headers["content-encoding"], `${url} ${accept}`).toBe(encoding);
        expect(packed.headers.vary, url).toMatch(/accept-encoding/i);
        expect(packed.body.length, url).toBeLessThan(plain.body.length);
        expect(withoutNonce(decode(packed.body).toString("utf8")), url).toBe(
          withoutNonce(plain.body.toString("utf8")),
        );
      }
    }
    // The page still says which representation it is: Accept and Accept-Encoding both vary it.
    const page = await getBytes(pageUrl, { "accept-encoding": "br" });
    expect(page.headers.vary).toMatch(/accept\b.*accept-encoding|accept-encoding.*accept\b/i);
  });

  it("gives assets validators and answers 304 when the browser's copy is current", async () => {
    const html = await (await fetch(pageUrl)).text();
    const script = new URL(/<script src="([^"]+)"/.exec(html)?.[1] ?? "", pageUrl).href;
    const first = await getBytes(script, { "accept-encoding": "br" });
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers["last-modified"]);
    expect(etag).toMatch(/^"[0-9a-f]{12}"$/);
    expect(Date.parse(lastModified)).not.toBeNaN();
    expect(first.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    for (const headers of [
      { "if-none-match": etag },
      { "if-none-match": `"other", W/${etag}` },
      { "if-modified-since": lastModified },
    ] as Record<string, string>[]) {
      const again = await getBytes(script, { ...headers, "accept-encoding": "br" });
      expect(again.status, JSON.stringify(headers)).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
    const changed = await getBytes(script, { "if-none-match": '"other"', "if-modified-since": lastModified });
    expect(changed.status).toBe(200);
    expect(changed.body.length).toBeGreaterThan(0);
  });
});

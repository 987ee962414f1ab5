import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./processes.ts";

/** A real woff2 file (Source Sans 3, Latin, OFL: test/fixtures/fonts/README.md). */
export const TEST_FONT = readFileSync(join(ROOT, "test/fixtures/fonts/source-sans-3-latin-400-normal.woff2"));

export interface FontCatalogue {
  /** Its base URL, for RECAP_FONT_CATALOGUE_URL. */
  url: string;
  /** The path and query of every request it received, in order. */
  requests: string[];
  /** The environment of a server that fetches fonts from here into a fresh cache directory. */
  env: { RECAP_FONT_CATALOGUE_URL: string; RECAP_FONT_CACHE_DIR: string };
  close(): Promise<void>;
}

/**
 * A local stand-in for the public font catalogue, speaking its CSS2 API: `GET /css2?family=NAME&display=swap`
 * answers a stylesheet with one @font-face per family whose src is a URL on this server, and that URL answers
 * the real test font. `families` are the names it knows; any other is a 400, as the catalogue answers. A
 * misbehaving catalogue names another `fontSource` or answers another `fontBody`.
 */
export async function startFontCatalogue(
  options: { families?: string[]; fontSource?: string; fontBody?: Buffer } = {},
): Promise<FontCatalogue> {
  const { families = ["Source Sans 3"], fontBody = TEST_FONT } = options;
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://catalogue");
    requests.push(url.pathname + url.search);
    if (url.pathname === "/files/latin-400.woff2") {
      response.writeHead(200, { "content-type": "font/woff2" }).end(fontBody);
      return;
    }
    const family = url.searchParams.get("family") ?? "";
    if (url.pathname !== "/css2" || !families.includes(family)) {
      response.writeHead(400, { "content-type": "text/html" }).end("<p>Bad request</p>");
      return;
    }
    const address = server.address() as AddressInfo;
    response.writeHead(200, { "content-type": "text/css; charset=utf-8" }).end(`/* latin */
@font-face {
  font-family: '${family}';
  font-style: normal;
  font-weight: 400;
  font-display: ${url.searchParams.get("display") ?? "auto"};
  src: url(${options.fontSource ?? `http://127.0.0.1:${address.port}/files/latin-400.woff2`}) format('woff2');
  unicode-range: U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308;
}
`);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cacheDir = mkdtempSync(join(tmpdir(), "recap-fonts-"));
  return {
    url,
    requests,
    env: { RECAP_FONT_CATALOGUE_URL: url, RECAP_FONT_CACHE_DIR: cacheDir },
    close: async () => {
      await new Promise<void>((done) => server.close(() => done()));
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}

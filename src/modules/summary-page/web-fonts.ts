import { createHash } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { join } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../../clock.ts";
import { hostOf } from "../../urls.ts";
import { fontStylesheet, parseFontFaces } from "./font-faces.ts";

/** A file of the font cache, as the asset route serves it. */
export interface CachedFontFile {
  body: Buffer;
  contentType: string;
  modified: Date;
}

/** Where a font may be fetched from: the catalogue's host always, other hosts only at public addresses. */
export interface FontHostGuard {
  refusal(url: URL): string | null;
  lookup: LookupFunction;
}

export interface WebFontsOptions {
  /** The catalogue's base URL (CSS2 API shape), or null: no web fonts, every page uses a system font. */
  catalogueUrl: string | null;
  cacheDir: string;
  guard: FontHostGuard;
  clock: Clock;
  logger: FastifyBaseLogger;
}

const TIMEOUT_MS = 5_000;
const RETRY_AFTER_MS = 10 * 60_000;
const MAX_STYLESHEET_BYTES = 256 * 1024;
const MAX_FONT_BYTES = 2 * 1024 * 1024;
const MAX_FACES = 64;
/** The catalogue answers woff2 only to browsers it knows, so Recap asks as a current Chromium does. */
const USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const CACHED_FILE = /^[0-9a-f]{32}\.(css|woff2)$/;

const digest = (data: string | Buffer) => createHash("sha256").update(data).digest("hex").slice(0, 32);

/**
 * A link's web font, served from Recap's own origin: fetched from the font catalogue the first time a page
 * asks for its family (concurrent first requests share one fetch), kept on disk under content-hashed names,
 * and read from there on later requests and after a restart. A family the catalogue cannot give is logged
 * once and asked again only after ten minutes; meanwhile its pages use a system font.
 */
export class WebFonts {
  private readonly families = new Map<string, { result: Promise<string | null>; failedAt: number | null }>();

  constructor(private readonly options: WebFontsOptions) {}

  /** The served stylesheet's file name for a validated family name, or null when none can be had now. */
  stylesheetFor(family: string): Promise<string | null> {
    const key = family.toLowerCase();
    const known = this.families.get(key);
    const now = this.options.clock.now().getTime();
    if (known && (known.failedAt === null || now - known.failedAt < RETRY_AFTER_MS)) return known.result;
    const entry = { result: this.load(family), failedAt: null as number | null };
    this.families.set(key, entry);
    void entry.result.then((name) => {
      if (name === null) entry.failedAt = this.options.clock.now().getTime();
    });
    return entry.result;
  }

  /** A cached stylesheet or font file by its served name, or null when there is none. */
  async file(name: string): Promise<CachedFontFile | null> {
    const match = CACHED_FILE.exec(name);
    if (!match) return null;
    const path = join(this.options.cacheDir, name);
    try {
      const [body, info] = await Promise.all([readFile(path), stat(path)]);
      const contentType = match[1] === "css" ? "text/css; charset=utf-8" : "font/woff2";
      return { body, contentType, modified: info.mtime };
    } catch {
      return null;
    }
  }

  private async load(family: string): Promise<string | null> {
    const { catalogueUrl, cacheDir, logger } = this.options;
    if (catalogueUrl === null) return null;
    const index = join(cacheDir, `${digest(family.toLowerCase())}.family`);
    try {
      const cached = (await readFile(index, "utf8")).trim();
      if ((await this.file(cached)) !== null) return cached;
    } catch {
      // Not cached yet: fetched below.
    }
    try {
      const stylesheet = await this.fetchFamily(family, catalogueUrl);
      await this.store(index, Buffer.from(stylesheet.name));
      return stylesheet.name;
    } catch (error) {
      logger.warn(
        { family, catalogue: catalogueUrl, error: error instanceof Error ? error.message : String(error) },
        "web font unavailable; its pages use a system font",
      );
      return null;
    }
  }

  /** Fetches the family's stylesheet and every woff2 file it names, stores them, and returns its name. */
  private async fetchFamily(family: string, catalogueUrl: string): Promise<{ name: string }> {
    const signal = AbortSignal.timeout(TIMEOUT_MS);
    const cssUrl = new URL("css2", catalogueUrl.endsWith("/") ? catalogueUrl : `${catalogueUrl}/`);
    cssUrl.search = new URLSearchParams({ family, display: "swap" }).toString();
    const css = await this.get(cssUrl, MAX_STYLESHEET_BYTES, signal);
    if (!/^text\/css\b/i.test(css.contentType)) throw new Error(`the catalogue answered ${css.contentType}`);
    const faces = parseFontFaces(css.body.toString("utf8"), family);
    if (faces.length === 0) throw new Error(`the catalogue has no woff2 face of ${family}`);
    if (faces.length > MAX_FACES) throw new Error(`the catalogue named ${faces.length} faces`);

    const files = new Map<string, string>();
    for (const face of faces) {
      const url = new URL(face.source, cssUrl);
      if (files.has(url.href)) continue;
      const font = await this.get(url, MAX_FONT_BYTES, signal);
      if (font.body.subarray(0, 4).toString("latin1") !== "wOF2") throw new Error(`${url.href} is no woff2`);
      const name = `${digest(font.body)}.woff2`;
      await this.store(join(this.options.cacheDir, name), font.body);
      files.set(url.href, name);
    }
    const served = fontStylesheet(
      family,
      faces.map((face) => ({
        file: files.get(new URL(face.source, cssUrl).href) ?? "",
        descriptors: face.descriptors,
      })),
    );
    const name = `${digest(served)}.css`;
    await this.store(join(this.options.cacheDir, name), Buffer.from(served));
    return { name };
  }

  /** Writes a whole file or nothing (a reader never sees half of it). */
  private async store(path: string, body: Buffer): Promise<void> {
    await mkdir(this.options.cacheDir, { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    await writeFile(partial, body);
    await rename(partial, path);
  }

  /**
   * GETs one URL of the catalogue or a font host it names: http(s) only, never a redirect, never an
   * internal address other than the catalogue's own host, at most `maxBytes`, within the shared deadline.
   */
  private get(
    url: URL,
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<{ body: Buffer; contentType: string }> {
    const catalogue = new URL(this.options.catalogueUrl ?? "");
    // Plain http and an internal address only for the catalogue itself; any other port of its host is not it.
    const isCatalogue = url.origin === catalogue.origin;
    if (!isCatalogue && (url.protocol !== "https:" || hostOf(url) === hostOf(catalogue))) {
      return Promise.reject(new Error(`${url.href} is neither the catalogue nor an https font host`));
    }
    const refusal =
      url.username !== "" || url.password !== "" ? "credentials" : this.options.guard.refusal(url);
    if (refusal !== null) return Promise.reject(new Error(`${url.href} refused: ${refusal}`));
    const client = url.protocol === "https:" ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.get(
        url,
        {
          agent: false,
          signal,
          lookup: this.options.guard.lookup,
          headers: { "user-agent": USER_AGENT, accept: "text/css,font/woff2,*/*;q=0.1" },
        },
        (response) => {
          if (response.statusCode !== 200) {
            response.resume();
            reject(new Error(`${url.href} answered ${response.statusCode ?? 0}`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) request.destroy(new Error(`${url.href} is over ${maxBytes} bytes`));
            else chunks.push(chunk);
          });
          response.on("end", () =>
            resolve({ body: Buffer.concat(chunks), contentType: response.headers["content-type"] ?? "" }),
          );
          response.on("error", reject);
        },
      );
      request.on("error", reject);
    });
  }
}

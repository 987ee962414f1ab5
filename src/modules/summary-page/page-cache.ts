import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

/** How an answer's bytes travel: as made, or compressed as the client's Accept-Encoding allows. */
export type Encoding = "br" | "gzip" | "identity";

/** One form of a page (HTML, JSON, Markdown or text) as made for one content version of one link. */
export interface MadePage {
  contentType: string;
  /** The nonce its inline style carries, for the CSP; null for forms without one. */
  styleNonce: string | null;
  body: string;
}

interface Entry {
  page: MadePage;
  /** The body's bytes in each encoding asked for so far, each compressed once. */
  encoded: Map<Encoding, Promise<Buffer>>;
  size: number;
}

const compressors: Record<Exclude<Encoding, "identity">, (bytes: Buffer) => Promise<Buffer>> = {
  // The quality @fastify/compress uses for answers it compresses as they go.
  br: (bytes) => promisify(brotliCompress)(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (bytes) => promisify(gzip)(bytes),
};

/** Bodies this small are sent as they are, as @fastify/compress does below its threshold. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * The encoding to send: the one of brotli and gzip the client weighs higher (brotli on a tie; a q of 0
 * refuses, `*` accepts either), else the bytes as they are.
 */
export function preferredEncoding(acceptEncoding: string | undefined, size: number): Encoding {
  if (acceptEncoding === undefined || size < COMPRESS_FROM_BYTES) return "identity";
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    accepted.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const wildcard = accepted.get("*") ?? 0;
  const br = accepted.get("br") ?? wildcard;
  const gzipQ = accepted.get("gzip") ?? wildcard;
  if (br > 0 && br >= gzipQ) return "br";
  return gzipQ > 0 ? "gzip" : "identity";
}

/**
 * What summary links show, made once per content version and kept in this process (docs/PAGES.md,
 * Caching). Keys name everything a page's bytes depend on; the caller asks the database for the current
 * key on every request, so a stale entry is never found, only left to age out. Entries of one link
 * replace each other, and the least recently used go first once the cache holds `maxBytes`.
 */
export class PageCache {
  private readonly entries = new Map<string, Promise<Entry>>();
  private readonly keysOfLink = new Map<string, Set<string>>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /**
   * A link's page under `version` (everything else its bytes depend on) in the encoding chosen for its
   * size, made by `make` when this process has not made it yet (once, however many requests ask at the
   * same time). Entries of the same link under another version are dropped.
   */
  async get(
    link: string,
    version: string,
    make: () => Promise<MadePage>,
    encoding: (size: number) => Encoding,
  ): Promise<{ page: MadePage; bytes: Buffer; encoding: Encoding }> {
    const key = `${link}\u0000${version}`;
    let entry = this.entries.get(key);
    if (entry === undefined) {
      this.dropOtherVersions(link, key);
      entry = make().then((page) => ({ page, encoded: new Map(), size: Buffer.byteLength(page.body) }));
      this.entries.set(key, entry);
      const keys = this.keysOfLink.get(link) ?? new Set<string>();
      this.keysOfLink.set(link, keys.add(key));
      entry.then(
        (made) => this.account(key, made.size),
        () => this.forget(key, link),
      );
    } else {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    const made = await entry;
    const chosen = encoding(made.size);
    let bytes = made.encoded.get(chosen);
    if (bytes === undefined) {
      const identity = Buffer.from(made.page.body);
      bytes = chosen === "identity" ? Promise.resolve(identity) : compressors[chosen](identity);
      made.encoded.set(chosen, bytes);
      void bytes.then((done) => this.account(key, done.length));
    }
    return { page: made.page, bytes: await bytes, encoding: chosen };
  }

  private dropOtherVersions(link: string, key: string): void {
    for (const other of this.keysOfLink.get(link) ?? []) if (other !== key) this.forget(other, link);
  }

  private account(key: string, size: number): void {
    if (!this.entries.has(key)) return;
    this.sizes.set(key, (this.sizes.get(key) ?? 0) + size);
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes || oldest === key) break;
      this.forget(oldest, oldest.slice(0, oldest.indexOf("\u0000")));
    }
  }

  private forget(key: string, link: string): void {
    this.entries.delete(key);
    this.bytes -= this.sizes.get(key) ?? 0;
    this.sizes.delete(key);
    const keys = this.keysOfLink.get(link);
    keys?.delete(key);
    if (keys?.size === 0) this.keysOfLink.delete(link);
  }
}

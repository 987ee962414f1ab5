import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { PageCacheMetrics } from "../../metrics/metrics.ts";

/** How an answer's bytes travel: as made, or compressed as the client's Accept-Encoding allows. */
export type Encoding = "br" | "gzip" | "identity";

/** One form of a page (HTML, JSON, Markdown or text) as made for one content version of one link. */
export interface MadePage {
  contentType: string;
  /** The nonce its inline style carries, for the CSP; null for forms without one. */
  styleNonce: string | null;
  /** The HTML page comes as its UTF-8 bytes, the other forms as text. */
  body: string | Buffer;
}

interface Entry {
  /** The page's type and nonce; its body is kept only as bytes. */
  page: Omit<MadePage, "body">;
  /** The body's bytes as made (a made string is encoded once and not kept). */
  identity: Buffer;
  /** The body's bytes in each compressed encoding asked for so far, each compressed once. */
  encoded: Map<Exclude<Encoding, "identity">, Promise<Buffer>>;
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
 * What each process keeps of a page). Keys name everything a page's bytes depend on; the caller reads the
 * link's state and the conversation's content version on every request, so a stale entry is never found.
 * A link's entries at an older version are dropped, and the least recently used go first once the cache
 * holds `maxBytes`.
 */
export class PageCache {
  private readonly entries = new Map<string, Promise<Entry>>();
  /** Per link, the content version its entries show and their keys. */
  private readonly ofLink = new Map<string, { version: string; keys: Set<string> }>();
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly metrics: PageCacheMetrics,
  ) {}

  /** The bytes kept now, every encoding of every entry. */
  get heldBytes(): number {
    return this.bytes;
  }

  /**
   * A link's page at a content version, in one form (everything else its bytes depend on: format, font,
   * assets), in the encoding chosen for its size; made by `make` when this process has not made it yet
   * (once, however many requests ask at the same time). Entries of the link at another version are dropped.
   */
  async get(
    page: { link: string; version: string; form: string },
    make: () => Promise<MadePage>,
    encoding: (size: number) => Encoding,
  ): Promise<{ page: Omit<MadePage, "body">; bytes: Buffer; encoding: Encoding }> {
    const key = `${page.link}\u0000${page.version}\u0000${page.form}`;
    let entry = this.entries.get(key);
    this.metrics.looked(entry !== undefined);
    if (entry === undefined) {
      const known = this.ofLink.get(page.link);
      if (known !== undefined && known.version !== page.version) {
        for (const stale of known.keys) this.forget(stale);
      }
      const link = this.ofLink.get(page.link) ?? { version: page.version, keys: new Set<string>() };
      this.ofLink.set(page.link, link);
      link.keys.add(key);
      entry = make().then(({ body, ...made }) => ({
        page: made,
        identity: typeof body === "string" ? Buffer.from(body) : body,
        encoded: new Map(),
      }));
      this.entries.set(key, entry);
      entry.then(
        (made) => this.account(key, made.identity.length),
        () => this.forget(key),
      );
    } else {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    const made = await entry;
    const chosen = encoding(made.identity.length);
    if (chosen === "identity") return { page: made.page, bytes: made.identity, encoding: chosen };
    let bytes = made.encoded.get(chosen);
    if (bytes === undefined) {
      bytes = compressors[chosen](made.identity);
      made.encoded.set(chosen, bytes);
      void bytes.then((done) => this.account(key, done.length));
    }
    return { page: made.page, bytes: await bytes, encoding: chosen };
  }

  private account(key: string, size: number): void {
    if (!this.entries.has(key)) return;
    this.sizes.set(key, (this.sizes.get(key) ?? 0) + size);
    this.bytes += size;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes || oldest === key) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    this.entries.delete(key);
    this.bytes -= this.sizes.get(key) ?? 0;
    this.sizes.delete(key);
    const link = key.slice(0, key.indexOf("\u0000"));
    const keys = this.ofLink.get(link)?.keys;
    keys?.delete(key);
    if (keys?.size === 0) this.ofLink.delete(link);
  }
}

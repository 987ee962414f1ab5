import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface PageAsset {
  body: Buffer;
  contentType: string;
  /** Short content hash, used to make asset URLs change when the file does, and as the ETag. */
  version: string;
  /** When the file was built, for Last-Modified. */
  modified: Date;
}

const PUBLIC_DIR = join(import.meta.dirname, "..", "..", "..", "public");
const ASSETS: Record<string, string> = {
  "page.js": "text/javascript; charset=utf-8",
  "page.css": "text/css; charset=utf-8",
  "console.js": "text/javascript; charset=utf-8",
  "console.css": "text/css; charset=utf-8",
};

/**
 * The bundled browser script and stylesheet (`npm run build:client` writes them to public/). Read once;
 * a missing file leaves the page readable without it and is reported by `missing`.
 */
export class PageAssets {
  private readonly assets = new Map<string, PageAsset>();
  readonly missing: string[] = [];

  constructor(dir = PUBLIC_DIR) {
    for (const [name, contentType] of Object.entries(ASSETS)) {
      try {
        const body = readFileSync(join(dir, name));
        const version = createHash("sha256").update(body).digest("hex").slice(0, 12);
        this.assets.set(name, { body, contentType, version, modified: statSync(join(dir, name)).mtime });
      } catch {
        this.missing.push(name);
      }
    }
  }

  get(name: string): PageAsset | undefined {
    return this.assets.get(name);
  }

  /** The asset's URL from this origin's root, or null when it was not built. */
  path(name: string): string | null {
    const asset = this.assets.get(name);
    return asset ? `/assets/${name}?v=${asset.version}` : null;
  }

  /** The asset's URL relative to a page at …/s/{token}, or null when it was not built. */
  urlFromPage(name: string): string | null {
    const asset = this.assets.get(name);
    return asset ? `../assets/${name}?v=${asset.version}` : null;
  }
}

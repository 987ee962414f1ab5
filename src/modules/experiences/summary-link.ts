import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { deriveKey } from "../../keys.ts";

/**
 * Summary-link tokens: 16 random bytes (128 bits of unpredictability) followed by the first 16 bytes of
 * their HMAC-SHA256 under a key derived for this purpose, base64url-encoded (43 characters). The token
 * carries no settings; it only names a row whose settings live on the server. The database keeps only a
 * SHA-256 of the token, so a copy of the database cannot be turned back into working links.
 */
const NONCE_BYTES = 16;
const TAG_BYTES = 16;
const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export class SummaryLinkSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = deriveKey(secret, "summary-link");
  }

  private tag(nonce: Buffer): Buffer {
    return createHmac("sha256", this.key).update(nonce).digest().subarray(0, TAG_BYTES);
  }

  /** A new random, signed token. */
  issue(): string {
    const nonce = randomBytes(NONCE_BYTES);
    return Buffer.concat([nonce, this.tag(nonce)]).toString("base64url");
  }

  /** True when the token has the right shape and its signature checks (constant-time). */
  verify(token: string): boolean {
    if (!LINK_TOKEN_PATTERN.test(token)) return false;
    const bytes = Buffer.from(token, "base64url");
    if (bytes.length !== NONCE_BYTES + TAG_BYTES || bytes.toString("base64url") !== token) return false;
    return timingSafeEqual(bytes.subarray(NONCE_BYTES), this.tag(bytes.subarray(0, NONCE_BYTES)));
  }
}

/** What the database stores and looks links up by. */
export function hashLinkToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

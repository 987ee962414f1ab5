import { createHmac } from "node:crypto";

/** Derives an independent key per purpose (access tokens, summary links) from the one signing secret. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac("sha256", secret).update(`recap:${purpose}`).digest();
}

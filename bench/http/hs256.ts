/**
 * A hand-written HS256 check of Recap's access tokens for the minimal servers: the signature (constant-time),
 * the algorithm, the subject, the expiry and the secret generation claim. Nothing cached.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export interface Claims {
  appId: string;
  generation: number;
}

/** The app and secret generation of a valid, unexpired token; null for anything else. */
export function checkToken(authorization: string | undefined, key: Buffer): Claims | null {
  if (authorization === undefined || !authorization.startsWith("Bearer ")) return null;
  const token = authorization.slice(7).trim();
  const [header, payload, signature] = token.split(".");
  if (header === undefined || payload === undefined || signature === undefined) return null;
  const expected = createHmac("sha256", key).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { alg } = JSON.parse(Buffer.from(header, "base64url").toString()) as { alg?: unknown };
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const { sub, exp, gen = 0 } = claims;
    if (alg !== "HS256" || typeof sub !== "string" || typeof exp !== "number") return null;
    if (!Number.isSafeInteger(gen) || exp * 1000 <= Date.now()) return null;
    return { appId: sub, generation: gen as number };
  } catch {
    return null;
  }
}

import { createSigner, createVerifier } from "fast-jwt";
import type { Clock } from "../../clock.ts";
import { unauthenticated } from "../../errors.ts";
import { deriveKey } from "../../keys.ts";

export interface AccessToken {
  accessToken: string;
  expiresIn: number;
}

/** What a valid access token says: the app it was issued to, under which of its secret generations. */
export interface TokenClaims {
  appId: string;
  secretGeneration: number;
}

/**
 * Issues and checks the HS256 access tokens of POST /oauth2/token:generate. Verification is synchronous
 * node:crypto with a cache of verified tokens; expiry is checked against the injected clock. Whether the
 * token's secret generation is still the app's is for the caller to ask the database (requireAccessToken in src/http/auth.ts).
 */
export class TokenService {
  private readonly sign: (payload: Record<string, unknown>) => string;
  private readonly verify: (token: string) => Record<string, unknown>;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
  ) {
    const key = deriveKey(secret, "access-token");
    this.sign = createSigner({ key, algorithm: "HS256", noTimestamp: true });
    this.verify = createVerifier({
      key,
      algorithms: ["HS256"],
      ignoreExpiration: true,
      cache: true,
      // Verified tokens are kept by the token itself, not its SHA-256 (fast-jwt's default): hashing cost as
      // much as checking an HS256 signature, a tenth of a busy route's time. A token kept in this process's
      // memory tells no more than the signing key beside it (docs/ARCHITECTURE.md, "Performance").
      cacheKeyBuilder: (token) => token,
    });
  }

  issue(appId: string, secretGeneration: number): AccessToken {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const accessToken = this.sign({
      sub: appId,
      type: "application",
      gen: secretGeneration,
      iat: now,
      exp: now + this.ttlSeconds,
    });
    return { accessToken, expiresIn: this.ttlSeconds };
  }

  /**
   * Returns what a well-signed, unexpired token says; throws unauthenticated otherwise. A token issued
   * before generations existed counts as generation 0, which ends at the app's first rotation.
   */
  claimsOf(token: string): TokenClaims {
    let claims: Record<string, unknown>;
    try {
      claims = this.verify(token);
    } catch {
      throw unauthenticated("Invalid access token");
    }
    const { sub, exp, gen = 0 } = claims;
    if (typeof sub !== "string" || typeof exp !== "number" || !Number.isSafeInteger(gen)) {
      throw unauthenticated("Invalid access token");
    }
    if (exp * 1000 <= this.clock.now().getTime()) throw unauthenticated("Access token has expired");
    return { appId: sub, secretGeneration: gen as number };
  }
}

import { createSigner, createVerifier } from "fast-jwt";
import { LRUCache } from "lru-cache";
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
  /**
   * Well-signed tokens' claims, kept by the token itself. fast-jwt's own cache keys them by the token's
   * SHA-256, which cost as much as checking the HS256 signature (a tenth of a busy route's time). A token
   * kept in this process's memory tells no more than the signing key beside it.
   */
  private readonly verified = new LRUCache<string, TokenClaims & { exp: number }>({ max: 1000 });

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
  ) {
    const key = deriveKey(secret, "access-token");
    this.sign = createSigner({ key, algorithm: "HS256", noTimestamp: true });
    this.verify = createVerifier({ key, algorithms: ["HS256"], ignoreExpiration: true });
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
    const { exp, ...claims } = this.verified.get(token) ?? this.check(token);
    if (exp * 1000 <= this.clock.now().getTime()) throw unauthenticated("Access token has expired");
    return claims;
  }

  /** The claims of a well-signed token of Recap's shape, kept from now on; throws unauthenticated. */
  private check(token: string): TokenClaims & { exp: number } {
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
    const checked = { appId: sub, secretGeneration: gen as number, exp };
    this.verified.set(token, checked);
    return checked;
  }
}

import { describe, expect, it } from "vitest";
import { TokenService } from "./tokens.ts";

const SECRET = "a-signing-secret-that-is-long-enough-0123456789";

/** A clock the test moves. */
function movableClock(start: string) {
  let now = new Date(start);
  return { now: () => now, move: (seconds: number) => (now = new Date(now.getTime() + seconds * 1000)) };
}

describe("TokenService", () => {
  it("gives a token's claims, again from what it kept, and still ends it at its expiry", () => {
    const clock = movableClock("2026-11-23T10:00:00Z");
    const tokens = new TokenService(SECRET, 3600, clock);
    const { accessToken } = tokens.issue("app-1", 2);
    expect(tokens.claimsOf(accessToken)).toEqual({ appId: "app-1", secretGeneration: 2 });
    expect(tokens.claimsOf(accessToken)).toEqual({ appId: "app-1", secretGeneration: 2 });
    clock.move(3599);
    expect(tokens.claimsOf(accessToken).appId).toBe("app-1");
    clock.move(1);
    expect(() => tokens.claimsOf(accessToken)).toThrow("Access token has expired");
  });

  it("refuses a token whose signature or payload was changed, or signed with another secret, however often asked", () => {
    const clock = movableClock("2026-11-23T10:00:00Z");
    const tokens = new TokenService(SECRET, 3600, clock);
    const { accessToken } = tokens.issue("app-1", 0);
    tokens.claimsOf(accessToken);
    const [header, payload, signature] = accessToken.split(".") as [string, string, string];
    const otherApp = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), sub: "app-2" }),
    ).toString("base64url");
    const forged = [
      `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`,
      `${header}.${otherApp}.${signature}`,
      new TokenService(`${SECRET}-other`, 3600, clock).issue("app-1", 0).accessToken,
    ];
    for (const token of forged) {
      for (let attempt = 0; attempt < 2; attempt++) {
        expect(() => tokens.claimsOf(token)).toThrow("Invalid access token");
      }
    }
  });
});

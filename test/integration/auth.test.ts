import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { startTestServer, TestClock, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";

describe.each(await dialects())("tokens on %s", (dialect) => {
  let server: TestServer;
  const clock = new TestClock(new Date("2026-11-02T10:00:00Z"));
  beforeAll(async () => {
    server = await startTestServer(dialect, { clock });
  });
  afterAll(() => server.close());

  const generate = (body: unknown) =>
    apiClient(server.url).post<Body.Token & Body.ErrorBody>("/oauth2/token:generate", body);

  it("issues a JWT with exp for the right credentials and refuses a wrong secret", async () => {
    const { appId, appSecret } = await server.newApp();
    expect(appId).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(appSecret).toMatch(/^[A-Za-z0-9]{128}$/);

    const ok = await generate({ type: "application", appId, appSecret, extra: "ignored" });
    expect(ok.status).toBe(200);
    // RFC 6749 §5.1: an answer carrying a token is not cached.
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const { body } = ok;
    expect(body.expiresIn).toBe(86400);
    const claims = JSON.parse(Buffer.from(body.accessToken.split(".")[1] ?? "", "base64url").toString()) as {
      exp: number;
    };
    expect(claims.exp).toBe(Math.floor(clock.now().getTime() / 1000) + 86400);

    // Change the last character to one it is not, so the wrong secret is never the right one by chance.
    const wrongSecret = appSecret.slice(0, -1) + (appSecret.endsWith("x") ? "y" : "x");
    const wrong = await generate({ type: "application", appId, appSecret: wrongSecret });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toMatch(/appSecret/);
  });

  it("answers 400 naming the field for a missing or wrong type", async () => {
    const { appId, appSecret } = await server.newApp();
    const missing = await generate({ appId, appSecret });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("type is required");
    const wrong = await generate({ type: "user", appId, appSecret });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/^type /);
  });

  it("accepts Bearer and the deprecated x-api-key, and refuses missing, malformed, tampered or expired tokens", async () => {
    const { token } = await server.newApp();
    const list = (headers: Record<string, string>) =>
      apiClient(server.url).get<Body.ErrorBody>("/v1/conversations", { headers });

    expect((await list({ authorization: `Bearer ${token}` })).status).toBe(200);
    const legacy = await list({ "x-api-key": token, "content-type": "application/json" });
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get("deprecation")).toBe("true");

    const [head, payload, signature] = token.split(".");
    const forged = Buffer.from(payload ?? "", "base64url")
      .toString()
      .replace(/"sub":"\w+"/, '"sub":"someone-else"');
    const tampered = `${head}.${Buffer.from(forged).toString("base64url")}.${signature}`;
    for (const [headers, says] of [
      [{}, /^Missing access token/],
      [{ authorization: "Basic abc" }, /must be 'Bearer <token>'/],
      [{ authorization: `Bearer ${tampered}` }, /^Invalid access token$/],
      [{ authorization: "Bearer x.y.z" }, /^Invalid access token$/],
    ] as const) {
      const response = await list(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      expect(response.body.message).toMatch(says);
    }

    clock.advance(86400 + 1);
    const expired = await list({ authorization: `Bearer ${token}` });
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/expired/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { messageOf } from "../helpers/api.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { connectRedis, testRedisUrl } from "../helpers/redis.ts";

const redisUrl = await testRedisUrl();

describe.each(await dialects())("rate limits on %s", (dialect) => {
  it("answers 429 with a message and Retry-After past the token-request limit of one address", async () => {
    const server = await startTestServer(dialect, { env: { RECAP_TOKEN_RATE_LIMIT_PER_MINUTE: "3" } });
    try {
      const { appId, appSecret } = await server.newApp();
      const generate = () =>
        fetch(`${server.url}/oauth2/token:generate`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ type: "application", appId, appSecret }),
        });
      for (let i = 0; i < 3; i++) expect((await generate()).status).toBe(200);
      const limited = await generate();
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await messageOf(limited)).toMatch(/at most 3 requests a minute/);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("counts page views and token requests of one address apart", async () => {
    const server = await startTestServer(dialect, {
      env: { RECAP_RATE_LIMIT_PER_MINUTE: "3", RECAP_TOKEN_RATE_LIMIT_PER_MINUTE: "3" },
    });
    try {
      const { appId, appSecret } = await server.newApp();
      const pageStatuses: number[] = [];
      for (let i = 0; i < 4; i++) pageStatuses.push((await fetch(`${server.url}/s/no-such-link`)).status);
      expect(pageStatuses.slice(0, 3)).not.toContain(429);
      expect(pageStatuses[3]).toBe(429);
      const generate = await fetch(`${server.url}/oauth2/token:generate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "application", appId, appSecret }),
      });
      expect(generate.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  describe.skipIf(redisUrl === null)("shared through Redis", () => {
    let testDatabase: TestDatabase;
    const servers: TestServer[] = [];
    const redis = redisUrl ? connectRedis(redisUrl) : null;
    beforeAll(async () => {
      testDatabase = await createTestDatabase(dialect);
      for (let i = 0; i < 2; i++) {
        servers.push(
          await startTestServer(dialect, {
            testDatabase,
            env: { RECAP_RATE_LIMIT_PER_MINUTE: "5" },
            ...(redis && { redis }),
          }),
        );
      }
    });
    afterAll(async () => {
      for (const server of servers) await server.close();
      redis?.disconnect();
      await testDatabase.drop();
    });

    it("counts an app's requests across two servers sharing Redis, and each app on its own", async () => {
      const [first, second] = servers;
      if (!first || !second) throw new Error("two servers expected");
      const app = await first.newApp();
      const other = await first.newApp();
      const statuses: number[] = [];
      for (const server of [first, first, first, second, second, second]) {
        statuses.push((await server.api(app.token, "/v1/conversations")).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect((await first.api(app.token, "/v1/conversations")).status).toBe(429);
      expect((await second.api(other.token, "/v1/conversations")).status).toBe(200);
    });
  });
});

import { Redis } from "ioredis";

const REDIS_URL = process.env.RECAP_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * The Redis the shared-rate-limit suites use, or null to skip them. Required under CI=true; elsewhere a
 * missing server skips those suites with a line saying so.
 */
export async function testRedisUrl(): Promise<string | null> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return REDIS_URL;
  } catch {
    if (process.env.CI === "true") throw new Error(`CI=true but Redis is not reachable at ${REDIS_URL}`);
    console.warn(`SKIPPED: Redis suites (no server at ${REDIS_URL}); set RECAP_TEST_REDIS_URL`);
    return null;
  } finally {
    client.disconnect();
  }
}

export function connectRedis(url: string): Redis {
  return new Redis(url, { connectTimeout: 1000, maxRetriesPerRequest: 1 });
}

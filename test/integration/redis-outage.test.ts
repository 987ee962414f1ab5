import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { startChild as start, untilOutput, type Child } from "../helpers/processes.ts";
import { freePort, until } from "../helpers/wait.ts";

/**
 * The real server process with REDIS_URL set and Redis away. The database plays no part in what is
 * tested, so these run on the embedded SQLite file only.
 */
describe("rate limits when Redis is unreachable", () => {
  const children: Child[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.process.kill("SIGKILL");
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function startRecap(redisUrl: string): Promise<{ base: string; child: Child }> {
    const dir = mkdtempSync(join(tmpdir(), "recap-outage-"));
    dirs.push(dir);
    const port = await freePort();
    const child = start("node", ["--import", "tsx", "src/main.ts"], {
      ...process.env,
      PORT: String(port),
      RECAP_DATA_DIR: dir,
      DATABASE_URL: "",
      NODE_ENV: "development",
      LOG_LEVEL: "info",
      REDIS_URL: redisUrl,
    });
    children.push(child);
    await untilOutput(child, "Recap listening on");
    return { base: `http://127.0.0.1:${port}`, child };
  }

  /** Log lines about Redis (JSON lines from pino, or anything else that mentions it). */
  const redisLines = (child: Child) =>
    child
      .output()
      .split("\n")
      .filter((line) => /redis/i.test(line));

  /** 20 rate-limited requests one after another, each answered; a stall would blow the generous bound. */
  async function twentyPageViews(base: string): Promise<void> {
    const deadline = Date.now() + 5_000;
    for (let i = 0; i < 20; i++) {
      const response = await fetch(`${base}/s/no-such-link`, { signal: AbortSignal.timeout(5_000) });
      expect(response.status).toBeLessThan(500);
      expect(response.status).not.toBe(429);
    }
    expect(Date.now()).toBeLessThan(deadline);
  }

  it("answers at once with Redis on a closed port, and says so in one log line", async () => {
    const { base, child } = await startRecap(`redis://127.0.0.1:${await freePort()}`);
    await twentyPageViews(base);
    await twentyPageViews(base);
    expect(redisLines(child)).toHaveLength(1);
    expect(redisLines(child)[0]).toMatch(/not answering/);
  }, 60_000);

  it("keeps answering when its Redis goes away mid-run, with one log line", async () => {
    const redisPort = await freePort();
    const redis = start("redis-server", ["--port", String(redisPort), "--save", "", "--appendonly", "no"]);
    children.push(redis);
    const client = new Redis(redisPort, "127.0.0.1", { maxRetriesPerRequest: 0, lazyConnect: true });
    client.on("error", () => undefined);
    try {
      await untilOutput(redis, "Ready to accept connections");
      await client.connect();
      const { base, child } = await startRecap(`redis://127.0.0.1:${redisPort}`);
      await twentyPageViews(base);
      expect(await client.keys("recap-rate-*")).not.toEqual([]);
      expect(redisLines(child)).toEqual([]);

      redis.process.kill("SIGKILL");
      await twentyPageViews(base);
      await twentyPageViews(base);
      expect(redisLines(child)).toHaveLength(1);
      expect(redisLines(child)[0]).toMatch(/not answering/);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it("keeps answering when its Redis hangs, and says when it answers again", async () => {
    const redisPort = await freePort();
    const redis = start("redis-server", ["--port", String(redisPort), "--save", "", "--appendonly", "no"]);
    children.push(redis);
    await untilOutput(redis, "Ready to accept connections");
    const { base, child } = await startRecap(`redis://127.0.0.1:${redisPort}`);
    await twentyPageViews(base);

    redis.process.kill("SIGSTOP");
    await twentyPageViews(base);
    await twentyPageViews(base);
    expect(redisLines(child)).toHaveLength(1);
    expect(redisLines(child)[0]).toMatch(/not answering/);

    redis.process.kill("SIGCONT");
    await until(
      async () => {
        await fetch(`${base}/s/no-such-link`);
        return redisLines(child).length === 2;
      },
      "Redis to be asked again",
      { tries: 300, everyMs: 100 },
    );
    expect(redisLines(child)[1]).toMatch(/answers again/);
  }, 60_000);
});

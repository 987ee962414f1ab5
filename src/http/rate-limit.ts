import { once } from "node:events";
import { setTimeout } from "node:timers/promises";
import rateLimit, { type FastifyRateLimitStore } from "@fastify/rate-limit";
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import type { Redis, RedisOptions } from "ioredis";
import type { RateLimitMetrics, RateLimitName } from "../metrics/metrics.ts";
import type { Server } from "./types.ts";

export interface RateLimitOptions {
  /** Requests a minute for each app on /v1 (keyed by the token's app) and each address elsewhere; 0 = off. */
  perMinute: number;
  /** Requests a minute to POST /oauth2/token:generate and the console's sign-in, together, from one address; 0 = off. */
  tokenPerMinute: number;
  /** Shared counters for several processes; null keeps them in this process. */
  redis: Redis | null;
  /** Told of every refusal, by the limit that refused it. */
  metrics: RateLimitMetrics;
}

/** The routes that take app credentials: one address's attempts at either count against one limit. */
const CREDENTIAL_ROUTES = new Set(["/oauth2/token::generate", "/console/sign-in"]);
/** How long to stop asking Redis after it failed once; requests go through unlimited meanwhile. */
const REDIS_PAUSE_MS = 5_000;

/**
 * Client options for the shared counters: a Redis that is down or hangs must cost requests nothing.
 * Without an offline queue a command fails at once while disconnected (instead of waiting for a
 * reconnection), a command to a connected but silent Redis gives up after 250 ms, and reconnection
 * goes on in the background.
 */
const REDIS_OPTIONS: RedisOptions = {
  connectTimeout: 1_000,
  commandTimeout: 250,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
};

/**
 * Connects the shared rate-limit counters, waiting (at most the connect timeout) for the first connection:
 * without an offline queue, requests that came before it would find Redis "down" and pause the counters.
 * Connection errors are not logged here: the limiter logs one line when Redis stops answering and one
 * when it answers again, not one per retry or request. The client is loaded here, only when REDIS_URL is set.
 */
export async function connectRateLimitRedis(url: string): Promise<Redis> {
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, REDIS_OPTIONS);
  redis.on("error", () => undefined);
  await Promise.race([
    once(redis, "ready").catch(() => undefined),
    setTimeout(REDIS_OPTIONS.connectTimeout, undefined, { ref: false }),
  ]);
  return redis;
}

/** Counts a key's requests in its time window; one atomic script so concurrent processes agree. */
const INCREMENT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}`;

/**
 * Rate-limit counters in Redis with a circuit breaker: after a failure it stops asking for
 * REDIS_PAUSE_MS, answering with an error the limiter skips (skipOnError), so requests go through
 * unlimited rather than wait. Logs once when Redis stops answering and once when it is back.
 */
class RedisCounters {
  private pausedUntil = 0;
  private down = false;

  constructor(
    private readonly redis: Redis,
    private readonly logger: FastifyBaseLogger,
    private readonly prefix: string,
  ) {}

  async increment(key: string, timeWindowMs: number): Promise<{ current: number; ttl: number }> {
    if (Date.now() < this.pausedUntil) throw new Error("Redis paused after a failure");
    try {
      const [current, ttl] = (await this.redis.eval(INCREMENT, 1, this.prefix + key, timeWindowMs)) as [
        number,
        number,
      ];
      if (this.down) {
        this.down = false;
        this.logger.info("Redis answers again: rate limits are shared and enforced");
      }
      return { current, ttl };
    } catch (error) {
      this.pausedUntil = Date.now() + REDIS_PAUSE_MS;
      if (!this.down) {
        this.down = true;
        this.logger.warn(
          { err: error },
          "Redis is not answering: rate limits are not enforced until it answers again",
        );
      }
      throw error;
    }
  }
}

/** The store shape @fastify/rate-limit asks for, on the counters; every route shares them. */
function storeOf(counters: RedisCounters): new () => FastifyRateLimitStore {
  return class implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      counters.increment(key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/**
 * Limits request rates. The check runs after authentication (preHandler), so /v1 traffic is counted per
 * app, whatever address it comes from; token requests and other requests of an address (summary pages)
 * are counted apart, so page views never use up an address's token requests. A storage failure lets
 * requests through rather than failing or holding them. Exceeding a limit answers 429 `{"message"}`
 * with Retry-After.
 */
export async function registerRateLimits(app: Server, options: RateLimitOptions): Promise<void> {
  if (options.perMinute === 0 && options.tokenPerMinute === 0) return;
  const takesCredentials = (request: FastifyRequest) =>
    request.method === "POST" && CREDENTIAL_ROUTES.has(request.routeOptions.url ?? "");
  const limitOf = (request: FastifyRequest) =>
    takesCredentials(request) ? options.tokenPerMinute : options.perMinute;
  // The limit each key (keyGenerator) counts against, as the metrics name it.
  const limitNameOf = (request: FastifyRequest): RateLimitName => {
    if (takesCredentials(request)) return "credentials";
    return request.appId ? "app" : "address";
  };
  await app.register(rateLimit, {
    global: true,
    hook: "preHandler",
    timeWindow: 60_000,
    ...(options.redis && { store: storeOf(new RedisCounters(options.redis, app.log, "recap-rate-")) }),
    skipOnError: true,
    keyGenerator: (request) => {
      if (takesCredentials(request)) return `token:${request.ip}`;
      return request.appId ? `app:${request.appId}` : `ip:${request.ip}`;
    },
    max: (request) => limitOf(request),
    allowList: (request) => limitOf(request) === 0,
    onExceeded: (request) => options.metrics.refused(limitNameOf(request)),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Rate limit exceeded: at most ${context.max} requests a minute; retry in ${context.after}`,
    }),
  });
}

/**
 * The same limit, counted at once: for a scope whose own onRequest work (the summary links open their link
 * first) must not run for a request over the limit. The request is counted once; the preHandler check then
 * leaves it alone. Nothing to count when the limits are off.
 */
export function countRequestNow(
  app: Server,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  if (!app.hasDecorator("rateLimit")) return () => Promise.resolve();
  const limit = app.rateLimit();
  return async (request, reply) => {
    await limit.call(app, request, reply);
  };
}

import rateLimit from "@fastify/rate-limit";
import type { Redis } from "ioredis";
import type { Server } from "./types.ts";

export interface RateLimitOptions {
  /** Requests a minute for each app on /v1 (keyed by the token's app) and each address elsewhere; 0 = off. */
  perMinute: number;
  /** Requests a minute to POST /oauth2/token:generate from one address; 0 = off. */
  tokenPerMinute: number;
  /** Shared counters for several processes; null keeps them in this process. */
  redis: Redis | null;
}

const TOKEN_ROUTE = "/oauth2/token::generate";

/**
 * Limits request rates. The check runs after authentication (preHandler), so /v1 traffic is counted per
 * app, whatever address it comes from; a storage failure lets requests through rather than failing them.
 * Exceeding a limit answers 429 `{"message"}` with Retry-After.
 */
export async function registerRateLimits(app: Server, options: RateLimitOptions): Promise<void> {
  if (options.perMinute === 0 && options.tokenPerMinute === 0) return;
  await app.register(rateLimit, {
    global: true,
    hook: "preHandler",
    timeWindow: 60_000,
    ...(options.redis && { redis: options.redis }),
    nameSpace: "recap-rate-",
    skipOnError: true,
    keyGenerator: (request) => (request.appId ? `app:${request.appId}` : `ip:${request.ip}`),
    max: (request) => (request.routeOptions.url === TOKEN_ROUTE ? options.tokenPerMinute : options.perMinute),
    allowList: (request) => {
      const limit = request.routeOptions.url === TOKEN_ROUTE ? options.tokenPerMinute : options.perMinute;
      return limit === 0;
    },
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Rate limit exceeded: at most ${context.max} requests a minute; retry in ${context.after}`,
    }),
  });
}

import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { unauthenticated } from "../errors.ts";
import { bearerToken } from "./auth.ts";
import type { RequestMetrics } from "../metrics/metrics.ts";

/** What /metrics serves: the registry's text and its content type (metrics/metrics.ts). */
export interface MetricsText {
  scrape(): Promise<{ contentType: string; body: string }>;
}

/** The route label of every request no route matched, so unknown URLs never become label values. */
export const UNMATCHED_ROUTE = "unmatched";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether the Authorization header carries the token, compared in constant time (as digests of equal length). */
function carriesToken(authorization: string | undefined, token: string): boolean {
  const bearer = bearerToken(authorization);
  return bearer !== null && timingSafeEqual(digest(bearer), digest(token));
}

const TOKEN_REFUSED = "/metrics needs 'Authorization: Bearer <RECAP_METRICS_TOKEN>'";

/**
 * Times every answer, labelled as Fastify's metrics plugins do: method, the route's template
 * (`/v1/conversations/:conversationId`, never the URL) and status code. Register it before the routes.
 */
export function registerRequestMetrics(app: FastifyInstance, requests: RequestMetrics): void {
  app.addHook("onResponse", (request, reply, done) => {
    const route = request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
    requests.answered(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** GET /metrics on the app's own port, for `Authorization: Bearer <token>` only (401 otherwise). */
export function metricsRoute(app: FastifyInstance, deps: { metrics: MetricsText; token: string }): void {
  app.get("/metrics", { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    if (!carriesToken(request.headers.authorization, deps.token)) throw unauthenticated(TOKEN_REFUSED);
    const { contentType, body } = await deps.metrics.scrape();
    return reply.type(contentType).send(body);
  });
}

function answer(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  response.end(JSON.stringify({ message }));
}

/**
 * The metrics' own listener (RECAP_METRICS_PORT): GET /metrics and nothing else, asking for the token too
 * when one is set. Resolves once it listens, with its address and a close that ends its connections.
 */
export async function listenForMetrics(options: {
  metrics: MetricsText;
  token: string | null;
  port: number;
  host: string;
  logger: FastifyBaseLogger;
}): Promise<{ url: string; close(): Promise<void> }> {
  const { metrics, token, logger } = options;
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0] ?? "";
    if (path !== "/metrics") return answer(response, 404, `Route ${request.method} ${path} not found`);
    if (request.method !== "GET" && request.method !== "HEAD") {
      return answer(response, 405, "/metrics is read with GET", { allow: "GET, HEAD" });
    }
    if (token !== null && !carriesToken(request.headers.authorization, token)) {
      return answer(response, 401, TOKEN_REFUSED, { "www-authenticate": "Bearer" });
    }
    metrics.scrape().then(
      ({ contentType, body }) => {
        response.writeHead(200, { "content-type": contentType });
        response.end(request.method === "HEAD" ? undefined : body);
      },
      (error: unknown) => {
        logger.error({ err: error }, "metrics scrape failed");
        answer(response, 500, "Internal Server Error");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, family, port } = server.address() as AddressInfo;
  return {
    url: `http://${family === "IPv6" ? `[${address}]` : address}:${port}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

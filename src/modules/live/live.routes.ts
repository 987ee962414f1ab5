import type { FastifyRequest } from "fastify";
import { DomainError, unauthenticated } from "../../errors.ts";
import type { AccessTokens, SecretGenerations } from "../../http/auth.ts";
import type { Server } from "../../http/types.ts";
import { events } from "../../live/protocol.ts";
import type { LiveMetrics } from "../../metrics/metrics.ts";
import { closeCodeOf, LiveConnection, type ConnectionLimits } from "./live-connection.ts";
import type { LiveService } from "./live.service.ts";

/** The two addresses Symbl's clients open: the Streaming API's and the JavaScript SDK's. */
export const LIVE_PATHS = ["/v1/streaming/:connectionId", "/v1/realtime/insights/:connectionId"];

/** The token as Symbl's clients send it: `access_token` in the query, `X-API-KEY`, or `Authorization: Bearer`. */
function tokenOf(request: FastifyRequest): string {
  const query = request.query as Record<string, unknown>;
  if (typeof query.access_token === "string" && query.access_token !== "") return query.access_token;
  const apiKey = request.headers["x-api-key"];
  if (typeof apiKey === "string" && apiKey !== "") return apiKey;
  const match = /^Bearer +([^\s]+)\s*$/i.exec(request.headers.authorization ?? "");
  if (match?.[1]) return match[1];
  throw unauthenticated(
    "Missing access token: send access_token in the query, X-API-KEY or Authorization: Bearer",
  );
}

/** The connection id in the path: connections of one app with the same id join one conversation. */
const connectionIdOf = (request: FastifyRequest) => (request.params as { connectionId: string }).connectionId;

/** Symbl's Streaming API over WebSocket (docs/LIVE.md). */
export function liveRoutes(
  app: Server,
  deps: {
    live: LiveService;
    tokens: AccessTokens;
    apps: SecretGenerations;
    limits: ConnectionLimits;
    metrics: LiveMetrics;
  },
): void {
  const { limits } = deps;
  let open = 0;
  const openPerApp = new Map<string, number>();
  /** Counts a connection in, or throws too_many_requests naming the limit it would pass. */
  const admit = (appId: string): (() => void) => {
    const ofApp = openPerApp.get(appId) ?? 0;
    if (open >= limits.maxConnections) {
      throw new DomainError(
        "too_many_requests",
        `this server already serves ${limits.maxConnections} live connections (RECAP_LIVE_MAX_CONNECTIONS); try again later`,
      );
    }
    if (ofApp >= limits.maxConnectionsPerApp) {
      throw new DomainError(
        "too_many_requests",
        `this app already has ${limits.maxConnectionsPerApp} live connections on this server (RECAP_LIVE_MAX_CONNECTIONS_PER_APP); try again later`,
      );
    }
    open += 1;
    openPerApp.set(appId, ofApp + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      open -= 1;
      const left = (openPerApp.get(appId) ?? 1) - 1;
      if (left === 0) openPerApp.delete(appId);
      else openPerApp.set(appId, left);
    };
  };
  for (const path of LIVE_PATHS) {
    app.get(
      path,
      { websocket: true, schema: { hide: true }, config: { rateLimit: false } },
      async (socket, request) => {
        // Frames that arrive while the token is checked wait in the socket until the connection listens.
        socket.pause();
        try {
          const token = tokenOf(request);
          const { appId, secretGeneration } = deps.tokens.claimsOf(token);
          if (!(await deps.apps.isCurrentSecretGeneration(appId, secretGeneration))) {
            throw unauthenticated(
              "Access token was revoked: the app's secret has been rotated since it was issued",
            );
          }
          const release = admit(appId);
          deps.metrics.opened();
          // A connection reports its end more than once (the stream's end, an error, the socket's close).
          let counted = true;
          const ended = () => {
            if (counted) deps.metrics.closed();
            counted = false;
            release();
          };
          new LiveConnection(socket, appId, connectionIdOf(request), deps.live, limits, request.log, ended);
        } catch (error) {
          const domain =
            error instanceof DomainError
              ? error
              : new DomainError("unauthenticated", "The access token is not valid");
          socket.send(JSON.stringify(events.error(domain.code, domain.message)));
          socket.close(closeCodeOf(domain), domain.code);
        } finally {
          socket.resume();
        }
      },
    );
  }
}

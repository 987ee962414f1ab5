import type { FastifyRequest } from "fastify";
import type { WebSocket } from "@fastify/websocket";
import { DomainError, unauthenticated } from "../../errors.ts";
import { bearerToken, type AccessTokens, type SecretGenerations } from "../../http/auth.ts";
import type { Server } from "../../http/types.ts";
import { events } from "../../live/protocol.ts";
import { closeCodeOf, LiveConnection, type ConnectionLimits } from "./live-connection.ts";
import type { LiveService } from "./live.service.ts";
import type { LiveSlots } from "./live-slots.ts";
import type { FfmpegPaths } from "../../media/ffmpeg.ts";

/** The two addresses Symbl's clients open: the Streaming API's and the JavaScript SDK's. */
export const LIVE_PATHS = ["/v1/streaming/:connectionId", "/v1/realtime/insights/:connectionId"];

/** The token as Symbl's clients send it: `access_token` in the query, `X-API-KEY`, or `Authorization: Bearer`. */
function tokenOf(request: FastifyRequest): string {
  const query = request.query as Record<string, unknown>;
  if (typeof query.access_token === "string" && query.access_token !== "") return query.access_token;
  const apiKey = request.headers["x-api-key"];
  if (typeof apiKey === "string" && apiKey !== "") return apiKey;
  const bearer = bearerToken(request.headers.authorization);
  if (bearer !== null) return bearer;
  throw unauthenticated(
    "Missing access token: send access_token in the query, X-API-KEY or Authorization: Bearer",
  );
}

/** Pongs (and events) written but not yet read by the client past which its pings are no longer answered. */
const MAX_UNREAD_BYTES = 1024 * 1024;

/**
 * Answers the client's pings with pongs. ws's own answer terminates a connection that has more than 60 pongs not
 * yet written, which a burst of pings sent at once reaches before the first is written: 200 pings right after
 * connecting cut the connection with no close frame (1006). The bound that matters is a client that sends pings
 * and never reads their answers, so that they pile up here: past MAX_UNREAD_BYTES it gets an error event and 4429.
 */
function answerPings(socket: WebSocket): void {
  socket.on("ping", (data: Buffer) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount <= MAX_UNREAD_BYTES) return socket.pong(data);
    const flood = new DomainError(
      "too_many_requests",
      "pings arrive faster than their answers are read: the connection was ended",
    );
    socket.send(JSON.stringify(events.error(flood.code, flood.message)));
    socket.close(closeCodeOf(flood), flood.code);
  });
}

/**
 * What @fastify/websocket calls when a live socket fails. ws has already answered a frame it refuses with a close
 * frame and its code (1009 for one past the 1 MiB limit, 1002 for a broken one): the client's mistake, logged
 * as one line without a stack, so that a run of bad frames cannot flood the log. Anything else is ours.
 */
export function liveSocketError(error: Error, socket: WebSocket, request: FastifyRequest): void {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && code.startsWith("WS_ERR_")) {
    request.log.info({ wsError: code }, `live connection refused a frame: ${error.message}`);
  } else request.log.error({ err: error }, "live connection failed");
  if (socket.readyState === socket.OPEN) socket.terminate();
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
    slots: LiveSlots;
    ffmpeg: FfmpegPaths;
  },
): void {
  const { limits } = deps;
  for (const path of LIVE_PATHS) {
    app.get(
      path,
      { websocket: true, schema: { hide: true }, config: { rateLimit: false } },
      async (socket, request) => {
        answerPings(socket);
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
          const release = await deps.slots.admit(appId);
          // A client gone while it was counted in has no close left to release its slot with.
          if (socket.readyState !== socket.OPEN) return release();
          new LiveConnection(
            socket,
            appId,
            connectionIdOf(request),
            deps.live,
            limits,
            deps.ffmpeg,
            request.log,
            release,
          );
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

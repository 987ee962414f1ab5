import type { FastifyRequest } from "fastify";
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

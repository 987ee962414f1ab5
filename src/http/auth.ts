import type { FastifyInstance, FastifyRequest } from "fastify";
import { unauthenticated } from "../errors.ts";
import type { TokenService } from "./tokens.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The app the request's token was issued to; set on every /v1 route. */
    appId: string;
  }
}

function tokenOf(request: FastifyRequest): { token: string; deprecated: boolean } {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer +([^\s]+)\s*$/i.exec(authorization);
    if (!match?.[1]) throw unauthenticated("Authorization header must be 'Bearer <token>'");
    return { token: match[1], deprecated: false };
  }
  const apiKey = request.headers["x-api-key"];
  if (typeof apiKey === "string" && apiKey !== "") return { token: apiKey, deprecated: true };
  throw unauthenticated("Missing access token: send 'Authorization: Bearer <token>'");
}

/** Requires a valid access token on every route of this (encapsulated) Fastify instance. */
export function requireAccessToken(app: FastifyInstance, tokens: TokenService): void {
  app.decorateRequest("appId", "");
  app.addHook("onRequest", async (request, reply) => {
    const { token, deprecated } = tokenOf(request);
    if (deprecated) {
      reply.header("deprecation", "true");
      reply.header("link", '</docs>; rel="deprecation"');
    }
    request.appId = tokens.appIdOf(token);
  });
}

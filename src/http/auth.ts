import type { FastifyInstance, FastifyRequest } from "fastify";
import { unauthenticated } from "../errors.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The app the request's token was issued to; set on every /v1 route. */
    appId: string;
    /** The app's secret generation the token was issued under; set on every /v1 route. */
    secretGeneration: number;
  }
  interface FastifyContextConfig {
    /**
     * The route's own query finds nothing unless the token's secret generation is still the app's, so the
     * hook leaves that read out (see requireAccessToken).
     */
    secretGenerationInQuery?: boolean;
  }
}

/** The token of an `Authorization: Bearer <token>` header, or null when the header is missing or not that. */
export function bearerToken(authorization: string | undefined): string | null {
  return /^Bearer +(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? null;
}

function tokenOf(request: FastifyRequest): { token: string; deprecated: boolean } {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const token = bearerToken(authorization);
    if (token === null) throw unauthenticated("Authorization header must be 'Bearer <token>'");
    return { token, deprecated: false };
  }
  const apiKey = request.headers["x-api-key"];
  if (typeof apiKey === "string" && apiKey !== "") return { token: apiKey, deprecated: true };
  throw unauthenticated("Missing access token: send 'Authorization: Bearer <token>'");
}

/** Checks a token's signature and expiry (the auth module's TokenService); throws unauthenticated. */
export interface AccessTokens {
  claimsOf(token: string): { appId: string; secretGeneration: number };
}

/** Answers whether an app's secret is still at the generation a token was issued under. */
export interface SecretGenerations {
  isCurrentSecretGeneration(appId: string, generation: number): Promise<boolean>;
}

/** Throws unauthenticated when the app's secret has been rotated since the token was issued. */
async function requireCurrentGeneration(apps: SecretGenerations, appId: string, generation: number) {
  if (!(await apps.isCurrentSecretGeneration(appId, generation))) {
    throw unauthenticated("Access token was revoked: the app's secret has been rotated since it was issued");
  }
}

/**
 * Requires a valid access token on every route of this (encapsulated) Fastify instance. Besides the
 * signature and expiry (cached, in memory), each request reads the app's secret generation by primary key
 * from the shared database, so a secret rotation ends earlier tokens at once on every process; a cache
 * here could not know of a rotation made by another process or the CLI. A route whose own query checks
 * the generation (config `secretGenerationInQuery`) saves that read, a round trip on PostgreSQL: such a
 * query finds nothing for a revoked token, as for a missing row, so when the route answers an error of any
 * kind (a 404, a refused body, a 429), the generation is read then, and a revoked token gets its 401.
 */
export function requireAccessToken(
  app: FastifyInstance,
  deps: { tokens: AccessTokens; apps: SecretGenerations },
): void {
  app.decorateRequest("appId", "");
  app.decorateRequest("secretGeneration", 0);
  app.addHook("onRequest", async (request, reply) => {
    const { token, deprecated } = tokenOf(request);
    if (deprecated) {
      reply.header("deprecation", "true");
      reply.header("link", '</docs>; rel="deprecation"');
    }
    const { appId, secretGeneration } = deps.tokens.claimsOf(token);
    if (request.routeOptions.config.secretGenerationInQuery !== true) {
      await requireCurrentGeneration(deps.apps, appId, secretGeneration);
    }
    request.appId = appId;
    request.secretGeneration = secretGeneration;
  });
  // Whatever this handler throws goes on to the app's error handler, which answers it.
  app.setErrorHandler(async (error, request) => {
    if (request.routeOptions.config.secretGenerationInQuery === true && request.appId !== "") {
      await requireCurrentGeneration(deps.apps, request.appId, request.secretGeneration);
    }
    throw error;
  });
}

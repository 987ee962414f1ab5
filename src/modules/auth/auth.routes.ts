import { unauthenticated } from "../../errors.ts";
import { errorResponses } from "../../http/schemas.ts";
import type { TokenService } from "./tokens.ts";
import type { Server } from "../../http/types.ts";
import type { AppsService } from "../apps/apps.service.ts";
import { TokenRequest, TokenResponse } from "./auth.schemas.ts";

export function authRoutes(app: Server, deps: { apps: AppsService; tokens: TokenService }): void {
  app.post(
    "/oauth2/token::generate",
    {
      schema: {
        tags: ["Authentication"],
        summary: "Exchange app credentials for an access token",
        body: TokenRequest,
        response: { 200: TokenResponse, ...errorResponses(400, 401, 415) },
      },
    },
    async (request, reply) => {
      const { appId, appSecret } = request.body;
      const verified = await deps.apps.verifyCredentials(appId, appSecret);
      if (!verified) throw unauthenticated("appId or appSecret is wrong");
      // RFC 6749 §5.1: an answer carrying a token must not be cached.
      reply.header("cache-control", "no-store");
      return deps.tokens.issue(appId, verified.secretGeneration);
    },
  );
}

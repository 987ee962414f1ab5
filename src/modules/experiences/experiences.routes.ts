import { requireAccessToken, type SecretGenerations } from "../../http/auth.ts";
import { errorResponses, MessageBody } from "../../http/schemas.ts";
import type { TokenService } from "../auth/tokens.ts";
import type { Server } from "../../http/types.ts";
import {
  CreateExperienceBody,
  ExperienceCreated,
  ExperienceItemParams,
  ExperienceLink,
  ExperienceLinkList,
  ExperienceList,
  ExperienceParams,
  LinkListQuery,
  UpdateExperienceBody,
} from "./experiences.schemas.ts";
import type { ExperiencesService } from "./experiences.service.ts";

export interface ExperienceRouteDeps {
  tokens: TokenService;
  apps: SecretGenerations;
  experiences: ExperiencesService;
}

const tags = ["Summary links"];

/** Registers the Experience API under /v1 (token required); the pages the links open are the summary-page module's. */
export async function experienceRoutes(app: Server, deps: ExperienceRouteDeps): Promise<void> {
  await app.register((v1, _options, done) => {
    requireAccessToken(v1, deps);
    experienceApiRoutes(v1, deps);
    done();
  });
}

function experienceApiRoutes(app: Server, deps: ExperienceRouteDeps): void {
  const { experiences } = deps;

  app.post(
    "/v1/conversations/:conversationId/experiences",
    {
      schema: {
        tags,
        summary: "Create a summary link",
        description:
          "Returns a signed, opaque link to the conversation's summary page. Every field is checked strictly " +
          "(no type coercion); a bad field answers 400 naming it.",
        params: ExperienceParams,
        body: CreateExperienceBody,
        response: { 200: ExperienceCreated, ...errorResponses(400, 401, 404, 415) },
      },
      // Its one insert checks the token's secret generation too.
      config: { secretGenerationInQuery: true },
    },
    (request) =>
      experiences.createSummaryLink(
        request.appId,
        request.params.conversationId,
        request.body,
        request.secretGeneration,
      ),
  );

  app.get(
    "/v1/conversations/:conversationId/experiences",
    {
      schema: {
        tags,
        summary: "List a conversation's summary links with their settings and state",
        params: ExperienceParams,
        response: { 200: ExperienceList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      experiences: await experiences.listLinks(request.appId, request.params.conversationId),
    }),
  );

  app.get(
    "/v1/experiences",
    {
      schema: {
        tags,
        summary: "List the app's summary links across its conversations, newest first",
        description:
          "Filter by `conversationId` and `state`; page with `limit` and `offset`. Each link shows a hint " +
          "(the last 4 characters of its token), never the token.",
        querystring: LinkListQuery,
        response: { 200: ExperienceLinkList, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ experiences: await experiences.listAppLinks(request.appId, request.query) }),
  );

  app.patch(
    "/v1/conversations/:conversationId/experiences/:experienceId",
    {
      schema: {
        tags,
        summary: "Change a summary link's label or expiry",
        description:
          "`expiresAt` moves the expiry later or earlier (later than now), or `null` for never; an expired " +
          "link given a later expiry opens again. A revoked link answers 410.",
        params: ExperienceItemParams,
        body: UpdateExperienceBody,
        response: { 200: ExperienceLink, ...errorResponses(400, 401, 404, 410, 415) },
      },
    },
    (request) => {
      const { conversationId, experienceId } = request.params;
      return experiences.updateLink(request.appId, conversationId, experienceId, request.body);
    },
  );

  app.delete(
    "/v1/conversations/:conversationId/experiences/:experienceId",
    {
      schema: {
        tags,
        summary: "Revoke a summary link",
        params: ExperienceItemParams,
        response: { 200: MessageBody, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { conversationId, experienceId } = request.params;
      await experiences.revokeLink(request.appId, conversationId, experienceId);
      return { message: "The summary link was revoked" };
    },
  );
}

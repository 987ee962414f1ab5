import type { FastifyReply } from "fastify";
import { Type } from "typebox";
import { DomainError } from "../../errors.ts";
import { requireAccessToken, type SecretGenerations } from "../../http/auth.ts";
import { errorResponses } from "../../http/schemas.ts";
import { setPageSecurityHeaders, styleNonce } from "../../http/security-headers.ts";
import type { TokenService } from "../auth/tokens.ts";
import type { Server } from "../../http/types.ts";
import { pageToJson, pageToMarkdown } from "../../pages/page-data.ts";
import { renderLinkProblemPage } from "../../pages/render-error-page.ts";
import { renderPage } from "../../pages/render-page.ts";
import {
  CreateExperienceBody,
  EditInsightBody,
  EditMessageBody,
  ExperienceCreated,
  ExperienceItemParams,
  ExperienceList,
  ExperienceParams,
  MessageBody,
  MessageSaved,
  RenameConversationBody,
  RenameMemberBody,
} from "./experiences.schemas.ts";
import {
  SummaryLinkGone,
  type ExperiencesService,
  type OpenLink,
  type PageEditsService,
} from "./experiences.service.ts";
import type { PageAssets } from "./page-assets.ts";

export interface ExperienceRouteDeps {
  tokens: TokenService;
  apps: SecretGenerations;
  experiences: ExperiencesService;
  pageEdits: PageEditsService;
  pageAssets: PageAssets;
}

const tags = ["Summary links"];
type Format = "html" | "json" | "md";

/** Registers the Experience API under /v1 (token required) and the summary pages (the link is the key). */
export async function experienceRoutes(app: Server, deps: ExperienceRouteDeps): Promise<void> {
  await app.register((v1, _options, done) => {
    requireAccessToken(v1, deps);
    experienceApiRoutes(v1, deps);
    done();
  });
  await app.register((pages) => summaryPageRoutes(pages as Server, deps));
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
    },
    (request) => experiences.createSummaryLink(request.appId, request.params.conversationId, request.body),
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

/** `TOKEN`, `TOKEN.json` or `TOKEN.md`, and the format asked for by suffix or Accept. */
function parseLinkPath(link: string, accept: string | undefined): { token: string; format: Format } {
  const match = /^(.*?)(?:\.(json|md))?$/.exec(link);
  const token = match?.[1] ?? link;
  const suffix = match?.[2] as "json" | "md" | undefined;
  if (suffix) return { token, format: suffix };
  const wants = (accept ?? "").toLowerCase();
  if (wants.includes("text/html") || wants === "") return { token, format: "html" };
  if (wants.includes("application/json")) return { token, format: "json" };
  if (wants.includes("text/markdown")) return { token, format: "md" };
  return { token, format: "html" };
}

function sendLinkProblem(reply: FastifyReply, error: DomainError, format: Format): FastifyReply {
  const gone = error instanceof SummaryLinkGone;
  const status = gone ? 410 : 404;
  const problem = gone ? error.reason : "not_found";
  const message = gone ? error.message : "Summary link not found";
  if (format === "json")
    return reply.status(status).type("application/json; charset=utf-8").send({ message });
  if (format === "md") return reply.status(status).type("text/markdown; charset=utf-8").send(`${message}\n`);
  const nonce = styleNonce();
  setPageSecurityHeaders(reply, { styleNonce: nonce, frameAncestors: [] });
  return reply.status(status).type("text/html; charset=utf-8").send(renderLinkProblemPage(problem, nonce));
}

const isLinkProblem = (error: unknown): error is DomainError =>
  error instanceof DomainError && (error.code === "not_found" || error.code === "gone");

async function summaryPageRoutes(app: Server, deps: ExperienceRouteDeps): Promise<void> {
  const { experiences, pageEdits, pageAssets } = deps;

  app.get(
    "/assets/:name",
    { schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      const asset = pageAssets.get(request.params.name);
      if (!asset) return reply.status(404).send({ message: "Asset not found" });
      const versioned = (request.query as Record<string, unknown>).v === asset.version;
      return reply
        .header("content-type", asset.contentType)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", versioned ? "public, max-age=31536000, immutable" : "public, max-age=300")
        .header("etag", `"${asset.version}"`)
        .send(asset.body);
    },
  );

  // Every answer under /s/ already carries the page headers (app.ts); a page's own CSP replaces them.
  await app.register((scope, _options, registered) => {
    const links = scope as Server;

    links.get(
      "/s/:link",
      { schema: { hide: true, params: Type.Object({ link: Type.String() }) } },
      async (request, reply) => {
        const { token, format } = parseLinkPath(request.params.link, request.headers.accept);
        reply.header("vary", "Accept");
        let link: OpenLink;
        try {
          link = await experiences.openLink(token, request.host);
        } catch (error) {
          if (isLinkProblem(error)) return sendLinkProblem(reply, error, format);
          throw error;
        }
        let view;
        try {
          view = await experiences.pageView(link);
        } catch (error) {
          if (isLinkProblem(error))
            return sendLinkProblem(reply, new DomainError("not_found", "link"), format);
          throw error;
        }
        const frameAncestors = await experiences.frameAncestorsOf(link);
        if (format === "json") {
          setPageSecurityHeaders(reply, { frameAncestors });
          return reply.type("application/json; charset=utf-8").send(pageToJson(view));
        }
        if (format === "md") {
          setPageSecurityHeaders(reply, { frameAncestors });
          return reply.type("text/markdown; charset=utf-8").send(pageToMarkdown(view));
        }
        const nonce = styleNonce();
        setPageSecurityHeaders(reply, { styleNonce: nonce, frameAncestors });
        return reply.type("text/html; charset=utf-8").send(
          renderPage(view, {
            styleNonce: nonce,
            scriptUrl: pageAssets.urlFromPage("page.js"),
            stylesheetUrl: pageAssets.urlFromPage("page.css"),
            selfPath: token,
          }),
        );
      },
    );

    const open = (request: { params: { token: string }; host: string }) =>
      experiences.openLink(request.params.token, request.host);
    const done = { message: "Saved" };
    const editResponses = { 200: MessageBody, ...errorResponses(400, 403, 404, 409, 410, 415) };

    links.patch(
      "/s/:token/conversation",
      {
        schema: {
          hide: true,
          params: Type.Object({ token: Type.String() }),
          body: RenameConversationBody,
          response: editResponses,
        },
      },
      async (request) => {
        await pageEdits.renameConversation(await open(request), request.body.name);
        return done;
      },
    );

    links.patch(
      "/s/:token/members/:memberId",
      {
        schema: {
          hide: true,
          params: Type.Object({ token: Type.String(), memberId: Type.String({ maxLength: 64 }) }),
          body: RenameMemberBody,
          response: editResponses,
        },
      },
      async (request) => {
        await pageEdits.renameMember(await open(request), request.params.memberId, request.body.name);
        return done;
      },
    );

    links.patch(
      "/s/:token/messages/:messageId",
      {
        schema: {
          hide: true,
          params: Type.Object({ token: Type.String(), messageId: Type.String({ maxLength: 64 }) }),
          body: EditMessageBody,
          response: { ...editResponses, 200: MessageSaved },
        },
      },
      async (request) => {
        const { jobId } = await pageEdits.editMessage(
          await open(request),
          request.params.messageId,
          request.body,
        );
        return jobId === null ? done : { ...done, jobId };
      },
    );

    links.patch(
      "/s/:token/insights/:insightId",
      {
        schema: {
          hide: true,
          params: Type.Object({ token: Type.String(), insightId: Type.String({ maxLength: 64 }) }),
          body: EditInsightBody,
          response: editResponses,
        },
      },
      async (request) => {
        await pageEdits.editInsight(await open(request), request.params.insightId, request.body);
        return done;
      },
    );
    registered();
  });
}

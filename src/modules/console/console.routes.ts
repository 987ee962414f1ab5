import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import type { FastifyReply, FastifyRequest } from "fastify";
import { DomainError, forbidden } from "../../errors.ts";
import { statusOf } from "../../http/errors.ts";
import { setPageSecurityHeaders } from "../../http/security-headers.ts";
import type { Server } from "../../http/types.ts";
import { deriveKey } from "../../keys.ts";
import { renderConsoleError, type ConsoleAssets } from "../../pages/console/layout.ts";
import { renderConversations, renderDeleteConfirmation } from "../../pages/console/render-conversations.ts";
import { renderImport, renderJob } from "../../pages/console/render-import.ts";
import {
  renderNewSecret,
  renderRotateConfirmation,
  renderSettings,
} from "../../pages/console/render-settings.ts";
import { renderSignIn } from "../../pages/console/render-sign-in.ts";
import type { AppsService } from "../apps/apps.service.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import { FormRefused } from "./console-forms.ts";
import { hidden, sendPage } from "./console-reply.ts";
import { ConversationParams } from "../conversations/conversations.schemas.ts";
import { JobParams } from "../ingestion/ingestion.schemas.ts";
import type { JobsService } from "../jobs/jobs.service.ts";
import type { PageAssets } from "../summary-page/page-assets.ts";
import type { ExperiencesService } from "../experiences/experiences.service.ts";
import { consoleLinkRoutes } from "./console-links.routes.ts";
import { ConsoleLinks } from "./console-links.ts";
import { CONSOLE_SESSION_SECONDS, type ConsoleSessions } from "./console-sessions.ts";
import { type ConsoleService, type UploadedTranscript } from "./console.service.ts";
import { ConversationsQuery, SettingsFormBody, SettingsQuery, SignInBody } from "./console.schemas.ts";

export interface ConsoleRouteDeps {
  apps: AppsService;
  console: ConsoleService;
  consoleSessions: ConsoleSessions;
  conversations: ConversationsService;
  jobs: JobsService;
  experiences: ExperiencesService;
  pageAssets: PageAssets;
  secret: string;
  bodyLimitBytes: number;
}

const SESSION_COOKIE = "recap_console";
/** Routes reached without a session: everything else sends a visitor without one to sign in. */
const OPEN_ROUTES = new Set(["/", "/console", "/console/sign-in", "/console/sign-out"]);

/**
 * A state-changing request must come from a console page: the browser says so by Sec-Fetch-Site, or
 * (an older browser) by an Origin equal to this server's. Either missing or different is refused, so a
 * form on another site cannot post here even before SameSite=Strict keeps the cookie from it.
 */
function checkSameOrigin(request: FastifyRequest): void {
  const site = request.headers["sec-fetch-site"];
  if (site !== undefined) {
    if (site !== "same-origin") throw forbidden("Refused a request that did not come from the console");
    return;
  }
  if (request.headers.origin !== `${request.protocol}://${request.host}`) {
    throw forbidden("Refused a request that did not come from the console");
  }
}

/** The console at /console (docs/ARCHITECTURE.md, "Console"): HTML forms on the API's services. */
export async function consoleRoutes(app: Server, deps: ConsoleRouteDeps): Promise<void> {
  const { apps, console: consoleService, consoleSessions, conversations, jobs } = deps;
  const assets: ConsoleAssets = {
    stylesheetUrl: deps.pageAssets.path("console.css"),
    scriptUrl: deps.pageAssets.path("console.js"),
  };
  await app.register(cookie, { secret: deriveKey(deps.secret, "console-session") });
  await app.register(formbody);
  await app.register(multipart, {
    limits: { files: 1, fields: 4, fileSize: deps.bodyLimitBytes },
    defCharset: "latin1",
  });
  app.decorateRequest("appId", "");

  const cookieOptions = (request: FastifyRequest) => ({
    path: "/console",
    httpOnly: true,
    sameSite: "strict" as const,
    secure: request.protocol === "https",
  });
  const startSession = (request: FastifyRequest, reply: FastifyReply, session: string) =>
    reply.setCookie(SESSION_COOKIE, session, {
      ...cookieOptions(request),
      signed: true,
      maxAge: CONSOLE_SESSION_SECONDS,
    });

  app.addHook("onRequest", async (request, reply) => {
    setPageSecurityHeaders(reply, { frameAncestors: [] });
    if (request.method === "POST") checkSameOrigin(request);
    const signed = request.cookies[SESSION_COOKIE];
    const unsigned = signed === undefined ? null : request.unsignCookie(signed);
    if (unsigned?.valid && unsigned.value !== null) {
      request.appId = (await consoleSessions.appOf(unsigned.value)) ?? "";
    }
    if (!request.appId && !OPEN_ROUTES.has(request.routeOptions.url ?? "")) {
      return reply.redirect("/console/sign-in", 303);
    }
  });

  app.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
    const status = error instanceof DomainError ? statusOf(error) : (error.statusCode ?? 500);
    if (status >= 500) request.log.error({ err: error }, "request failed");
    const message = status >= 500 ? "Something failed on the server; try again." : error.message;
    return sendPage(reply, renderConsoleError(message, assets, request.appId !== ""), status);
  });

  app.get("/", { schema: hidden }, (_request, reply) => reply.redirect("/console", 303));
  app.get("/console", { schema: hidden }, (request, reply) =>
    reply.redirect(request.appId ? "/console/conversations" : "/console/sign-in", 303),
  );

  // Any other console address: a console page saying so (signed out, the hook above leads to sign-in).
  app.get("/console/*", { schema: hidden }, (request, reply) =>
    sendPage(
      reply,
      renderConsoleError("There is no such page in the console.", assets, request.appId !== ""),
      404,
    ),
  );
  app.get("/console/sign-in", { schema: hidden }, (_request, reply) => sendPage(reply, renderSignIn(assets)));
  app.post("/console/sign-in", { schema: { ...hidden, body: SignInBody } }, async (request, reply) => {
    const { appId, appSecret } = request.body;
    const session = await consoleSessions.signIn(appId, appSecret);
    if (session === null) {
      return sendPage(reply, renderSignIn(assets, { appId, error: "appId or appSecret is wrong" }), 401);
    }
    startSession(request, reply, session);
    return reply.redirect("/console/conversations", 303);
  });
  app.post("/console/sign-out", { schema: hidden }, (request, reply) =>
    reply.clearCookie(SESSION_COOKIE, cookieOptions(request)).redirect("/console/sign-in", 303),
  );

  app.get(
    "/console/conversations",
    { schema: { ...hidden, querystring: ConversationsQuery } },
    async (request, reply) => {
      const search = request.query.q?.trim() ?? "";
      const listed = await consoleService.listConversations(request.appId, request.query.page ?? 1, search);
      return sendPage(reply, renderConversations(assets, listed, search));
    },
  );
  app.get(
    "/console/conversations/:conversationId/delete",
    { schema: { ...hidden, params: ConversationParams } },
    async (request, reply) => {
      const conversation = await conversations.getConversation(request.appId, request.params.conversationId);
      return sendPage(reply, renderDeleteConfirmation(assets, conversation));
    },
  );
  app.post(
    "/console/conversations/:conversationId/delete",
    { schema: { ...hidden, params: ConversationParams } },
    async (request, reply) => {
      await conversations.deleteConversation(request.appId, request.params.conversationId);
      return reply.redirect("/console/conversations", 303);
    },
  );

  app.get("/console/import", { schema: hidden }, (_request, reply) => sendPage(reply, renderImport(assets)));
  app.post("/console/import", { schema: hidden }, async (request, reply) => {
    // The fields' bytes as sent (the parser reads them as Latin-1, one character a byte), so the import
    // decodes them by the input rules rather than the parser replacing what is not UTF-8.
    let name = Buffer.alloc(0);
    let file: UploadedTranscript = { fileName: "", bytes: Buffer.alloc(0) };
    for await (const part of request.parts()) {
      if (part.type === "file") {
        file = { fileName: part.filename, bytes: await part.toBuffer() };
      } else if (part.fieldname === "name") {
        name = Buffer.from(String(part.value), "latin1");
      }
    }
    try {
      const { jobId } = await consoleService.importTranscript(request.appId, name, file);
      return await reply.redirect(`/console/jobs/${jobId}`, 303);
    } catch (error) {
      if (!(error instanceof FormRefused)) throw error;
      const form = { name: name.toString("utf8"), errors: { [error.field]: error.message } };
      return sendPage(reply, renderImport(assets, form), error.status);
    }
  });
  app.get("/console/jobs/:jobId", { schema: { ...hidden, params: JobParams } }, async (request, reply) =>
    sendPage(reply, renderJob(assets, await jobs.getJob(request.appId, request.params.jobId))),
  );

  // Settings: PATCH /v1/app's rules, and the rotation of the app's secrets, shown once (every console
  // answer is `Cache-Control: private, no-store`, set by the hook above).
  app.get(
    "/console/settings",
    { schema: { ...hidden, querystring: SettingsQuery } },
    async (request, reply) =>
      sendPage(
        reply,
        renderSettings(assets, await apps.getApp(request.appId), { saved: request.query.saved === "1" }),
      ),
  );
  app.post("/console/settings", { schema: { ...hidden, body: SettingsFormBody } }, async (request, reply) => {
    try {
      await consoleService.updateSettings(request.appId, request.body);
      return await reply.redirect("/console/settings?saved=1", 303);
    } catch (error) {
      if (!(error instanceof FormRefused)) throw error;
      const form = { form: request.body, errors: { [error.field]: error.message } };
      return sendPage(reply, renderSettings(assets, await apps.getApp(request.appId), form), error.status);
    }
  });
  app.get("/console/settings/rotate-secret", { schema: hidden }, (_request, reply) =>
    sendPage(reply, renderRotateConfirmation(assets, "app")),
  );
  // The rotation ends every session; the owner rotating keeps theirs, signed in anew with the new secret.
  app.post("/console/settings/rotate-secret", { schema: hidden }, async (request, reply) => {
    const { appSecret } = await apps.rotateSecret(request.appId);
    const session = await consoleSessions.signIn(request.appId, appSecret);
    if (session !== null) startSession(request, reply, session);
    return sendPage(reply, renderNewSecret(assets, "app", appSecret));
  });
  app.get("/console/settings/rotate-webhook-secret", { schema: hidden }, (_request, reply) =>
    sendPage(reply, renderRotateConfirmation(assets, "webhook")),
  );
  app.post("/console/settings/rotate-webhook-secret", { schema: hidden }, async (request, reply) => {
    const webhookSecret = await apps.rotateWebhookSecret(request.appId);
    return sendPage(reply, renderNewSecret(assets, "webhook", webhookSecret));
  });

  // Summary links: their own routes (console-links.routes.ts), under the hook above.
  consoleLinkRoutes(app, {
    links: new ConsoleLinks({ experiences: deps.experiences, conversations }),
    conversations,
    assets,
  });
}

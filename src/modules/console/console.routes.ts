import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import type { FastifyReply, FastifyRequest } from "fastify";
import { DomainError, forbidden } from "../../errors.ts";
import { allowSlowUpload } from "../../http/request-time.ts";
import { statusOf } from "../../http/errors.ts";
import { setPageSecurityHeaders } from "../../http/security-headers.ts";
import type { Server } from "../../http/types.ts";
import {
  renderConsoleError,
  renderNotFound,
  type ConsoleAssets,
  type ConsoleFrame,
} from "../../pages/console/layout.ts";
import {
  renderConversation,
  renderConversations,
  renderDeleteConfirmation,
} from "../../pages/console/render-conversations.ts";
import { renderImport, renderJob } from "../../pages/console/render-import.ts";
import {
  renderNewSecret,
  renderRotateConfirmation,
  renderSettings,
} from "../../pages/console/render-settings.ts";
import { renderSearch } from "../../pages/console/render-search.ts";
import { renderSignIn } from "../../pages/console/render-sign-in.ts";
import type { AppsService } from "../apps/apps.service.ts";
import type { ConversationsService } from "../conversations/conversations.service.ts";
import { FormRefused } from "./console-forms.ts";
import { hidden, sendPage } from "./console-reply.ts";
import { ConversationParams } from "../conversations/conversations.schemas.ts";
import { JobParams } from "../ingestion/ingestion.schemas.ts";
import type { JobsService } from "../jobs/jobs.service.ts";
import type { PageAssets } from "../summary-page/page-assets.ts";
import type { SummaryPageService } from "../summary-page/summary-page.service.ts";
import type { ExperiencesService } from "../experiences/experiences.service.ts";
import type { SearchService } from "../search/search.service.ts";
import type { VoicesService } from "../voices/voices.service.ts";
import { consoleLinkRoutes } from "./console-links.routes.ts";
import { ConsoleLinks } from "./console-links.ts";
import { ConsoleSearcher } from "./console-search.ts";
import { consoleVoiceRoutes } from "./console-voices.routes.ts";
import { ConsoleVoices } from "./console-voices.ts";
import { CONSOLE_SESSION_SECONDS, type ConsoleSessions } from "./console-sessions.ts";
import { type ConsoleService, type MediaImportFields, type UploadedTranscript } from "./console.service.ts";
import {
  BrandFormBody,
  ConversationQuery,
  ConversationsQuery,
  SearchFormQuery,
  SettingsFormBody,
  SettingsQuery,
  SignInBody,
} from "./console.schemas.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The name of the app the console session is of; empty without a session. */
    appName: string;
  }
}

/** A transcript file, read by its name (transcript-file.ts); any other file goes to the media service. */
const TRANSCRIPT_FILE = /\.(vtt|srt|json)$/i;

export interface ConsoleRouteDeps {
  apps: AppsService;
  console: ConsoleService;
  consoleSessions: ConsoleSessions;
  conversations: ConversationsService;
  jobs: JobsService;
  experiences: ExperiencesService;
  voices: VoicesService;
  search: SearchService;
  summaryPage: SummaryPageService;
  pageAssets: PageAssets;
  bodyLimitBytes: number;
  /** RECAP_MEDIA_MAX_BYTES: an audio or video import may be this large. */
  mediaMaxBytes: number;
  /** RECAP_MEDIA_MIN_UPLOAD_BYTES_PER_SECOND: an import is held to this rate, as the API's uploads are. */
  mediaMinUploadBytesPerSecond: number;
}

/** Routes reached without a session: everything else sends a visitor without one to sign in. */
const OPEN_ROUTES = new Set(["/", "/console", "/console/sign-in", "/console/sign-out"]);

/**
 * Hosts a browser counts as secure over plain HTTP too (localhost, loopback addresses): it keeps a Secure
 * cookie from them, so the `__Host-` cookie works for `npm start` on one's own machine.
 */
const isLoopback = (hostname: string) =>
  /^(?:localhost|.+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])\.?$/i.test(hostname);

/**
 * The session cookie this request uses. Where the browser keeps Secure cookies (HTTPS, or a loopback host)
 * it is `__Host-recap_console`: Secure, Path=/, no Domain, which a page on another port of the host or on a
 * sibling domain cannot plant under a narrower path to shadow the owner's (docs/ARCHITECTURE.md,
 * "Console sessions"). Over plain HTTP to another host no browser keeps a Secure cookie, so it is
 * `recap_console`, with Path=/ as well.
 */
function sessionCookieOf(request: FastifyRequest): { name: string; secure: boolean } {
  const secure = request.protocol === "https" || isLoopback(request.hostname);
  return { name: secure ? "__Host-recap_console" : "recap_console", secure };
}

/** The session token the request carries, unless it carries none or several (one planted beside another). */
function sessionTokenOf(request: FastifyRequest, name: string): string | null {
  const sent = (request.headers.cookie ?? "").split(";").filter((pair) => pair.trim().startsWith(`${name}=`));
  return sent.length === 1 ? (request.cookies[name] ?? null) : null;
}

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
  await app.register(cookie);
  await app.register(formbody);
  await app.register(multipart, {
    // The import form's fields: the name and a recording's four options.
    limits: { files: 1, fields: 5, fileSize: deps.bodyLimitBytes },
    defCharset: "latin1",
  });
  app.decorateRequest("appId", "");
  app.decorateRequest("appName", "");
  const frameOf = (request: FastifyRequest): ConsoleFrame => ({
    assets,
    appName: request.appId ? request.appName : null,
  });

  const cookieOptions = (secure: boolean) => ({
    path: "/",
    httpOnly: true,
    sameSite: "strict" as const,
    secure,
  });
  const startSession = (request: FastifyRequest, reply: FastifyReply, token: string) => {
    const { name, secure } = sessionCookieOf(request);
    return reply.setCookie(name, token, { ...cookieOptions(secure), maxAge: CONSOLE_SESSION_SECONDS });
  };

  app.addHook("onRequest", async (request, reply) => {
    setPageSecurityHeaders(reply, { frameAncestors: [] });
    if (request.method === "POST") checkSameOrigin(request);
    const token = sessionTokenOf(request, sessionCookieOf(request).name);
    const signedIn = token === null ? null : await consoleSessions.appOf(token);
    if (signedIn !== null) {
      request.appId = signedIn.id;
      request.appName = signedIn.name;
    }
    if (!request.appId && !OPEN_ROUTES.has(request.routeOptions.url ?? "")) {
      return reply.redirect("/console/sign-in", 303);
    }
  });

  app.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
    const status = error instanceof DomainError ? statusOf(error) : (error.statusCode ?? 500);
    if (status >= 500) request.log.error({ err: error }, "request failed");
    const message = status >= 500 ? "Something failed on the server; try again." : error.message;
    return sendPage(reply, renderConsoleError(message, frameOf(request), status), status);
  });

  app.get("/", { schema: hidden }, (_request, reply) => reply.redirect("/console", 303));
  app.get("/console", { schema: hidden }, (request, reply) =>
    reply.redirect(request.appId ? "/console/conversations" : "/console/sign-in", 303),
  );

  // Any other console address: the console's 404 page (signed out, the hook above leads to sign-in).
  app.get("/console/*", { schema: hidden }, (request, reply) =>
    sendPage(reply, renderNotFound(frameOf(request)), 404),
  );
  app.get("/console/sign-in", { schema: hidden }, (request, reply) =>
    sendPage(reply, renderSignIn(frameOf(request))),
  );
  app.post("/console/sign-in", { schema: { ...hidden, body: SignInBody } }, async (request, reply) => {
    const { appId, appSecret } = request.body;
    const session = await consoleSessions.signIn(appId, appSecret);
    if (session === null) {
      return sendPage(
        reply,
        renderSignIn(frameOf(request), { appId, error: "appId or appSecret is wrong" }),
        401,
      );
    }
    // Signing in again replaces the session this browser had, rather than leaving it open beside the new one.
    const previous = sessionTokenOf(request, sessionCookieOf(request).name);
    if (previous !== null) await consoleSessions.end(previous);
    startSession(request, reply, session);
    return reply.redirect("/console/conversations", 303);
  });
  // Ends the session on the server: the same cookie sent again opens nothing.
  app.post("/console/sign-out", { schema: hidden }, async (request, reply) => {
    const { name, secure } = sessionCookieOf(request);
    const token = sessionTokenOf(request, name);
    if (token !== null) await consoleSessions.end(token);
    return reply.clearCookie(name, cookieOptions(secure)).redirect("/console/sign-in", 303);
  });

  app.get(
    "/console/conversations",
    { schema: { ...hidden, querystring: ConversationsQuery } },
    async (request, reply) => {
      const search = request.query.q?.trim() ?? "";
      const listed = await consoleService.listConversations(request.appId, request.query.page ?? 1, search);
      return sendPage(reply, renderConversations(frameOf(request), listed, search));
    },
  );
  app.get(
    "/console/conversations/:conversationId",
    { schema: { ...hidden, params: ConversationParams, querystring: ConversationQuery } },
    async (request, reply) => {
      const overview = await consoleService.conversationOverview(
        request.appId,
        request.params.conversationId,
        request.query.line,
      );
      return sendPage(reply, renderConversation(frameOf(request), overview));
    },
  );
  // Search across the conversations: a refused search is the page again with the API's message (400).
  const searcher = new ConsoleSearcher(deps);
  app.get(
    "/console/search",
    { schema: { ...hidden, querystring: SearchFormQuery } },
    async (request, reply) => {
      const { q, cursor } = request.query;
      if (q === undefined) return sendPage(reply, renderSearch(frameOf(request), null));
      const search = await searcher.search(request.appId, q, cursor);
      return sendPage(reply, renderSearch(frameOf(request), search), search.error === null ? 200 : 400);
    },
  );
  app.get(
    "/console/conversations/:conversationId/delete",
    { schema: { ...hidden, params: ConversationParams } },
    async (request, reply) => {
      const conversation = await conversations.getConversation(request.appId, request.params.conversationId);
      return sendPage(reply, renderDeleteConfirmation(frameOf(request), conversation));
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

  app.get("/console/import", { schema: hidden }, (request, reply) =>
    sendPage(reply, renderImport(frameOf(request))),
  );
  const importOptions = {
    schema: hidden,
    // A recording of gigabytes cannot arrive within the request timeout on every link (http/request-time.ts).
    onRequest: (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      allowSlowUpload(request.raw, deps.mediaMinUploadBytesPerSecond);
      done();
    },
  };
  app.post("/console/import", importOptions, async (request, reply) => {
    // The fields' bytes as sent (the parser reads them as Latin-1, one character a byte), so the import
    // decodes them by the input rules rather than the parser replacing what is not UTF-8.
    const fields: MediaImportFields = {
      name: Buffer.alloc(0),
      diarization: false,
      speakerCount: "",
      channels: [Buffer.alloc(0), Buffer.alloc(0)],
    };
    let file: UploadedTranscript = { fileName: "", bytes: Buffer.alloc(0) };
    // A recording streams to the media service as it arrives (the form sends its other fields first).
    let media: Promise<{ jobId: string }> | null = null;
    const parts = request.parts({ limits: { fileSize: Math.max(deps.bodyLimitBytes, deps.mediaMaxBytes) } });
    for await (const part of parts) {
      if (part.type === "file" && part.filename !== "" && !TRANSCRIPT_FILE.test(part.filename)) {
        const stream = { fileName: part.filename, contentType: part.mimetype, stream: part.file };
        media = consoleService.importMedia(request.appId, fields, stream);
        await media.catch(() => part.file.resume());
      } else if (part.type === "file") {
        file = { fileName: part.filename, bytes: await part.toBuffer() };
        if (file.bytes.length > deps.bodyLimitBytes) {
          const form = {
            name: fields.name.toString("utf8"),
            errors: { file: "the transcript file is too large" },
          };
          return sendPage(reply, renderImport(frameOf(request), form), 413);
        }
      } else if (
        part.fieldname === "name" ||
        part.fieldname === "channel1" ||
        part.fieldname === "channel2"
      ) {
        const bytes = Buffer.from(String(part.value), "latin1");
        if (part.fieldname === "name") fields.name = bytes;
        else fields.channels[part.fieldname === "channel1" ? 0 : 1] = bytes;
      } else if (part.fieldname === "diarization") {
        fields.diarization = true;
      } else if (part.fieldname === "speakerCount") {
        fields.speakerCount = String(part.value);
      }
    }
    /** The form as sent, to show again beside a refusal. */
    const sent = {
      name: fields.name.toString("utf8"),
      diarization: fields.diarization,
      speakerCount: fields.speakerCount,
      channels: [fields.channels[0].toString("utf8"), fields.channels[1].toString("utf8")] as [
        string,
        string,
      ],
    };
    try {
      const { jobId } = await (media ?? consoleService.importTranscript(request.appId, fields.name, file));
      return await reply.redirect(`/console/jobs/${jobId}`, 303);
    } catch (error) {
      if (!(error instanceof FormRefused)) throw error;
      const form = { ...sent, errors: { [error.field]: error.message } };
      return sendPage(reply, renderImport(frameOf(request), form), error.status);
    }
  });
  app.get("/console/jobs/:jobId", { schema: { ...hidden, params: JobParams } }, async (request, reply) => {
    const job = await jobs.getJob(request.appId, request.params.jobId);
    const names = await conversations.namesOf(request.appId, [job.conversationId]);
    return sendPage(reply, renderJob(frameOf(request), job, names.get(job.conversationId) ?? null));
  });

  // Settings: PATCH /v1/app's rules, and the rotation of the app's secrets, shown once (every console
  // answer is `Cache-Control: private, no-store`, set by the hook above).
  app.get(
    "/console/settings",
    { schema: { ...hidden, querystring: SettingsQuery } },
    async (request, reply) =>
      sendPage(
        reply,
        renderSettings(frameOf(request), await apps.getApp(request.appId), {
          ...(request.query.saved !== undefined && { saved: request.query.saved }),
        }),
      ),
  );
  app.post("/console/settings", { schema: { ...hidden, body: SettingsFormBody } }, async (request, reply) => {
    try {
      await consoleService.updateSettings(request.appId, request.body);
      return await reply.redirect("/console/settings?saved=settings", 303);
    } catch (error) {
      if (!(error instanceof FormRefused)) throw error;
      const form = { form: request.body, errors: { [error.field]: error.message } };
      return sendPage(
        reply,
        renderSettings(frameOf(request), await apps.getApp(request.appId), form),
        error.status,
      );
    }
  });
  // The brand every link's page takes for what the link does not set: PATCH /v1/app's `brand`.
  app.post(
    "/console/settings/brand",
    { schema: { ...hidden, body: BrandFormBody } },
    async (request, reply) => {
      try {
        await consoleService.updateBrand(request.appId, request.body);
        return await reply.redirect("/console/settings?saved=brand#brand", 303);
      } catch (error) {
        if (!(error instanceof FormRefused)) throw error;
        const form = { brandForm: request.body, errors: { [error.field]: error.message } };
        const app = await apps.getApp(request.appId);
        return sendPage(reply, renderSettings(frameOf(request), app, form), error.status);
      }
    },
  );
  app.get("/console/settings/rotate-secret", { schema: hidden }, (request, reply) =>
    sendPage(reply, renderRotateConfirmation(frameOf(request), "app")),
  );
  // The rotation ends every session; the owner rotating keeps theirs, signed in anew with the new secret.
  app.post("/console/settings/rotate-secret", { schema: hidden }, async (request, reply) => {
    const { appSecret } = await apps.rotateSecret(request.appId);
    const session = await consoleSessions.signIn(request.appId, appSecret);
    if (session !== null) startSession(request, reply, session);
    return sendPage(reply, renderNewSecret(frameOf(request), "app", appSecret));
  });
  app.get("/console/settings/rotate-webhook-secret", { schema: hidden }, (request, reply) =>
    sendPage(reply, renderRotateConfirmation(frameOf(request), "webhook")),
  );
  app.post("/console/settings/rotate-webhook-secret", { schema: hidden }, async (request, reply) => {
    const webhookSecret = await apps.rotateWebhookSecret(request.appId);
    return sendPage(reply, renderNewSecret(frameOf(request), "webhook", webhookSecret));
  });

  // Summary links: their own routes (console-links.routes.ts), under the hook above.
  consoleLinkRoutes(app, {
    links: new ConsoleLinks({
      experiences: deps.experiences,
      conversations,
      summaryPage: deps.summaryPage,
      apps,
    }),
    frameOf,
  });
  // Voice profiles, and "Save this voice" on a conversation's page: their own routes (console-voices.routes.ts).
  consoleVoiceRoutes(app, {
    voices: new ConsoleVoices({ voices: deps.voices, conversations, apps }),
    console: consoleService,
    frameOf,
  });
}

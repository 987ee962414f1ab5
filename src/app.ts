import { randomUUID } from "node:crypto";
import compress from "@fastify/compress";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { errorCodes, type FastifyReply, type FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { Analyzer } from "./analysis/types.ts";
import type { Clock } from "./clock.ts";
import type { Config, TrustProxy } from "./config.ts";
import type { DatabaseHandle } from "./db/database.ts";
import { requireAccessToken } from "./http/auth.ts";
import { parseJsonBody } from "./http/json-body.ts";
import { decodeUtf8, registerInputRules } from "./http/input-rules.ts";
import { createValidatorCompiler } from "./http/validation.ts";
import { registerRateLimits } from "./http/rate-limit.ts";
import { metricsRoute, registerRequestMetrics } from "./http/metrics.ts";
import { createMetrics } from "./metrics/metrics.ts";
import { logDestination, OneLinePerRequest } from "./http/logging.ts";
import { letConnectionsGoOnClose } from "./http/shutdown.ts";
import { limitRequestTime } from "./http/request-time.ts";
import {
  answerClientError,
  answerOnSocket,
  answerRouterError,
  requestTimeoutMessage,
  formatSchemaError,
  registerErrorHandling,
} from "./http/errors.ts";
import { isUnderLinks, LINK_ERROR_HEADERS } from "./http/security-headers.ts";
import { ErrorBody } from "./http/schemas.ts";
import type { Server } from "./http/types.ts";
import { appRoutes } from "./modules/apps/apps.routes.ts";
import { authRoutes } from "./modules/auth/auth.routes.ts";
import { conversationIntelligenceRoutes } from "./modules/conversations/conversation-intelligence.routes.ts";
import { conversationRoutes } from "./modules/conversations/conversations.routes.ts";
import { trackerRoutes } from "./modules/trackers/trackers.routes.ts";
import { voiceRoutes } from "./modules/voices/voices.routes.ts";
import { searchRoutes } from "./modules/search/search.routes.ts";
import { experienceRoutes } from "./modules/experiences/experiences.routes.ts";
import { summaryPageRoutes } from "./modules/summary-page/summary-page.routes.ts";
import { consoleRoutes } from "./modules/console/console.routes.ts";
import { ConsoleService } from "./modules/console/console.service.ts";
import { ingestionRoutes } from "./modules/ingestion/ingestion.routes.ts";
import { invalid } from "./errors.ts";
import { createTranscriptParser } from "./modules/ingestion/transcript-pool.ts";
import { createServices } from "./services.ts";
import type { Speech } from "./media/speech.ts";
import websocket from "@fastify/websocket";
import { mediaRoutes } from "./modules/media/media.routes.ts";
import { liveRoutes, liveSocketError } from "./modules/live/live.routes.ts";
import { LiveSlots } from "./modules/live/live-slots.ts";

/** The largest WebSocket frame a live stream may send (a second of 48 kHz LINEAR16 is 96 KB). */
const LIVE_MAX_FRAME_BYTES = 1024 * 1024;
/** A live connection must send its start_request within this. */
const LIVE_START_MS = 10_000;
/** Audio received but not yet recognised past which a live stream is ended rather than fall behind. */
const LIVE_MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
const LIVE_MAX_BACKLOG_FRAMES = 2_000;
/** How long a stopped live stream waits for its analysis, to send its insights and topics, before it completes. */
const LIVE_ANALYSIS_WAIT_MS = 15_000;

export interface AppDeps {
  config: Readonly<Config>;
  database: DatabaseHandle;
  clock: Clock;
  secret: string;
  analyzer: Analyzer;
  speech: Speech;
  /** Shared rate-limit counters (REDIS_URL); null keeps them in this process. */
  redis?: Redis | null;
  /** Start the job runner when the server is ready (default true). */
  runJobs?: boolean;
}

/**
 * What every answer starts with: its request id, and under /s/ the page headers (a page replaces the
 * CSP with its own), so that errors, unknown paths and wrong methods there carry them too.
 */
function beginResponse(request: FastifyRequest, reply: FastifyReply): void {
  reply.header("x-request-id", request.id);
  if (isUnderLinks(request.url)) reply.headers(LINK_ERROR_HEADERS);
}

/**
 * Fastify's trustProxy for the setting. Fastify itself now trusts no forwarded header for a bare number
 * (a client reaching the server directly could add hops of its own); a number set here is the operator
 * saying the server is reachable only through that many proxies, so the nearest `hops` are believed.
 */
function trustProxyOption(setting: TrustProxy) {
  return typeof setting === "number" ? (_address: string, hop: number) => hop < setting : setting;
}

/**
 * Builds the HTTP app: routes, hooks, error handling, the job runner's lifecycle and the app's metrics (served at
 * /metrics with RECAP_METRICS_TOKEN; main.ts serves them on RECAP_METRICS_PORT). Never listens.
 */
export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const app: Server = Fastify({
    logger: { level: config.logLevel, stream: logDestination() },
    bodyLimit: config.bodyLimitBytes,
    // Behind a proxy: the client's address (rate limits, view counts), protocol (Secure cookies) and host.
    trustProxy: trustProxyOption(config.trustProxy),
    // A slow client holds a socket only this long: Node times the headers (it checks every second), the
    // app the body, since uploads are held to a rate instead (http/request-time.ts).
    http: {
      requestTimeout: 0,
      headersTimeout: config.requestTimeoutSeconds * 1000,
      connectionsCheckingInterval: 1000,
      // Node would refuse an HTTP/1.1 request without Host itself, with a bare 400; the onRequest hook
      // below does, with the headers every answer gets.
      requireHostHeader: false,
    },
    clientErrorHandler: answerClientError(config.requestTimeoutSeconds, LINK_ERROR_HEADERS),
    // A request read while the app closes is answered as any other (with `Connection: close`), not
    // refused: it was sent before the server stopped listening (http/shutdown.ts).
    return503OnClosing: false,
    logController: new OneLinePerRequest(),
    genReqId: (request) => {
      const given = request.headers["x-request-id"];
      return typeof given === "string" && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
    schemaErrorFormatter: formatSchemaError,
    // Responses are written by fast-json-stringify, whose own Ajv (choosing a union's branch) knows none of the
    // formats requests are checked against and said so on stderr at a first GET /v1/app; it never checks a format.
    serializerOpts: { ajv: { formats: { "http-url": true } } },
    frameworkErrors: (error, request, reply) => {
      beginResponse(request, reply);
      answerRouterError(error, request, reply);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // One registry per app (docs/OPERATIONS.md, Metrics). Requests are timed and the process observed only
  // when someone can read the figures.
  const metricsServed = config.metrics.token !== null || config.metrics.port !== null;
  const metrics = createMetrics({ processMetrics: metricsServed });
  if (metricsServed) registerRequestMetrics(app, metrics.requests);
  const services = createServices({ ...deps, logger: app.log, metrics });
  const transcripts = createTranscriptParser();

  // Runs for every routed request, the not-found handler included; the router's own errors call it too.
  app.addHook("onRequest", async (request, reply) => {
    beginResponse(request, reply);
    if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
      throw invalid("The Host header is required");
    }
  });

  // Read as bytes, so that a body that is not UTF-8 is refused (input rules) rather than decoded to U+FFFD.
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(decodeUtf8(body as Buffer, "body")));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Bodies are JSON; the transcript import adds its own types in its own scope. A body of any other
  // type, text/plain included, or with none, is refused with 415 before a route sees it.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser("*", { parseAs: "buffer" }, (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers["content-type"] ?? ""), undefined);
  });
  registerInputRules(app);

  app.setValidatorCompiler(createValidatorCompiler());
  registerErrorHandling(app, { discardBytes: Math.max(config.bodyLimitBytes, 16 * 1024 * 1024) });
  app.addSchema(ErrorBody);

  // Every answer of a kilobyte or more in a text type (HTML, JSON, Markdown, CSS, scripts, captions) is
  // compressed as the client's Accept-Encoding allows; fonts and images already are. Request bodies are not
  // decompressed: a client sends JSON as is.
  await app.register(compress, {
    encodings: ["br", "gzip"],
    customTypes: /^(?:text\/|application\/(?:json|javascript|x-subrip)\b|image\/svg\+xml)/,
    globalDecompression: false,
  });

  await registerRateLimits(app, {
    perMinute: config.rateLimitPerMinute,
    tokenPerMinute: config.tokenRateLimitPerMinute,
    redis: deps.redis ?? null,
    metrics: metrics.rateLimits,
  });

  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Recap API",
        version: "1.0.0",
        description:
          "Conversations in, summaries and shareable summary pages out; Symbl.ai-compatible shapes.",
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        },
      },
      security: [{ bearerAuth: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });

  app.get("/openapi.json", { schema: { hide: true } }, () => app.swagger());
  const unlimited = { schema: { hide: true }, config: { rateLimit: false } } as const;
  app.get("/healthz", unlimited, () => ({ status: "ok" }));
  if (config.metrics.token !== null) metricsRoute(app, { metrics, token: config.metrics.token });
  app.get("/readyz", unlimited, async (_request, reply) => {
    const ready = await database.ping();
    const { engine, vad, diarization, reachability } = deps.speech.status();
    // Text needs no speech engine: without one, or with its server down, the process is ready for text; a
    // server known down makes it "degraded" (media waits and is retried), still 200 (docs/OPERATIONS.md).
    const degraded = reachability?.state === "unreachable";
    return reply.status(ready ? 200 : 503).send({
      status: ready ? (degraded ? "degraded" : "ready") : "database unavailable",
      speech: {
        engine: engine ?? "none",
        vad: vad ?? "none",
        diarization: diarization ?? "none",
        ...(reachability !== null && { server: reachability }),
      },
    });
  });

  authRoutes(app, services);
  await app.register(websocket, {
    // Live connections answer pings themselves (live.routes.ts): ws's own answer cuts a burst of pings without a close frame.
    options: { maxPayload: LIVE_MAX_FRAME_BYTES, autoPong: false },
    errorHandler: liveSocketError,
  });
  const liveSlots = new LiveSlots(
    {
      maxConnections: config.media.liveMaxConnections,
      maxConnectionsPerApp: config.media.liveMaxConnectionsPerApp,
    },
    deps.redis ?? null,
    app.log,
    metrics.live,
  );
  app.addHook("onClose", () => liveSlots.close());
  await app.register((scope, _options, done) => {
    liveRoutes(scope, {
      ...services,
      slots: liveSlots,
      ffmpeg: config.media,
      limits: {
        idleMs: config.media.liveIdleSeconds * 1000,
        startMs: LIVE_START_MS,
        maxBacklogBytes: LIVE_MAX_BACKLOG_BYTES,
        maxBacklogFrames: LIVE_MAX_BACKLOG_FRAMES,
        analysisWaitMs: LIVE_ANALYSIS_WAIT_MS,
        maxStreamMs: config.media.maxSeconds * 1000,
        maxConnectionMs: config.media.liveMaxConnectionSeconds * 1000,
      },
    });
    done();
  });
  await app.register(async (v1) => {
    requireAccessToken(v1, services);
    await ingestionRoutes(v1, { ...services, transcripts });
    await mediaRoutes(v1, services);
    conversationRoutes(v1, services);
    conversationIntelligenceRoutes(v1, services);
    trackerRoutes(v1, services);
    voiceRoutes(v1, services);
    searchRoutes(v1, services);
    appRoutes(v1, services);
  });
  await app.register(async (scope) => experienceRoutes(scope as Server, services));
  await app.register(async (scope) => summaryPageRoutes(scope as Server, services));
  await app.register(async (scope) =>
    consoleRoutes(scope as Server, {
      ...services,
      console: new ConsoleService({ ...services, transcripts }),
      bodyLimitBytes: config.bodyLimitBytes,
      mediaMaxBytes: config.media.maxBytes,
      mediaMinUploadBytesPerSecond: config.media.minUploadBytesPerSecond,
    }),
  );

  if (deps.runJobs ?? true) {
    app.addHook("onReady", async () => {
      if (database.ownedByOneProcess) {
        await services.jobRunner.releaseInterruptedJobs();
        await services.webhooks.releaseInterruptedClaims();
      }
      services.jobRunner.start();
      services.webhooks.start();
    });
  }
  letConnectionsGoOnClose(app);
  limitRequestTime(app, {
    seconds: config.requestTimeoutSeconds,
    cut: (socket, reason) =>
      answerOnSocket(
        socket,
        408,
        reason === "upload"
          ? `An upload must keep arriving at ${config.media.minUploadBytesPerSecond} bytes a second or more over each ${config.requestTimeoutSeconds} s (RECAP_MEDIA_MIN_UPLOAD_BYTES_PER_SECOND)`
          : requestTimeoutMessage(config.requestTimeoutSeconds),
        LINK_ERROR_HEADERS,
      ),
  });
  app.addHook("onClose", async () => {
    await services.media.stop();
    await services.jobRunner.stop();
    await services.webhooks.stop();
    await services.linkViews.stop();
    await transcripts.close();
  });

  return { app, services, metrics };
}

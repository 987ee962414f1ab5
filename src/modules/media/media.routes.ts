import { DomainError } from "../../errors.ts";
import { allowSlowUpload } from "../../http/request-time.ts";
import { errorResponses } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import { ConversationIdParams, ProcessResponse } from "../ingestion/ingestion.schemas.ts";
import { AUDIO_TYPES, MediaFileQuery, MediaUrlBody, UNTYPED, VIDEO_TYPES } from "./media.schemas.ts";
import type { MediaKind, MediaService } from "./media.service.ts";

const tags = ["Conversations in"];

const KINDS: { kind: MediaKind; types: string[] }[] = [
  { kind: "audio", types: AUDIO_TYPES },
  { kind: "video", types: [...VIDEO_TYPES, ...AUDIO_TYPES] },
];

/** Symbl's Async Audio and Video APIs: a file as the body, or a URL to fetch (docs/MEDIA.md). */
export async function mediaRoutes(app: Server, deps: { media: MediaService }): Promise<void> {
  const { media } = deps;
  for (const { kind } of KINDS) {
    app.post(
      `/v1/process/${kind}/url`,
      {
        schema: {
          tags,
          summary: `Submit ${kind} at a URL`,
          body: MediaUrlBody,
          response: { 201: ProcessResponse, ...errorResponses(400, 401, 413, 415, 503) },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await media.submitUrl(request.appId, request.body, kind)),
    );
    app.put(
      `/v1/process/${kind}/url/:conversationId`,
      {
        schema: {
          tags,
          summary: `Append ${kind} at a URL to a conversation`,
          params: ConversationIdParams,
          body: MediaUrlBody,
          response: { 201: ProcessResponse, ...errorResponses(400, 401, 404, 413, 415, 503) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await media.submitUrl(request.appId, request.body, kind, request.params.conversationId)),
    );
  }
  // The file routes read the request's own stream, in a scope whose one parser leaves it unread.
  await app.register((scope, _options, done) => {
    fileRoutes(scope, media);
    done();
  });
}

function fileRoutes(app: Server, media: MediaService): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));
  // A file of gigabytes cannot arrive within the request timeout on every link: it must keep a rate instead.
  app.addHook("onRequest", (request, _reply, done) => {
    allowSlowUpload(request.raw, media.minUploadBytesPerSecond);
    done();
  });
  // An answer given before the body was read closes the connection rather than reading the rest of a large file.
  app.addHook("onSend", (request, reply, _payload, done) => {
    if (!request.raw.complete) reply.header("connection", "close");
    done();
  });
  for (const { kind, types } of KINDS) {
    const accepted = [...types, ...UNTYPED.filter(Boolean)];
    const description =
      `Send the file as the body (Content-Type ${types.join(", ")}, or application/octet-stream or none: ` +
      "ffmpeg reads any container and codec it knows). The options are query parameters. At most " +
      "RECAP_MEDIA_MAX_BYTES (413) and RECAP_MEDIA_MAX_SECONDS long.";
    const preValidation = (
      request: { headers: Record<string, string | string[] | undefined> },
      _reply: unknown,
      done: (error?: Error) => void,
    ) => {
      const type = contentTypeOf(request.headers["content-type"]);
      const toVideo =
        kind === "audio" && VIDEO_TYPES.includes(type) ? ": send video to /v1/process/video" : "";
      done(
        accepted.includes(type) || type === ""
          ? undefined
          : new DomainError(
              "unsupported_media_type",
              `Content-Type must be one of ${types.join(", ")} or application/octet-stream (got ${type})${toVideo}`,
            ),
      );
    };
    const upload = (headers: Record<string, string | string[] | undefined>) => {
      const declared = Number(headers["content-length"]);
      const type = contentTypeOf(headers["content-type"]);
      return {
        kind,
        contentType: type === "" || type === "application/octet-stream" ? null : type,
        declaredBytes: Number.isFinite(declared) ? declared : null,
      };
    };
    app.post(
      `/v1/process/${kind}`,
      {
        schema: {
          tags,
          summary: `Submit a ${kind} file`,
          description,
          consumes: accepted,
          querystring: MediaFileQuery,
          response: { 201: ProcessResponse, ...errorResponses(400, 401, 413, 415, 503) },
        },
        preValidation,
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await media.submitUpload(request.appId, request.raw, upload(request.headers), request.query)),
    );
    app.put(
      `/v1/process/${kind}/:conversationId`,
      {
        schema: {
          tags,
          summary: `Append a ${kind} file to a conversation`,
          description,
          consumes: accepted,
          params: ConversationIdParams,
          querystring: MediaFileQuery,
          response: { 201: ProcessResponse, ...errorResponses(400, 401, 404, 413, 415, 503) },
        },
        preValidation,
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await media.submitUpload(
              request.appId,
              request.raw,
              upload(request.headers),
              request.query,
              request.params.conversationId,
            ),
          ),
    );
  }
}

function contentTypeOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

import { DomainError } from "../../errors.ts";
import { decodeUtf8 } from "../../http/input-rules.ts";
import { errorResponses } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import type { JobsService } from "../jobs/jobs.service.ts";
import {
  ConversationIdParams,
  JobParams,
  JobResponse,
  ProcessResponse,
  ProcessTextBody,
  TranscriptBody,
  TranscriptQuery,
} from "./ingestion.schemas.ts";
import { submissionFromText, type IngestionService } from "./ingestion.service.ts";
import type { TranscriptParser } from "./transcript-pool.ts";

const tags = ["Conversations in"];
const TRANSCRIPT_TYPES = ["text/vtt", "application/x-subrip"];

export async function ingestionRoutes(
  app: Server,
  deps: { ingestion: IngestionService; jobs: JobsService; transcripts: TranscriptParser },
): Promise<void> {
  const { ingestion, jobs } = deps;

  app.post(
    "/v1/process/text",
    {
      schema: {
        tags,
        summary: "Submit a conversation's messages",
        body: ProcessTextBody,
        response: { 201: ProcessResponse, ...errorResponses(400, 401, 413, 415) },
      },
    },
    async (request, reply) => {
      const accepted = await ingestion.submit(request.appId, submissionFromText(request.body));
      return reply.status(201).send(accepted);
    },
  );

  app.put(
    "/v1/process/text/:conversationId",
    {
      schema: {
        tags,
        summary: "Append messages to a conversation",
        params: ConversationIdParams,
        body: ProcessTextBody,
        response: { 201: ProcessResponse, ...errorResponses(400, 401, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const accepted = await ingestion.submit(
        request.appId,
        submissionFromText(request.body),
        request.params.conversationId,
      );
      return reply.status(201).send(accepted);
    },
  );

  // The transcript types are parsed in this route's own scope only, so no JSON route takes them.
  await app.register((scope, _options, done) => {
    transcriptImportRoute(scope, deps);
    done();
  });

  app.get(
    "/v1/job/:jobId",
    { schema: { tags, params: JobParams, response: { 200: JobResponse, ...errorResponses(401, 404) } } },
    async (request) => {
      const { id, status, message, progress } = await jobs.getJob(request.appId, request.params.jobId);
      return {
        id,
        status,
        ...(message !== undefined && { message }),
        ...(progress !== undefined && { progress }),
      };
    },
  );
}

function transcriptImportRoute(
  app: Server,
  deps: { ingestion: IngestionService; transcripts: TranscriptParser },
): void {
  const { ingestion, transcripts } = deps;
  app.addContentTypeParser(TRANSCRIPT_TYPES, { parseAs: "buffer" }, (_request, body, done) => {
    try {
      done(null, decodeUtf8(body as Buffer, "body"));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.post(
    "/v1/process/transcript",
    {
      schema: {
        tags,
        summary: "Import a WebVTT or SRT transcript",
        description:
          "Send the file as the body with Content-Type text/vtt or application/x-subrip. Cue times are " +
          "positions in the media: the conversation starts at media position 0 (the time of the import; " +
          "the summary page shows no date for it), and cues are stored in time order. A cue that ends before " +
          "it starts is a 400 naming it. A speaker is a cue's <v Name> voice tag, or a name-like `Name: ` " +
          "prefix when most of the file's cues name a speaker.",
        consumes: TRANSCRIPT_TYPES,
        body: TranscriptBody,
        querystring: TranscriptQuery,
        response: { 201: ProcessResponse, ...errorResponses(400, 401, 413, 415) },
      },
      // Before validation, so a body of another type is refused for its type rather than for its shape.
      preValidation: (request, _reply, done) => {
        const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
        done(
          TRANSCRIPT_TYPES.includes(type)
            ? undefined
            : new DomainError(
                "unsupported_media_type",
                "Content-Type must be text/vtt or application/x-subrip",
              ),
        );
      },
    },
    async (request, reply) => {
      const cues = await transcripts.parse(request.body);
      return reply.status(201).send(await ingestion.importTranscript(request.appId, cues, request.query));
    },
  );
}

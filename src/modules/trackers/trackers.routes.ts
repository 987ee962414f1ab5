import { DETECTION_LIMITS } from "../../analysis/trackers.ts";
import { errorResponses } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import { ConversationParams } from "../conversations/conversations.schemas.ts";
import {
  DetectedTrackers,
  TrackerAnswer,
  TrackerBodies,
  TrackerBody,
  TrackerDeleted,
  TrackerList,
  TrackerParams,
  TrackerQuery,
  UpdateTrackerBody,
} from "./trackers.schemas.ts";
import type { TrackersService } from "./trackers.service.ts";

const tags = ["Trackers"];

/**
 * Symbl's tracker routes: `/v1/manage/tracker` for one tracker, `/v1/manage/trackers` for the list and
 * for several at once (each by-id route answers at both spellings), and a conversation's matches.
 */
export function trackerRoutes(app: Server, deps: { trackers: TrackersService }): void {
  const { trackers } = deps;

  app.post(
    "/v1/manage/tracker",
    {
      schema: {
        tags,
        body: TrackerBody,
        response: { 201: TrackerAnswer, ...errorResponses(400, 401, 409, 413, 415) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ tracker: await trackers.createOne(request.appId, request.body) }),
  );

  app.post(
    "/v1/manage/trackers",
    {
      schema: {
        tags,
        description: "Creates several trackers, all or none.",
        body: TrackerBodies,
        response: { 201: TrackerList, ...errorResponses(400, 401, 409, 413, 415) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ trackers: await trackers.createMany(request.appId, request.body) }),
  );

  app.get(
    "/v1/manage/trackers",
    {
      schema: {
        tags,
        description: "The app's trackers, or the one with `name`.",
        querystring: TrackerQuery,
        response: { 200: TrackerList, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ trackers: await trackers.list(request.appId, request.query.name) }),
  );

  for (const path of ["/v1/manage/tracker/:trackerId", "/v1/manage/trackers/:trackerId"]) {
    app.get(
      path,
      {
        schema: {
          tags,
          params: TrackerParams,
          response: { 200: TrackerAnswer, ...errorResponses(401, 404) },
        },
      },
      async (request) => ({ tracker: await trackers.get(request.appId, request.params.trackerId) }),
    );

    app.put(
      path,
      {
        schema: {
          tags,
          description: "Replaces the tracker's name and vocabulary.",
          params: TrackerParams,
          body: UpdateTrackerBody,
          response: { 200: TrackerAnswer, ...errorResponses(400, 401, 404, 409, 413, 415) },
        },
      },
      async (request) => ({
        tracker: await trackers.update(request.appId, request.params.trackerId, request.body),
      }),
    );

    app.delete(
      path,
      {
        schema: {
          tags,
          params: TrackerParams,
          response: { 200: TrackerDeleted, ...errorResponses(401, 404) },
        },
      },
      async (request) => {
        await trackers.delete(request.appId, request.params.trackerId);
        return { id: request.params.trackerId, type: "tracker" as const, deleted: true as const };
      },
    );
  }

  for (const path of [
    "/v1/conversations/:conversationId/trackers",
    "/v1/conversations/:conversationId/trackers-detected",
  ]) {
    app.get(
      path,
      {
        schema: {
          tags,
          description:
            "Each tracker's matches, each a reference to a line or insight (its id, the words that matched, " +
            `their offset). At most ${DETECTION_LIMITS.maxRefs.toLocaleString("en")} references in all: past ` +
            "that, or past the work one answer may take, the texts after are not searched and the answer " +
            "carries `Recap-Truncated: true` (docs/SYMBL-COMPAT.md).",
          params: ConversationParams,
          response: { 200: DetectedTrackers, ...errorResponses(401, 404) },
        },
      },
      async (request, reply) => {
        const detected = await trackers.detect(request.appId, request.params.conversationId);
        if (detected.truncated) reply.header("recap-truncated", "true");
        return detected.trackers;
      },
    );
  }
}

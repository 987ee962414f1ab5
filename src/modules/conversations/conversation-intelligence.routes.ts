import { errorResponses } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import {
  Analytics,
  ConversationUpdated,
  EntityList,
  InsightList,
  IntentList,
  Transcript,
  TranscriptBody,
  UpdateConversationBody,
} from "./conversation-intelligence.schemas.ts";
import type { ConversationIntelligenceService } from "./conversation-intelligence.service.ts";
import { ConversationParams } from "./conversations.schemas.ts";
import type { ConversationsService } from "./conversations.service.ts";

const tags = ["Conversations"];

/** The rest of Symbl's Conversation API: insights, intents, entities, analytics, transcript, update. */
export function conversationIntelligenceRoutes(
  app: Server,
  deps: { conversations: ConversationsService; conversationIntelligence: ConversationIntelligenceService },
): void {
  const { conversations, conversationIntelligence: intelligence } = deps;
  const read = { tags, params: ConversationParams };

  app.put(
    "/v1/conversations/:conversationId",
    {
      schema: {
        ...read,
        description:
          "Renames the conversation and/or replaces its metadata; nothing else can be changed here.",
        body: UpdateConversationBody,
        response: { 200: ConversationUpdated, ...errorResponses(400, 401, 404, 415) },
      },
    },
    (request) => conversations.updateConversation(request.appId, request.params.conversationId, request.body),
  );

  app.get(
    "/v1/conversations/:conversationId/insights",
    {
      schema: {
        ...read,
        description: "Every action item, follow-up and question, as the three list routes give them.",
        response: { 200: InsightList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      insights: await conversations.getInsights(request.appId, request.params.conversationId),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId/intents",
    {
      schema: {
        ...read,
        description: "The lines that state a call intent in so many words (docs/SYMBL-COMPAT.md).",
        response: { 200: IntentList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      intents: await intelligence.getIntents(request.appId, request.params.conversationId),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId/entities",
    {
      schema: {
        ...read,
        description: "People, organisations, places, dates and times, money and numbers named in the lines.",
        response: { 200: EntityList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      entities: await intelligence.getEntities(request.appId, request.params.conversationId),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId/analytics",
    {
      schema: {
        ...read,
        description:
          "Speaker analytics from the lines' times; time-based figures are absent when none has times.",
        response: { 200: Analytics, ...errorResponses(401, 404) },
      },
    },
    (request) => intelligence.getAnalytics(request.appId, request.params.conversationId),
  );

  app.post(
    "/v1/conversations/:conversationId/transcript",
    {
      schema: {
        ...read,
        description: "The transcript as Markdown, SRT or WebVTT: the text of the summary page's downloads.",
        body: TranscriptBody,
        response: { 200: Transcript, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => ({
      transcript: await intelligence.formatTranscript(
        request.appId,
        request.params.conversationId,
        request.body,
      ),
    }),
  );
}

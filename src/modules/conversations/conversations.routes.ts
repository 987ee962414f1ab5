import { errorResponses } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import type { ConversationsService } from "./conversations.service.ts";
import {
  ActionItemList,
  ChapterList,
  ConversationList,
  Conversation,
  ConversationParams,
  DecisionList,
  FollowUpList,
  ListQuery,
  MemberList,
  MemberParams,
  MessageBody,
  MessageList,
  MessagesQuery,
  QuestionList,
  SummaryList,
  TopicList,
  UpdateMemberBody,
} from "./conversations.schemas.ts";

const tags = ["Conversations"];

export function conversationRoutes(app: Server, deps: { conversations: ConversationsService }): void {
  const { conversations } = deps;

  app.get(
    "/v1/conversations",
    {
      schema: {
        tags,
        querystring: ListQuery,
        response: { 200: ConversationList, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({
      conversations: await conversations.listConversations(
        request.appId,
        request.query.limit ?? 100,
        request.query.offset ?? 0,
      ),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId",
    {
      schema: {
        tags,
        params: ConversationParams,
        response: { 200: Conversation, ...errorResponses(401, 404) },
      },
    },
    (request) => conversations.getConversation(request.appId, request.params.conversationId),
  );

  app.delete(
    "/v1/conversations/:conversationId",
    {
      schema: {
        tags,
        params: ConversationParams,
        response: { 200: MessageBody, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      await conversations.deleteConversation(request.appId, request.params.conversationId);
      return { message: "successfully deleted the conversation" };
    },
  );

  app.get(
    "/v1/conversations/:conversationId/messages",
    {
      schema: {
        tags,
        params: ConversationParams,
        querystring: MessagesQuery,
        response: { 200: MessageList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({
      messages: await conversations.listMessages(request.appId, request.params.conversationId, {
        verbose: request.query.verbose === true,
      }),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId/members",
    {
      schema: {
        tags,
        params: ConversationParams,
        response: { 200: MemberList, ...errorResponses(401, 404) },
      },
      // The busiest read of the API: its one query checks the token's secret generation too.
      config: { secretGenerationInQuery: true },
    },
    async (request) => ({
      members: await conversations.listMembers(
        request.appId,
        request.secretGeneration,
        request.params.conversationId,
      ),
    }),
  );

  app.put(
    "/v1/conversations/:conversationId/members/:memberId",
    {
      schema: {
        tags,
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: MessageBody, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => {
      const { conversationId, memberId } = request.params;
      await conversations.updateMember(request.appId, conversationId, memberId, request.body);
      return {
        message: `Member with id: ${memberId} for conversationId: ${conversationId} updated successfully! The update should be reflected in all messages and insights along with this conversation`,
      };
    },
  );

  app.get(
    "/v1/conversations/:conversationId/summary",
    {
      schema: {
        tags,
        params: ConversationParams,
        response: { 200: SummaryList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      summary: await conversations.getSummary(request.appId, request.params.conversationId),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId/decisions",
    {
      schema: {
        tags,
        summary: "What the conversation decided (Recap's extension)",
        description:
          "Each decision is a sentence that states it, written by the analysis from the lines it rests on " +
          "(`messageIds`), in conversation order. Not part of Symbl's API.",
        params: ConversationParams,
        response: { 200: DecisionList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      decisions: await conversations.getDecisions(request.appId, request.params.conversationId),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId/topics",
    {
      schema: { tags, params: ConversationParams, response: { 200: TopicList, ...errorResponses(401, 404) } },
    },
    async (request) => ({
      topics: await conversations.getTopics(request.appId, request.params.conversationId),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId/chapters",
    {
      schema: {
        tags,
        summary: "The conversation's chapters, in order (Recap extension)",
        params: ConversationParams,
        response: { 200: ChapterList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      chapters: await conversations.getChapters(request.appId, request.params.conversationId),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId/questions",
    {
      schema: {
        tags,
        params: ConversationParams,
        response: { 200: QuestionList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      questions: await conversations.getInsights(request.appId, request.params.conversationId, "question"),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId/action-items",
    {
      schema: {
        tags,
        params: ConversationParams,
        response: { 200: ActionItemList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      actionItems: await conversations.getInsights(
        request.appId,
        request.params.conversationId,
        "action_item",
      ),
    }),
  );

  app.get(
    "/v1/conversations/:conversationId/follow-ups",
    {
      schema: {
        tags,
        params: ConversationParams,
        response: { 200: FollowUpList, ...errorResponses(401, 404) },
      },
    },
    async (request) => ({
      followUps: await conversations.getInsights(request.appId, request.params.conversationId, "follow_up"),
    }),
  );
}

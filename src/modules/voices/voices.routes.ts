import { Type } from "typebox";
import { errorResponses } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import { presentMember } from "../conversations/conversations.presenter.ts";
import { Member, MemberParams } from "../conversations/conversations.schemas.ts";
import {
  ConfirmVoiceBody,
  EnrolVoiceBody,
  UpdateVoiceBody,
  Voice,
  VoiceList,
  VoiceParams,
} from "./voices.schemas.ts";
import type { VoicesService } from "./voices.service.ts";

const tags = ["Voices"];
const EXTENSION = "Recap's extension, not part of Symbl's API (docs/VOICES.md).";

/** The app's voice profiles: enrolment, list, read, rename, erase; a member's voice confirmed or undone. */
export function voiceRoutes(app: Server, deps: { voices: VoicesService }): void {
  const { voices } = deps;

  app.post(
    "/v1/voices",
    {
      schema: {
        tags,
        summary: "Save a named member's voice (Recap extension)",
        description:
          "Computes a speaker embedding on this server from the member's lines in the conversation's stored " +
          "recording (at least 3 seconds of speech, at most 120 read) and keeps it, with no audio. A voice of the " +
          "same person (the member's e-mail; without one, the same name on a voice without an e-mail) is refined: " +
          "200. 403 while the app has voice profiles off; 404 for a conversation or member the app cannot see; " +
          '409 while the conversation is being transcribed; 422 for an unnamed member ("Speaker N"), a ' +
          "conversation without a stored recording, or too little speech; 503 when the speaker-embedding model " +
          `is not installed. ${EXTENSION}`,
        body: EnrolVoiceBody,
        response: { 200: Voice, 201: Voice, ...errorResponses(400, 401, 403, 404, 409, 415, 422, 503) },
      },
    },
    async (request, reply) => {
      const { voice, created } = await voices.enrol(request.appId, request.body);
      return reply.status(created ? 201 : 200).send(voice);
    },
  );

  app.get(
    "/v1/voices",
    {
      schema: {
        tags,
        summary: "The app's voices (Recap extension)",
        description: `Oldest first. ${EXTENSION}`,
        response: { 200: VoiceList, ...errorResponses(401) },
      },
    },
    async (request) => ({ voices: await voices.list(request.appId) }),
  );

  app.get(
    "/v1/voices/:voiceId",
    {
      schema: {
        tags,
        summary: "One voice (Recap extension)",
        description: EXTENSION,
        params: VoiceParams,
        response: { 200: Voice, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => voices.get(request.appId, request.params.voiceId),
  );

  app.patch(
    "/v1/voices/:voiceId",
    {
      schema: {
        tags,
        summary: "Rename a voice or set its e-mail (Recap extension)",
        description: `An e-mail another of the app's voices has is a 409. ${EXTENSION}`,
        params: VoiceParams,
        body: UpdateVoiceBody,
        response: { 200: Voice, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => voices.update(request.appId, request.params.voiceId, request.body),
  );

  app.delete(
    "/v1/voices/:voiceId",
    {
      schema: {
        tags,
        summary: "Erase a voice and its reference embeddings (Recap extension)",
        description: `Its vectors are deleted in the same statement, on every database. ${EXTENSION}`,
        params: VoiceParams,
        response: { 204: Type.Null({ description: "erased" }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await voices.delete(request.appId, request.params.voiceId);
      return reply.status(204).send(null);
    },
  );

  app.put(
    "/v1/conversations/:conversationId/members/:memberId/voice",
    {
      schema: {
        tags,
        summary: "Confirm the voice suggested for a member (Recap extension)",
        description:
          "The member takes the voice's name and e-mail (merged with the conversation's member of that e-mail, as " +
          "a rename is) and keeps it as its voice, and the voice learns the member's speech (when there are at " +
          "least 3 seconds of it). Answers the member as it now is. 403 while the app has voice profiles off; 404 " +
          `for a voice, conversation or member the app cannot see; 409 when the voice is not the member's suggestedVoice. ${EXTENSION}`,
        params: MemberParams,
        body: ConfirmVoiceBody,
        response: { 200: Member, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) => {
      const { conversationId, memberId } = request.params;
      const member = await voices.confirm(request.appId, conversationId, memberId, request.body.voiceId);
      return presentMember(member);
    },
  );

  app.delete(
    "/v1/conversations/:conversationId/members/:memberId/voice",
    {
      schema: {
        tags,
        summary: "Undo the voice that named a member, or reject the one suggested (Recap extension)",
        description:
          'A member a voice named gets its "Speaker N" name back, and what its speech taught the voice is removed; ' +
          "the voice is remembered as not this member's, and later recordings of a speaker who sounds like it are " +
          "not named or suggested as that voice. Answers the member as it now is. 404 for a conversation or member " +
          `the app cannot see, or a member with neither a voice nor a suggestedVoice. ${EXTENSION}`,
        params: MemberParams,
        response: { 200: Member, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { conversationId, memberId } = request.params;
      return presentMember(await voices.reject(request.appId, conversationId, memberId));
    },
  );
}

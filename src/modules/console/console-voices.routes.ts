import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { Server } from "../../http/types.ts";
import type { ConsoleFrame } from "../../pages/console/layout.ts";
import type { VoiceSaveResult } from "../../pages/console/view-model.ts";
import { renderConversation } from "../../pages/console/render-conversations.ts";
import {
  renderVoice,
  renderVoiceDeleteConfirmation,
  renderVoices,
} from "../../pages/console/render-voices.ts";
import { ConversationParams } from "../conversations/conversations.schemas.ts";
import { VoiceParams } from "../voices/voices.schemas.ts";
import { FormRefused } from "./console-forms.ts";
import { hidden, sendPage } from "./console-reply.ts";
import type { ConsoleVoices } from "./console-voices.ts";
import type { ConsoleService } from "./console.service.ts";

// Strings, as a browser posts them; the API's own schemas check the values.
const VoiceFormBody = Type.Object({ name: Type.String(), email: Type.String() });
const SaveVoiceBody = Type.Object({ memberId: Type.String() });
const ConfirmVoiceForm = Type.Object({ memberId: Type.String(), voiceId: Type.String() });
const VoiceQuery = Type.Object({ saved: Type.Optional(Type.Literal("1")) });

/**
 * The console's voice profiles (docs/VOICES.md, The console): the list, a voice's page with its rename form, its
 * deletion after a confirmation, and "Save this voice" on a conversation's page. Registered inside the console's
 * scope, so its session and same-origin hook guards every route here.
 */
export function consoleVoiceRoutes(
  app: Server,
  deps: {
    voices: ConsoleVoices;
    console: Pick<ConsoleService, "conversationOverview">;
    frameOf: (request: FastifyRequest) => ConsoleFrame;
  },
): void {
  const { voices, frameOf } = deps;

  app.get("/console/voices", { schema: hidden }, async (request, reply) =>
    sendPage(reply, renderVoices(frameOf(request), await voices.list(request.appId))),
  );
  app.get(
    "/console/voices/:voiceId",
    { schema: { ...hidden, params: VoiceParams, querystring: VoiceQuery } },
    async (request, reply) => {
      const voice = await voices.find(request.appId, request.params.voiceId);
      return sendPage(reply, renderVoice(frameOf(request), voice, { saved: request.query.saved === "1" }));
    },
  );
  app.post(
    "/console/voices/:voiceId",
    { schema: { ...hidden, params: VoiceParams, body: VoiceFormBody } },
    async (request, reply) => {
      const { voiceId } = request.params;
      try {
        await voices.rename(request.appId, voiceId, request.body);
        return await reply.redirect(`/console/voices/${voiceId}?saved=1`, 303);
      } catch (error) {
        if (!(error instanceof FormRefused)) throw error;
        const voice = await voices.find(request.appId, voiceId);
        const state = { form: request.body, errors: { [error.field]: error.message } };
        return sendPage(reply, renderVoice(frameOf(request), voice, state), error.status);
      }
    },
  );
  app.get(
    "/console/voices/:voiceId/delete",
    { schema: { ...hidden, params: VoiceParams } },
    async (request, reply) =>
      sendPage(
        reply,
        renderVoiceDeleteConfirmation(
          frameOf(request),
          await voices.find(request.appId, request.params.voiceId),
        ),
      ),
  );
  app.post(
    "/console/voices/:voiceId/delete",
    { schema: { ...hidden, params: VoiceParams } },
    async (request, reply) => {
      await voices.delete(request.appId, request.params.voiceId);
      return reply.redirect("/console/voices", 303);
    },
  );

  /** The conversation's page again, saying what a voice action did (or the API's refusal) at its status. */
  const conversationSaying = async (
    request: FastifyRequest,
    reply: FastifyReply,
    conversationId: string,
    { result, status }: { result: VoiceSaveResult; status: number },
  ) => {
    const overview = await deps.console.conversationOverview(request.appId, conversationId);
    return sendPage(reply, renderConversation(frameOf(request), overview, result), status);
  };

  // "Save this voice" beside a member.
  app.post(
    "/console/conversations/:conversationId/voices",
    { schema: { ...hidden, params: ConversationParams, body: SaveVoiceBody } },
    async (request, reply) => {
      const { conversationId } = request.params;
      const saved = await voices.save(request.appId, conversationId, request.body.memberId);
      return conversationSaying(request, reply, conversationId, saved);
    },
  );
  // A suggested voice confirmed, and a voice's name undone or a suggestion rejected.
  app.post(
    "/console/conversations/:conversationId/voices/confirm",
    { schema: { ...hidden, params: ConversationParams, body: ConfirmVoiceForm } },
    async (request, reply) => {
      const { conversationId } = request.params;
      const { memberId, voiceId } = request.body;
      const confirmed = await voices.confirm(request.appId, conversationId, memberId, voiceId);
      return conversationSaying(request, reply, conversationId, confirmed);
    },
  );
  app.post(
    "/console/conversations/:conversationId/voices/undo",
    { schema: { ...hidden, params: ConversationParams, body: SaveVoiceBody } },
    async (request, reply) => {
      const { conversationId } = request.params;
      const undone = await voices.undo(request.appId, conversationId, request.body.memberId);
      return conversationSaying(request, reply, conversationId, undone);
    },
  );
}

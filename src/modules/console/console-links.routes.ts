import { Type } from "typebox";
import { setPageSecurityHeaders, styleNonce } from "../../http/security-headers.ts";
import type { Server } from "../../http/types.ts";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ConsoleFrame } from "../../pages/console/layout.ts";
import type { LinkForm } from "../../pages/console/view-model.ts";
import {
  EMPTY_LINK_FORM,
  renderLinkCreated,
  renderLinkForm,
  renderLinkManage,
  renderLinks,
  renderRevokeConfirmation,
} from "../../pages/console/render-links.ts";
import { FormRefused } from "./console-forms.ts";
import { hidden, sendPage } from "./console-reply.ts";
import { ConversationParams } from "../conversations/conversations.schemas.ts";
import { ExperienceItemParams, LINK_STATES } from "../experiences/experiences.schemas.ts";
import {
  LINK_FORM_CHECKBOXES,
  LINK_FORM_FIELDS,
  type ConsoleLinks,
  type LinkEditForm,
  type LinkFormContext,
} from "./console-links.ts";

const LinksQuery = Type.Object({
  state: Type.Optional(Type.Union([Type.Enum(LINK_STATES), Type.Literal("")])),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
});
// Every field a string, as a browser posts them; the API's own schemas check the values.
const LinkFormBody = Type.Record(Type.String(), Type.String());

const AVATAR_PREFIX = "avatar.";

/**
 * The form's values from a posted body: a missing text field is empty, a ticked checkbox is sent as "on",
 * and `avatar.<member id>` is that member's picture URL.
 */
function linkFormOf(body: Record<string, string>): LinkForm {
  const form: LinkForm = { ...EMPTY_LINK_FORM, summaryURLExpiresIn: "", avatars: {} };
  for (const name of LINK_FORM_FIELDS) form[name] = body[name] ?? "";
  for (const name of LINK_FORM_CHECKBOXES) form[name] = body[name] !== undefined;
  for (const [name, value] of Object.entries(body)) {
    if (name.startsWith(AVATAR_PREFIX)) form.avatars[name.slice(AVATAR_PREFIX.length)] = value;
  }
  return form;
}

function editFormOf(body: Record<string, string>): LinkEditForm {
  const expiry = body.expiry === "at" || body.expiry === "never" ? body.expiry : "keep";
  return { label: body.label ?? "", expiry, expiresAt: body.expiresAt ?? "" };
}

/**
 * The console's summary links (docs/ARCHITECTURE.md, "Console"): create one from a conversation's row,
 * list them, relabel, move the expiry, revoke. Registered inside the console's scope, so its session and
 * same-origin hook guards every route here.
 */
export function consoleLinkRoutes(
  app: Server,
  deps: {
    links: ConsoleLinks;
    frameOf: (request: FastifyRequest) => ConsoleFrame;
  },
): void {
  const { links, frameOf } = deps;
  /**
   * The create form's page, with a picture field for each member and this conversation's preview: its
   * brand is one inline stylesheet, allowed by a fresh nonce.
   */
  const formPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    context: LinkFormContext,
    form: LinkForm,
    errors: Record<string, string> = {},
    status = 200,
  ) => {
    const nonce = styleNonce();
    setPageSecurityHeaders(reply, { styleNonce: nonce, frameAncestors: [] });
    const view = { ...context, form, errors, styleNonce: nonce };
    return sendPage(reply, renderLinkForm(frameOf(request), view), status);
  };

  app.get(
    "/console/conversations/:conversationId/links/new",
    { schema: { ...hidden, params: ConversationParams } },
    async (request, reply) => {
      const context = await links.formContext(request.appId, request.params.conversationId);
      return formPage(request, reply, context, EMPTY_LINK_FORM);
    },
  );
  app.post(
    "/console/conversations/:conversationId/links",
    { schema: { ...hidden, params: ConversationParams, body: LinkFormBody } },
    async (request, reply) => {
      const context = await links.formContext(request.appId, request.params.conversationId);
      const { conversation } = context;
      const form = linkFormOf(request.body);
      if (request.body.action === "preview") return formPage(request, reply, context, form);
      try {
        const created = await links.create(request.appId, conversation.id, form);
        const shown = {
          url: created.url,
          conversationId: conversation.id,
          conversationName: conversation.name,
        };
        return await sendPage(reply, renderLinkCreated(frameOf(request), shown), 201);
      } catch (error) {
        if (!(error instanceof FormRefused)) throw error;
        const errors = { [error.field]: error.message };
        return formPage(request, reply, context, form, errors, error.status);
      }
    },
  );

  app.get("/console/links", { schema: { ...hidden, querystring: LinksQuery } }, async (request, reply) => {
    const state = request.query.state || null;
    return sendPage(
      reply,
      renderLinks(frameOf(request), await links.list(request.appId, state, request.query.page ?? 1)),
    );
  });
  app.get(
    "/console/links/:conversationId/:experienceId",
    { schema: { ...hidden, params: ExperienceItemParams } },
    async (request, reply) =>
      sendPage(reply, renderLinkManage(frameOf(request), await links.find(request.appId, request.params))),
  );
  app.post(
    "/console/links/:conversationId/:experienceId",
    { schema: { ...hidden, params: ExperienceItemParams, body: LinkFormBody } },
    async (request, reply) => {
      const { conversationId, experienceId } = request.params;
      const form = editFormOf(request.body);
      try {
        await links.update(request.appId, conversationId, experienceId, form);
        return await reply.redirect(`/console/links/${conversationId}/${experienceId}`, 303);
      } catch (error) {
        if (!(error instanceof FormRefused)) throw error;
        const link = await links.find(request.appId, request.params);
        const state = { ...form, errors: { [error.field]: error.message } };
        return sendPage(reply, renderLinkManage(frameOf(request), link, state), error.status);
      }
    },
  );
  app.get(
    "/console/links/:conversationId/:experienceId/revoke",
    { schema: { ...hidden, params: ExperienceItemParams } },
    async (request, reply) =>
      sendPage(
        reply,
        renderRevokeConfirmation(frameOf(request), await links.find(request.appId, request.params)),
      ),
  );
  app.post(
    "/console/links/:conversationId/:experienceId/revoke",
    { schema: { ...hidden, params: ExperienceItemParams } },
    async (request, reply) => {
      const { conversationId, experienceId } = request.params;
      await links.revoke(request.appId, conversationId, experienceId);
      return reply.redirect(`/console/links/${conversationId}/${experienceId}`, 303);
    },
  );
}

import { Type } from "typebox";
import { errorResponses, MessageBody } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import type { ExperiencesService } from "../experiences/experiences.service.ts";
import {
  EditInsightBody,
  EditMessageBody,
  MessageSaved,
  RenameConversationBody,
  RenameMemberBody,
} from "./page-edits.schemas.ts";
import type { PageEditsService } from "./page-edits.service.ts";

export interface PageEditRouteDeps {
  experiences: Pick<ExperiencesService, "openLink">;
  pageEdits: PageEditsService;
}

const done = { message: "Saved" };
const editResponses = { 200: MessageBody, ...errorResponses(400, 403, 404, 409, 410, 415) };
const token = Type.String();
const itemId = Type.String({ maxLength: 64 });

/**
 * The edits an editable link makes, one route each. The link is the key: an unknown, expired or revoked
 * one answers as any API error does (`{"message"}` at the error table's status).
 */
export function pageEditRoutes(links: Server, deps: PageEditRouteDeps): void {
  const { experiences, pageEdits } = deps;
  const open = (request: { params: { token: string }; host: string }) =>
    experiences.openLink(request.params.token, request.host);

  links.patch(
    "/s/:token/conversation",
    {
      schema: {
        hide: true,
        params: Type.Object({ token }),
        body: RenameConversationBody,
        response: editResponses,
      },
    },
    async (request) => {
      await pageEdits.renameConversation(await open(request), request.body.name);
      return done;
    },
  );

  links.patch(
    "/s/:token/members/:memberId",
    {
      schema: {
        hide: true,
        params: Type.Object({ token, memberId: itemId }),
        body: RenameMemberBody,
        response: editResponses,
      },
    },
    async (request) => {
      await pageEdits.renameMember(await open(request), request.params.memberId, request.body.name);
      return done;
    },
  );

  links.patch(
    "/s/:token/messages/:messageId",
    {
      schema: {
        hide: true,
        params: Type.Object({ token, messageId: itemId }),
        body: EditMessageBody,
        response: { ...editResponses, 200: MessageSaved },
      },
    },
    async (request) => {
      const { jobId } = await pageEdits.editMessage(
        await open(request),
        request.params.messageId,
        request.body,
      );
      return jobId === null ? done : { ...done, jobId };
    },
  );

  links.patch(
    "/s/:token/insights/:insightId",
    {
      schema: {
        hide: true,
        params: Type.Object({ token, insightId: itemId }),
        body: EditInsightBody,
        response: editResponses,
      },
    },
    async (request) => {
      await pageEdits.editInsight(await open(request), request.params.insightId, request.body);
      return done;
    },
  );
}

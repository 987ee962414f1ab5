import { Type } from "typebox";
import { errorResponses, MessageBody } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import {
  EditInsightBody,
  EditMessageBody,
  MessageSaved,
  RenameConversationBody,
  RenameMemberBody,
} from "./page-edits.schemas.ts";
import type { PageEditsService } from "./page-edits.service.ts";
import { openedLink } from "./link-answers.ts";

export interface PageEditRouteDeps {
  pageEdits: PageEditsService;
}

const done = { message: "Saved" };
const editResponses = { 200: MessageBody, ...errorResponses(400, 403, 404, 409, 410, 415) };
const token = Type.String();
const itemId = Type.String({ maxLength: 64 });

/** An edit's link problem is told as any API error is: `{"message"}` at the error table's status. */
const config = { linkProblemFormat: () => "json" as const };

/**
 * The edits an editable link makes, one route each. The link is the key, opened by the links scope's hook
 * before the body is read: an unknown, expired or revoked one answers as any API error does.
 */
export function pageEditRoutes(links: Server, deps: PageEditRouteDeps): void {
  const { pageEdits } = deps;

  links.patch(
    "/s/:token/conversation",
    {
      schema: {
        hide: true,
        params: Type.Object({ token }),
        body: RenameConversationBody,
        response: editResponses,
      },
      config,
    },
    async (request) => {
      await pageEdits.renameConversation(openedLink(request), request.body.name);
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
      config,
    },
    async (request) => {
      await pageEdits.renameMember(openedLink(request), request.params.memberId, request.body.name);
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
      config,
    },
    async (request) => {
      const { jobId } = await pageEdits.editMessage(
        openedLink(request),
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
      config,
    },
    async (request) => {
      await pageEdits.editInsight(openedLink(request), request.params.insightId, request.body);
      return done;
    },
  );
}

import { Type } from "typebox";

/** A line edit's answer: `jobId` is the re-analysis that will take the change in (GET /v1/job/{jobId}). */
export const MessageSaved = Type.Object({ message: Type.String(), jobId: Type.Optional(Type.String()) });

/** The body of an edit made through an editable link. */
export const RenameConversationBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 300 }) });
export const RenameMemberBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
export const EditMessageBody = Type.Object({
  text: Type.Optional(Type.String({ minLength: 1, maxLength: 20_000 })),
  hidden: Type.Optional(Type.Boolean()),
});
export const EditInsightBody = Type.Object({
  text: Type.Optional(Type.String({ minLength: 1, maxLength: 2_000 })),
  dismissed: Type.Optional(Type.Boolean()),
});

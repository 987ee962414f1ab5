import { Type, type Static } from "typebox";
import { NumericId, Uuid } from "../../http/schemas.ts";

/** POST /v1/voices: the named member of a media conversation whose voice is enrolled. */
export const EnrolVoiceBody = Type.Object(
  {
    conversationId: NumericId,
    memberId: Type.String({ ...Uuid, description: 'a member of the conversation, named (not "Speaker N")' }),
  },
  { additionalProperties: false },
);
export type EnrolVoiceBody = Static<typeof EnrolVoiceBody>;

/** PATCH /v1/voices/{voiceId}: the name, the e-mail (null removes it), or both (VoicesService.update refuses neither). */
export const UpdateVoiceBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "1 to 200 characters, trimmed" }),
    ),
    email: Type.Optional(
      Type.Union([Type.String({ format: "email", maxLength: 320 }), Type.Null()], {
        description: "unique among the app's voices; null removes it",
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateVoiceBody = Static<typeof UpdateVoiceBody>;

export const VoiceParams = Type.Object({ voiceId: Uuid });

export const Voice = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  speechSeconds: Type.Number({
    description: "the speech its reference embeddings were computed from, in seconds",
  }),
  model: Type.String({ description: "the speaker-embedding model its references were computed with" }),
  needsRefresh: Type.Boolean({
    description:
      "true when it was made with another embedding model than the one installed: it is not matched until the " +
      "person's voice is saved again (POST /v1/voices), which replaces its references",
  }),
  createdAt: Type.String(),
  updatedAt: Type.String({ description: "when it was last renamed or refined" }),
  conversations: Type.Array(Type.String(), {
    description: "the conversations its references were computed from, first enrolled first",
  }),
});
export type Voice = Static<typeof Voice>;

export const VoiceList = Type.Object({ voices: Type.Array(Voice) });

/** PUT …/members/{memberId}/voice: the voice suggested for the member, confirmed. */
export const ConfirmVoiceBody = Type.Object(
  { voiceId: Type.String({ ...Uuid, description: "the id of the member's suggestedVoice" }) },
  { additionalProperties: false },
);
export type ConfirmVoiceBody = Static<typeof ConfirmVoiceBody>;

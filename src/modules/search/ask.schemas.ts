import { Type, type Static } from "typebox";

/** The longest question: a few sentences, far past any real one. */
export const MAX_QUESTION_CHARS = 1_000;
/** The most conversations one question may be kept to. */
export const MAX_ASK_CONVERSATIONS = 50;

export const AskBody = Type.Object(
  {
    question: Type.String({
      minLength: 1,
      maxLength: MAX_QUESTION_CHARS,
      pattern: "\\S",
      description: `a question about the app's conversations, in words (not blank; at most ${MAX_QUESTION_CHARS} characters)`,
    }),
    conversationIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        minItems: 1,
        maxItems: MAX_ASK_CONVERSATIONS,
        uniqueItems: true,
        description: `only these conversations (at most ${MAX_ASK_CONVERSATIONS}); all of the app's when absent`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type AskBody = Static<typeof AskBody>;

export const AskAnswer = Type.Object({
  answer: Type.Array(
    Type.Object({
      text: Type.String(),
      messageIds: Type.Array(Type.String(), {
        description: "the lines the sentence stands on: each was among those the model was shown",
      }),
    }),
    { description: "a few sentences, each citing the lines it stands on; empty when nothing answers" },
  ),
  sources: Type.Array(Type.Object({ conversationId: Type.String(), messageId: Type.String() }), {
    description: "every line the answer cites, with its conversation, in the order first cited",
  }),
  message: Type.Optional(
    Type.String({ description: "present when there is no answer: why (nothing in the conversations found)" }),
  ),
});
export type AskAnswer = Static<typeof AskAnswer>;

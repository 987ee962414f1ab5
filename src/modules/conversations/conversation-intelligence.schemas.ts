import { Type, type Static } from "typebox";
import { Insight } from "./conversations.schemas.ts";

/** Every insight of a conversation, of the types INSIGHT_TYPES lists, in Symbl's `{insights}` shape. */
export const InsightList = Type.Object({ insights: Type.Array(Insight) });

/** The intents the API publishes (Symbl's telephony intents). */
export const INTENTS = ["interested", "not_interested", "do_not_call", "answering_machine"] as const;
export type IntentName = (typeof INTENTS)[number];

const IntentName = Type.Enum(INTENTS, {
  description: "what the line says the caller wants (docs/SYMBL-COMPAT.md: the phrases Recap reads)",
});

export const Intent = Type.Object({
  id: Type.String(),
  text: Type.String({ description: "the line that states the intent" }),
  type: Type.Literal("intent"),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  messageIds: Type.Array(Type.String()),
  intent: IntentName,
  alternatives: Type.Array(Type.Object({ intent: IntentName, score: Type.Number() })),
  entities: Type.Array(Type.Object({ type: Type.String(), text: Type.String() })),
});
export const IntentList = Type.Object({ intents: Type.Array(Intent) });

export const ENTITY_TYPES = ["person", "organization", "location", "datetime", "money", "number"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const Entity = Type.Object({
  type: Type.Enum(ENTITY_TYPES),
  subType: Type.String({
    description: "e.g. date, time, duration for datetime; cardinal, percent for number",
  }),
  category: Type.Literal("Managed"),
  value: Type.String({
    description: "normalised where it can be (ISO-8601 dates and times, plain numbers), else the text",
  }),
  text: Type.String({ description: "as said" }),
  messageRefs: Type.Array(
    Type.Object({
      id: Type.String(),
      text: Type.String(),
      offset: Type.Optional(Type.Integer({ description: "where the value starts in the line's text" })),
    }),
  ),
  messageIds: Type.Array(Type.String()),
});
export const EntityList = Type.Object({ entities: Type.Array(Entity) });

const Share = Type.Object({ percentage: Type.Number(), seconds: Type.Number() });

export const AnalyticsMember = Type.Object({
  id: Type.String(),
  name: Type.String(),
  userId: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  words: Type.Integer({ description: "Recap's addition: words the member said" }),
  pace: Type.Optional(Type.Object({ wpm: Type.Number() })),
  talkTime: Type.Optional(Share),
  listenTime: Type.Optional(Share),
  overlap: Type.Optional(
    Type.Object({
      overlapDuration: Type.Number(),
      overlappingMembers: Type.Array(
        Type.Object({
          id: Type.String(),
          name: Type.String(),
          userId: Type.Optional(Type.String()),
          percent: Type.Number({ description: "of the two members' talk time together" }),
          seconds: Type.Number(),
        }),
      ),
    }),
  ),
  longestMonologue: Type.Object(
    {
      words: Type.Integer(),
      seconds: Type.Optional(Type.Number()),
      messageIds: Type.Array(Type.String()),
    },
    { description: "Recap's addition: the member's longest run of lines with nobody else between" },
  ),
});

export const Analytics = Type.Object({
  metrics: Type.Array(
    Type.Object({
      type: Type.Enum(["total_silence", "total_talk_time", "total_overlap"]),
      percent: Type.Number(),
      seconds: Type.Number(),
    }),
    { description: "empty when no line has both a start and an end time" },
  ),
  members: Type.Array(AnalyticsMember),
});

export const TRANSCRIPT_CONTENT_TYPES = ["text/markdown", "text/srt", "text/vtt"] as const;

export const TranscriptBody = Type.Object(
  {
    contentType: Type.Enum(TRANSCRIPT_CONTENT_TYPES),
    showSpeakerSeparation: Type.Optional(
      Type.Boolean({ default: true, description: "name the speaker of each line (default true)" }),
    ),
    showTimestamps: Type.Optional(
      Type.Boolean({
        default: true,
        description: "Recap's addition, Markdown only: each line's time from the start (default true)",
      }),
    ),
    createParagraphs: Type.Optional(Type.Boolean({ description: "accepted; lines are always paragraphs" })),
    phrases: Type.Optional(
      Type.Object(
        {
          highlightOnlyInsightKeyPhrases: Type.Optional(Type.Boolean()),
          highlightAllKeyPhrases: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false, description: "accepted; Recap highlights no phrases" },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TranscriptBody = Static<typeof TranscriptBody>;

export const Transcript = Type.Object({
  transcript: Type.Object({
    payload: Type.String(),
    contentType: Type.Enum(TRANSCRIPT_CONTENT_TYPES),
  }),
});

export const UpdateConversationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    metadata: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.Unknown())),
  },
  // At least one of the two is checked by the service: json-schema-faker (the fuzz tier) cannot generate
  // for minProperties with only optional properties.
  {
    additionalProperties: false,
    description: "name and/or metadata (id, type and members cannot be changed here)",
  },
);
export type UpdateConversationBody = Static<typeof UpdateConversationBody>;

export const ConversationUpdated = Type.Object({
  id: Type.String(),
  name: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
});

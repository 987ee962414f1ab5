import { Type, type Static } from "typebox";

export const ConversationParams = Type.Object({ conversationId: Type.String({ maxLength: 64 }) });
export const MemberParams = Type.Object({
  conversationId: Type.String({ maxLength: 64 }),
  memberId: Type.String({ maxLength: 64 }),
});

export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  // Bounded so every database takes it as a 32-bit integer.
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 })),
});

const VoiceScore = Type.Number({
  minimum: -1,
  maximum: 1,
  description:
    "The raw cosine similarity of the speaker's voice and the profile's, in [-1, 1] (not (1 + cos) / 2)",
});
export const Member = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.Optional(Type.String()),
  voice: Type.Optional(
    Type.Object(
      { id: Type.String(), score: VoiceScore },
      {
        description:
          "Recap's extension: the voice profile (GET /v1/voices/{id}) that named this diarized speaker, and how alike they sounded",
      },
    ),
  ),
  suggestedVoice: Type.Optional(
    Type.Object(
      { id: Type.String(), name: Type.String(), score: VoiceScore },
      {
        description:
          'Recap\'s extension: a voice profile this speaker sounds like, below the threshold that names it; the member keeps its "Speaker N" name',
      },
    ),
  ),
});
const From = Type.Object({
  id: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  userId: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
});

const Engine = Type.Union([Type.Literal("llm"), Type.Literal("local")], {
  description:
    '"llm": written by the language model the server is configured with; "local": by Recap\'s own analysis',
});

export const Conversation = Type.Object({
  id: Type.String(),
  type: Type.Literal("meeting"),
  name: Type.String(),
  startTime: Type.String(),
  endTime: Type.String(),
  members: Type.Array(Member),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  languageCode: Type.Optional(
    Type.String({
      description:
        'The conversation\'s language as a BCP 47 tag ("en-US", "es-ES"), as Symbl named it; present once analysed (detected from the lines)',
    }),
  ),
  /** Recap's own field (not Symbl's), present once the conversation has been analysed. */
  analysis: Type.Optional(
    Type.Object(
      {
        status: Type.Union([Type.Literal("analysed"), Type.Literal("language_not_supported")], {
          description:
            '"language_not_supported": the analysis does not read the conversation\'s language, so it has no summary, topics or insights (docs/ANALYSIS.md, Language)',
        }),
        notice: Type.Optional(
          Type.String({
            description: "Why the conversation has no summary, topics or insights, for a reader",
          }),
        ),
        engines: Type.Object({ summary: Engine, decisions: Engine, chapters: Engine, actionItems: Engine }),
      },
      {
        description:
          "Recap's addition: whether the analysis read the conversation, and which engine wrote each part of the stored analysis (docs/LLM.md)",
      },
    ),
  ),
  failedJob: Type.Optional(
    Type.Object(
      { id: Type.String(), message: Type.String() },
      {
        description:
          "Recap's addition, present when the conversation's latest job failed: the job and why (as GET /v1/job/{jobId} says). " +
          "The conversation keeps what earlier jobs made; one made by a media job that failed has no lines (docs/MEDIA.md, The job)",
      },
    ),
  ),
});

export const ConversationList = Type.Object({ conversations: Type.Array(Conversation) });

export const Message = Type.Object({
  id: Type.String(),
  text: Type.String(),
  from: From,
  startTime: Type.Union([Type.String(), Type.Null()]),
  endTime: Type.Union([Type.String(), Type.Null()]),
  timeOffset: Type.Union([Type.Number(), Type.Null()]),
  duration: Type.Union([Type.Number(), Type.Null()]),
  conversationId: Type.String(),
  words: Type.Optional(
    Type.Array(
      Type.Object({
        word: Type.String(),
        startTime: Type.String(),
        endTime: Type.String(),
        timeOffset: Type.Number(),
        duration: Type.Number(),
      }),
      { description: "With verbose=true, on lines recognised from media: each word and its times (seconds)" },
    ),
  ),
});
export const MessagesQuery = Type.Object({
  verbose: Type.Optional(
    Type.Boolean({ description: "true adds each recognised line's words with their times" }),
  ),
});
export const MessageList = Type.Object({ messages: Type.Array(Message) });

export const MemberList = Type.Object({ members: Type.Array(Member) });
export const UpdateMemberBody = Type.Object({
  id: Type.String({ maxLength: 64 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Type.String({ format: "email", maxLength: 320 })),
});
export type UpdateMemberBody = Static<typeof UpdateMemberBody>;
export const MessageBody = Type.Object({ message: Type.String() });

export const Summary = Type.Object({
  id: Type.String(),
  text: Type.String(),
  messageRefs: Type.Array(Type.Object({ id: Type.String() })),
});
export const SummaryList = Type.Object({ summary: Type.Array(Summary) });

/** Recap's extension: what the conversation decided (docs/SYMBL-COMPAT.md, Decisions). */
export const Decision = Type.Object({
  id: Type.String(),
  text: Type.String({
    description: "A sentence that states the decision, written from the lines it rests on",
  }),
  messageIds: Type.Array(Type.String(), { description: "The lines that state the decision, in order" }),
});
export const DecisionList = Type.Object({ decisions: Type.Array(Decision) });

export const Topic = Type.Object({
  id: Type.String(),
  text: Type.String(),
  type: Type.Literal("topic"),
  score: Type.Number(),
  messageIds: Type.Array(Type.String()),
});
export const TopicList = Type.Object({ topics: Type.Array(Topic) });

/** A chapter: a contiguous part of the conversation, its title and its lines in order (a Recap extension). */
export const Chapter = Type.Object({
  id: Type.String(),
  text: Type.String({ description: "The chapter's title: what this part of the conversation was about" }),
  messageIds: Type.Array(Type.String(), { description: "The chapter's lines, in conversation order" }),
});
export const ChapterList = Type.Object(
  {
    chapters: Type.Array(Chapter, {
      description: "In the order they happened; together they cover the conversation",
    }),
  },
  {
    description:
      "Recap extension: the conversation's chapters alone (GET …/topics mixes them with key phrases)",
  },
);

/**
 * The insight types the API publishes (each has its own list route), declared here and imported by analysis
 * and the page. An insight's `type` stays a plain string in the response schema, as the API has always
 * documented it.
 */
export const INSIGHT_TYPES = ["action_item", "follow_up", "question"] as const;
export type InsightType = (typeof INSIGHT_TYPES)[number];

export const Insight = Type.Object({
  id: Type.String(),
  text: Type.String(),
  type: Type.String(),
  score: Type.Number(),
  messageIds: Type.Array(Type.String()),
  from: From,
  assignee: Type.Optional(
    Type.Object({
      id: Type.Optional(Type.String()),
      name: Type.String(),
      email: Type.Optional(Type.String()),
    }),
  ),
  /** A full ISO-8601 date-time in UTC, as Symbl sent it (00:00 when the text states only a day, 23:59:59.999 when that day is the day it was said). */
  dueBy: Type.Optional(Type.String({ format: "date-time" })),
});
export const QuestionList = Type.Object({ questions: Type.Array(Insight) });
export const ActionItemList = Type.Object({ actionItems: Type.Array(Insight) });
export const FollowUpList = Type.Object({ followUps: Type.Array(Insight) });

import { Type, type Static } from "typebox";
import { DateTime } from "../../http/schemas.ts";

// The description is also the wording of the 400 when the format or pattern fails ("webhookUrl must be …").
export const WebhookUrl = Type.String({
  format: "http-url",
  pattern: "^https?://",
  maxLength: 2048,
  description:
    "an absolute http(s) URL, which receives each job status, signed per Standard Webhooks (docs/WEBHOOKS.md); refused: user credentials, and hosts that are or resolve to internal addresses unless allowed by the operator",
});

export const IncomingMessage = Type.Object({
  payload: Type.Object({
    content: Type.String({ minLength: 1, maxLength: 100_000 }),
    contentType: Type.Optional(Type.Literal("text/plain")),
  }),
  from: Type.Optional(
    Type.Object({
      name: Type.Optional(Type.String({ maxLength: 200 })),
      userId: Type.Optional(Type.String({ maxLength: 320 })),
      email: Type.Optional(Type.String({ format: "email", maxLength: 320 })),
    }),
  ),
  duration: Type.Optional(
    Type.Object({
      startTime: DateTime,
      endTime: DateTime,
    }),
  ),
});

export const ProcessTextBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  messages: Type.Array(IncomingMessage, { minItems: 1, maxItems: 100_000 }),
  confidenceThreshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  webhookUrl: Type.Optional(WebhookUrl),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type ProcessTextBody = Static<typeof ProcessTextBody>;

export const TranscriptBody = Type.String({
  description:
    "The transcript file itself: WebVTT (text/vtt) or SRT (application/x-subrip). A speaker is read from a " +
    "WebVTT voice tag (<v Dana>) or a `Name: ` prefix.",
});

export const TranscriptQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  webhookUrl: Type.Optional(WebhookUrl),
});

export const ConversationIdParams = Type.Object({
  conversationId: Type.String({ pattern: "^[0-9]{16}$" }),
});

export const ProcessResponse = Type.Object({
  conversationId: Type.String(),
  jobId: Type.String(),
});

export const JobParams = Type.Object({ jobId: Type.String({ maxLength: 64 }) });
export const JobResponse = Type.Object({
  id: Type.String(),
  status: Type.Union([
    Type.Literal("scheduled"),
    Type.Literal("in_progress"),
    Type.Literal("completed"),
    Type.Literal("failed"),
  ]),
  message: Type.Optional(
    Type.String({
      description:
        "Recap's extension, on failed jobs only: why the job failed, said for whoever submitted it (docs/MEDIA.md, The job)",
    }),
  ),
  progress: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100,
      description: "Recap's extension, on media jobs only: how far the transcription has got, in percent",
    }),
  ),
});

import { Type, type Static } from "typebox";
import { WebhookUrl } from "../ingestion/ingestion.schemas.ts";

/** The audio types `POST /v1/process/audio` names (ffmpeg reads the file whatever its type says). */
export const AUDIO_TYPES = [
  "audio/wav",
  "audio/wave",
  "audio/x-wav",
  "audio/mpeg",
  "audio/mp3",
  "audio/mp4",
  "audio/m4a",
  "audio/x-m4a",
  "audio/aac",
  "audio/ogg",
  "audio/opus",
  "audio/webm",
  "audio/flac",
  "audio/x-flac",
];
export const VIDEO_TYPES = ["video/mp4", "video/webm", "video/quicktime", "video/x-matroska"];
/** Symbl: "If your audio is in a format other than these, do not use this field". */
export const UNTYPED = ["application/octet-stream", ""];

const LanguageCode = Type.String({
  pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$",
  maxLength: 35,
  description: "BCP-47, such as en-US; the recogniser is given its language (docs/MEDIA.md)",
});
const Vocabulary = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 500,
  description: "Words and phrases to favour: the remote engine's prompt; ignored by the local models",
});
const SpeakerCount = Type.Integer({
  minimum: 1,
  maximum: 32,
  description: "How many people speak, when known (with enableSpeakerDiarization)",
});
export const ChannelMetadata = Type.Array(
  Type.Object({
    channel: Type.Integer({ minimum: 1, maximum: 32, description: "1 for the first (left) channel" }),
    speaker: Type.Object({
      name: Type.Optional(Type.String({ maxLength: 200 })),
      email: Type.Optional(Type.String({ format: "email", maxLength: 320 })),
    }),
  }),
  {
    minItems: 1,
    maxItems: 32,
    description: "One speaker per channel of a multichannel recording (a call: agent left, customer right)",
  },
);

export type ChannelMetadata = Static<typeof ChannelMetadata>;

/** Symbl's options Recap accepts and does not act on (docs/MEDIA.md, What differs from Symbl). */
const ignored = {
  detectPhrases: Type.Optional(Type.Boolean({ description: "Accepted and ignored" })),
  detectEntities: Type.Optional(
    Type.Boolean({ description: "Accepted and ignored: entities are always found" }),
  ),
  enableSeparateRecognitionPerChannel: Type.Optional(
    Type.Boolean({ description: "Accepted; channelMetadata alone turns per-channel recognition on" }),
  ),
  enableAllTrackers: Type.Optional(
    Type.Boolean({ description: "Accepted and ignored: trackers always apply" }),
  ),
  enableSummary: Type.Optional(Type.Boolean({ description: "Accepted and ignored: every job summarises" })),
  mode: Type.Optional(
    Type.Union([Type.Literal("phone"), Type.Literal("default")], { description: "Accepted and ignored" }),
  ),
};

export const MediaUrlBody = Type.Object({
  url: Type.String({
    format: "http-url",
    pattern: "^https?://",
    maxLength: 4096,
    description:
      "an absolute http(s) URL of the media to fetch: no credentials, no internal address unless the operator allowed its host (RECAP_MEDIA_ALLOW_HOSTS)",
  }),
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  webhookUrl: Type.Optional(WebhookUrl),
  confidenceThreshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  languageCode: Type.Optional(LanguageCode),
  customVocabulary: Type.Optional(Vocabulary),
  enableSpeakerDiarization: Type.Optional(Type.Boolean()),
  diarizationSpeakerCount: Type.Optional(SpeakerCount),
  channelMetadata: Type.Optional(ChannelMetadata),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  ...ignored,
  entities: Type.Optional(Type.Array(Type.Unknown(), { description: "Accepted and ignored" })),
  trackers: Type.Optional(
    Type.Array(Type.Unknown(), { description: "Accepted and ignored: use the app's trackers" }),
  ),
});
export type MediaUrlBody = Static<typeof MediaUrlBody>;

/** The same options in the query of a file upload; lists come repeated (`a=1&a=2`) or as JSON. */
export const MediaFileQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  webhookUrl: Type.Optional(WebhookUrl),
  confidenceThreshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  languageCode: Type.Optional(LanguageCode),
  customVocabulary: Type.Optional(
    Type.Union([
      Type.Array(Type.String({ maxLength: 50_000 }), { maxItems: 500 }),
      Type.String({ maxLength: 50_000 }),
    ]),
  ),
  enableSpeakerDiarization: Type.Optional(Type.Boolean()),
  diarizationSpeakerCount: Type.Optional(SpeakerCount),
  channelMetadata: Type.Optional(
    Type.String({ maxLength: 20_000, description: "channelMetadata as JSON, as in the URL route's body" }),
  ),
  ...ignored,
});
export type MediaFileQuery = Static<typeof MediaFileQuery>;

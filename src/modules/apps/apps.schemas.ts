import { Type, type Static } from "typebox";
import { Brand } from "../experiences/experiences.schemas.ts";

const BRAND_DESCRIPTION =
  "the logo, favicon, colours and font a summary page takes when its link does not set them (the link's own " +
  "win), on every link of the app, earlier ones included; a PATCH replaces it, {} removes it";

const VOICE_PROFILES_DESCRIPTION =
  "whether the app keeps voice profiles (Recap's extension, docs/VOICES.md: POST /v1/voices); false, the " +
  "default, refuses enrolment; turning it off keeps the profiles already made";

/**
 * PATCH /v1/app. The schema checks only types (and bounds what a body may hold): the rules of each setting
 * are AppsService's, the same for the CLI and the API, so they are written once.
 */
export const UpdateAppBody = Type.Object({
  name: Type.Optional(Type.String({ description: "1 to 200 characters, trimmed" })),
  customDomain: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: "a host name such as summaries.example.com (no scheme, port or path); null removes it",
    }),
  ),
  frameAncestors: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: 100,
      description: "http(s) origins allowed to embed the app's pages; replaces the list",
    }),
  ),
  brand: Type.Optional(Type.Object(Brand.properties, { description: BRAND_DESCRIPTION })),
  voiceProfiles: Type.Optional(Type.Boolean({ description: VOICE_PROFILES_DESCRIPTION })),
  rotateWebhookSecret: Type.Optional(
    Type.Boolean({
      description: "true: replace the secret that signs webhooks; the answer shows the new one, once",
    }),
  ),
});
export type UpdateAppBody = Static<typeof UpdateAppBody>;

/** The app's settings; `webhookSecret` only in the answer to a PATCH that rotated it. */
export const AppSettingsResponse = Type.Object({
  appId: Type.String(),
  name: Type.String(),
  customDomain: Type.Union([Type.String(), Type.Null()]),
  frameAncestors: Type.Array(Type.String()),
  brand: Type.Object(Brand.properties, { description: BRAND_DESCRIPTION }),
  createdAt: Type.String(),
  voiceProfiles: Type.Boolean({ description: VOICE_PROFILES_DESCRIPTION }),
  webhookSecret: Type.Optional(Type.String()),
});
export type AppSettingsResponse = Static<typeof AppSettingsResponse>;

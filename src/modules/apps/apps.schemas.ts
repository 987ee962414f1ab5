import { Type, type Static } from "typebox";

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
  createdAt: Type.String(),
  webhookSecret: Type.Optional(Type.String()),
});
export type AppSettingsResponse = Static<typeof AppSettingsResponse>;

import { errorResponses } from "../../http/schemas.ts";
import type { Server } from "../../http/types.ts";
import { AppSettingsResponse, UpdateAppBody } from "./apps.schemas.ts";
import type { App, AppsService } from "./apps.service.ts";

const tags = ["App"];

/** The fields of an app the API shows: never its secrets or secret generation. */
function presentApp(app: App): AppSettingsResponse {
  return {
    appId: app.appId,
    name: app.name,
    customDomain: app.customDomain,
    frameAncestors: app.frameAncestors,
    brand: app.brand,
    createdAt: app.createdAt,
    voiceProfiles: app.voiceProfiles,
  };
}

/** GET and PATCH /v1/app: the token's own app. Registered in the /v1 scope, which requires the token. */
export function appRoutes(app: Server, deps: { apps: AppsService }): void {
  const { apps } = deps;

  app.get(
    "/v1/app",
    {
      schema: {
        tags,
        summary: "The app's settings",
        response: { 200: AppSettingsResponse, ...errorResponses(401) },
      },
    },
    async (request) => presentApp(await apps.getApp(request.appId)),
  );

  app.patch(
    "/v1/app",
    {
      schema: {
        tags,
        summary:
          "Change the app's name, custom domain, frame ancestors, brand or voice profiles switch, or rotate its webhook secret",
        description:
          "The same rules as `bin/recap apps update` and `apps webhook-secret --rotate`; a bad setting is a " +
          "400 naming it and changes nothing, a custom domain another app holds a 409.",
        body: UpdateAppBody,
        response: { 200: AppSettingsResponse, ...errorResponses(400, 401, 409, 415) },
      },
    },
    async (request, reply) => {
      const { rotateWebhookSecret, ...settings } = request.body;
      const updated = await apps.updateSettings(request.appId, settings, rotateWebhookSecret ?? false);
      // The new secret is shown this once: no browser or proxy may keep the answer.
      if (updated.webhookSecret) reply.header("cache-control", "no-store");
      return {
        ...presentApp(updated.app),
        ...(updated.webhookSecret && { webhookSecret: updated.webhookSecret }),
      };
    },
  );
}

import { Type } from "typebox";
import { TokenRequest } from "../auth/auth.schemas.ts";
import { TranscriptQuery } from "../ingestion/ingestion.schemas.ts";

/** The sign-in form: the credentials the token route takes, with the same rules. */
export const SignInBody = Type.Object({
  appId: TokenRequest.properties.appId,
  appSecret: TokenRequest.properties.appSecret,
});

export const ConversationsQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
});

/** A conversation's page, opened at a line by a search hit. */
export const ConversationQuery = Type.Object({ line: Type.Optional(Type.String({ maxLength: 64 })) });

/** The search box: GET /v1/search's own rules check what was typed (console-search.ts), so its message shows. */
export const SearchFormQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 10_000 })),
  cursor: Type.Optional(Type.String({ maxLength: 10_000 })),
});

/** The import form's fields besides the file, with the transcript import's rules. */
export const ImportFields = Type.Object({ name: TranscriptQuery.properties.name });

/** The settings form: checked by PATCH /v1/app's rules in ConsoleService.updateSettings. */
export const SettingsFormBody = Type.Object({
  name: Type.String(),
  customDomain: Type.String(),
  frameAncestors: Type.String(),
  /** A checkbox: sent ("on") when ticked, absent when not. */
  voiceProfiles: Type.Optional(Type.String()),
});

/** The settings' brand form: checked by PATCH /v1/app's rules in ConsoleService.updateBrand. */
export const BrandFormBody = Type.Object({
  logo: Type.String(),
  favicon: Type.String(),
  background: Type.String(),
  topicsFilter: Type.String(),
  insightsFilter: Type.String(),
  fontFamily: Type.String(),
});

/** Which of the settings' forms was just saved. */
export const SettingsQuery = Type.Object({
  saved: Type.Optional(Type.Union([Type.Literal("settings"), Type.Literal("brand")])),
});

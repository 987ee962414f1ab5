import { Type, type Static } from "typebox";
import { invalid } from "../../errors.ts";
import type { ExperienceKind } from "../../pages/view-model.ts";

export const EXPERIENCE_KINDS: ExperienceKind[] = ["verbose-text-summary", "video-summary", "audio-summary"];
export const DEFAULT_EXPIRES_IN = 2_592_000;
/** A hundred years: far enough to mean "a long time", near enough that every expiry is a real date. */
export const MAX_EXPIRES_IN = 3_153_600_000;
const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
const FONT_FAMILY = /^[A-Za-z0-9][A-Za-z0-9 -]{0,63}$/;
const MAX_URL_LENGTH = 2048;

const HttpUrl = Type.String({
  format: "uri",
  maxLength: MAX_URL_LENGTH,
  description: "Absolute http(s) URL",
});
const Colour = Type.String({ pattern: HEX_COLOUR.source, description: "#RRGGBB" });

/** The documented request body. Validation is strict and done by `parseCreateExperience` (no type coercion). */
export const CreateExperienceBody = Type.Object({
  name: Type.Union(EXPERIENCE_KINDS.map((kind) => Type.Literal(kind))),
  videoUrl: Type.Optional(HttpUrl),
  audioUrl: Type.Optional(HttpUrl),
  logo: Type.Optional(HttpUrl),
  favicon: Type.Optional(HttpUrl),
  color: Type.Optional(
    Type.Object({
      background: Type.Optional(Colour),
      topicsFilter: Type.Optional(Colour),
      insightsFilter: Type.Optional(Colour),
    }),
  ),
  font: Type.Optional(Type.Object({ family: Type.Optional(Type.String({ pattern: FONT_FAMILY.source })) })),
  summaryURLExpiresIn: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_EXPIRES_IN, default: DEFAULT_EXPIRES_IN }),
  ),
  readOnly: Type.Optional(Type.Boolean({ default: false })),
  enableCustomDomain: Type.Optional(Type.Boolean({ default: false })),
  speakerAvatarURLs: Type.Optional(Type.Record(Type.String(), HttpUrl)),
  hideShareButton: Type.Optional(Type.Boolean({ default: false })),
  disableSummaryURLAuthentication: Type.Optional(Type.Literal(false)),
});

export const ExperienceParams = Type.Object({ conversationId: Type.String({ maxLength: 64 }) });
export const ExperienceItemParams = Type.Object({
  conversationId: Type.String({ maxLength: 64 }),
  experienceId: Type.String({ maxLength: 64 }),
});

export const ExperienceCreated = Type.Object({ name: Type.String(), url: Type.String() });

/** The settings a link keeps for its life (a snapshot; later links never change it). */
export interface ExperienceSettings {
  name: ExperienceKind;
  videoUrl?: string;
  audioUrl?: string;
  logo?: string;
  favicon?: string;
  color: { background?: string; topicsFilter?: string; insightsFilter?: string };
  font: { family?: string };
  summaryURLExpiresIn: number;
  readOnly: boolean;
  enableCustomDomain: boolean;
  speakerAvatarURLs: Record<string, string>;
  hideShareButton: boolean;
}

const SettingsSchema = Type.Object({
  name: Type.String(),
  videoUrl: Type.Optional(Type.String()),
  audioUrl: Type.Optional(Type.String()),
  logo: Type.Optional(Type.String()),
  favicon: Type.Optional(Type.String()),
  color: Type.Object({
    background: Type.Optional(Type.String()),
    topicsFilter: Type.Optional(Type.String()),
    insightsFilter: Type.Optional(Type.String()),
  }),
  font: Type.Object({ family: Type.Optional(Type.String()) }),
  summaryURLExpiresIn: Type.Integer(),
  readOnly: Type.Boolean(),
  enableCustomDomain: Type.Boolean(),
  speakerAvatarURLs: Type.Record(Type.String(), Type.String()),
  hideShareButton: Type.Boolean(),
});

export const ExperienceSummary = Type.Object({
  id: Type.String(),
  conversationId: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal("active"), Type.Literal("expired"), Type.Literal("revoked")]),
  customDomain: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
  settings: SettingsSchema,
});
export const ExperienceList = Type.Object({ experiences: Type.Array(ExperienceSummary) });
export type ExperienceSummary = Static<typeof ExperienceSummary>;

export const MessageBody = Type.Object({ message: Type.String() });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function httpUrl(field: string, value: unknown): string {
  if (typeof value !== "string" || value.length > MAX_URL_LENGTH) {
    throw invalid(`${field} must be an absolute http(s) URL of at most ${MAX_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${field} must be an absolute http(s) URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw invalid(`${field} must be an absolute http(s) URL`);
  return url.href;
}

function boolean(field: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw invalid(`${field} must be true or false`);
  return value;
}

function optionalObject(field: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) throw invalid(`${field} must be an object`);
  return value;
}

/**
 * Checks a create-link body field by field (SPEC §6) and returns the settings to keep. Strict on types:
 * "5" is not a number and "true" is not a boolean. Throws invalid naming the field and the rule.
 */
export function parseCreateExperience(body: unknown): ExperienceSettings {
  if (!isObject(body)) throw invalid("body must be a JSON object");
  const name = body.name;
  if (typeof name !== "string" || !EXPERIENCE_KINDS.includes(name as ExperienceKind)) {
    throw invalid(`name must be one of: ${EXPERIENCE_KINDS.join(", ")}`);
  }
  const kind = name as ExperienceKind;
  const settings: ExperienceSettings = {
    name: kind,
    color: {},
    font: {},
    summaryURLExpiresIn: DEFAULT_EXPIRES_IN,
    readOnly: boolean("readOnly", body.readOnly, false),
    enableCustomDomain: boolean("enableCustomDomain", body.enableCustomDomain, false),
    speakerAvatarURLs: {},
    hideShareButton: boolean("hideShareButton", body.hideShareButton, false),
  };

  if (kind === "video-summary") {
    if (body.videoUrl === undefined || body.videoUrl === null || body.videoUrl === "") {
      throw invalid("videoUrl is required for video-summary: an absolute http(s) URL of the video");
    }
    settings.videoUrl = httpUrl("videoUrl", body.videoUrl);
  }
  if (kind === "audio-summary") {
    if (body.audioUrl === undefined || body.audioUrl === null || body.audioUrl === "") {
      throw invalid("audioUrl is required for audio-summary: an absolute http(s) URL of the audio");
    }
    settings.audioUrl = httpUrl("audioUrl", body.audioUrl);
  }
  if (body.logo !== undefined) settings.logo = httpUrl("logo", body.logo);
  if (body.favicon !== undefined) settings.favicon = httpUrl("favicon", body.favicon);

  const color = optionalObject("color", body.color);
  for (const key of ["background", "topicsFilter", "insightsFilter"] as const) {
    const value = color[key];
    if (value === undefined) continue;
    if (typeof value !== "string" || !HEX_COLOUR.test(value)) {
      throw invalid(`color.${key} must be a colour written exactly as #RRGGBB, such as #1A2B3C`);
    }
    settings.color[key] = value.toLowerCase();
  }

  const font = optionalObject("font", body.font);
  if (font.family !== undefined) {
    if (typeof font.family !== "string" || !FONT_FAMILY.test(font.family.trim())) {
      throw invalid("font.family must be a font name of letters, digits, spaces and hyphens (at most 64)");
    }
    settings.font.family = font.family.trim();
  }

  const expiresIn = body.summaryURLExpiresIn;
  if (expiresIn !== undefined) {
    if (
      typeof expiresIn !== "number" ||
      !Number.isInteger(expiresIn) ||
      expiresIn < 0 ||
      expiresIn > MAX_EXPIRES_IN
    ) {
      throw invalid(
        `summaryURLExpiresIn must be a whole number of seconds from 0 (never expires) to ${MAX_EXPIRES_IN}`,
      );
    }
    settings.summaryURLExpiresIn = expiresIn;
  }

  const avatars = optionalObject("speakerAvatarURLs", body.speakerAvatarURLs);
  for (const [memberId, url] of Object.entries(avatars)) {
    if (memberId.length > 64) throw invalid("speakerAvatarURLs keys must be member ids");
    settings.speakerAvatarURLs[memberId] = httpUrl(`speakerAvatarURLs.${memberId}`, url);
  }

  const disable = body.disableSummaryURLAuthentication;
  if (disable !== undefined && disable !== false) {
    if (disable === true) {
      throw invalid(
        "disableSummaryURLAuthentication: true is not supported: every summary link is signed; omit it or send false",
      );
    }
    throw invalid("disableSummaryURLAuthentication must be false (every summary link is signed)");
  }
  return settings;
}

/** The body of an edit made through an editable link. */
export const RenameConversationBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 300 }) });
export const RenameMemberBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) });
export const EditMessageBody = Type.Object({
  text: Type.Optional(Type.String({ minLength: 1, maxLength: 20_000 })),
  hidden: Type.Optional(Type.Boolean()),
});
export const EditInsightBody = Type.Object({
  text: Type.Optional(Type.String({ minLength: 1, maxLength: 2_000 })),
  dismissed: Type.Optional(Type.Boolean()),
});

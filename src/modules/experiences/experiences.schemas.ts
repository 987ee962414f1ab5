import { Type, type Static } from "typebox";
import { DateTime } from "../../http/schemas.ts";
import { ListQuery } from "../conversations/conversations.schemas.ts";
/** The kinds of summary page a link can open: declared here, by the API contract, and imported elsewhere. */
export const EXPERIENCE_KINDS = ["verbose-text-summary", "video-summary", "audio-summary"] as const;
export type ExperienceKind = (typeof EXPERIENCE_KINDS)[number];
export const DEFAULT_EXPIRES_IN = 2_592_000;
/** A hundred years: far enough to mean "a long time", near enough that every expiry is a real date. */
const MAX_EXPIRES_IN = 3_153_600_000;
const MAX_URL_LENGTH = 2048;

// A `description` here is also the wording of the 400 when a pattern, format or constant fails
// (http/errors.ts says "<field> must be <description>"), so each reads as the rule it states.
const HttpUrl = Type.String({
  format: "http-url",
  maxLength: MAX_URL_LENGTH,
  description: "an absolute http(s) URL",
});
const MediaUrl = Type.String({
  maxLength: MAX_URL_LENGTH,
  description: "the absolute http(s) URL of the media file; required for its kind, ignored for the others",
});
const Colour = Type.String({
  pattern: "^#[0-9a-fA-F]{6}$",
  description: "a colour written exactly as #RRGGBB, such as #1A2B3C",
});
const FontFamily = Type.String({
  pattern: "^[A-Za-z0-9][A-Za-z0-9 -]{0,63}$",
  description: "a web-font family name of letters, digits, spaces and hyphens (at most 64)",
});
const ExperienceKindSchema = Type.Enum(EXPERIENCE_KINDS);
/** A link's states, in the order the list's `state` filter documents them. */
export const LINK_STATES = ["active", "expired", "revoked"] as const;
export type LinkState = (typeof LINK_STATES)[number];
const LinkStateSchema = Type.Enum(LINK_STATES);
const LABEL_LENGTH = 100;
// Stored trimmed; the input rules (http/input-rules.ts) already refuse NUL and lone surrogates everywhere.
const Label = Type.String({
  maxLength: LABEL_LENGTH,
  pattern: "^[^\\p{Cc}]*[^\\p{Cc}\\s][^\\p{Cc}]*$",
  description: `a name for the link of 1 to ${LABEL_LENGTH} characters, not only spaces, without control characters`,
});

/**
 * A summary page's brand: a link's own (in its create body), or its app's, which a page takes for what its
 * link does not set (GET/PATCH /v1/app). The same rules in both.
 */
export const Brand = Type.Object({
  logo: Type.Optional(HttpUrl),
  favicon: Type.Optional(HttpUrl),
  color: Type.Optional(
    Type.Object({
      background: Type.Optional(Colour),
      topicsFilter: Type.Optional(Colour),
      insightsFilter: Type.Optional(Colour),
    }),
  ),
  font: Type.Optional(Type.Object({ family: Type.Optional(FontFamily) })),
});
export type Brand = Static<typeof Brand>;

/**
 * The create-link body (docs/PAGES.md, The API): the only check of its shape, validated as sent (no type
 * coercion), with defaults filled in. Rules that depend on other fields or on the app are the service's.
 */
export const CreateExperienceBody = Type.Object({
  name: ExperienceKindSchema,
  label: Type.Optional(Label),
  // Checked by the service, and only for the kind that plays it; ignored for the others (docs/PAGES.md).
  videoUrl: Type.Optional(MediaUrl),
  audioUrl: Type.Optional(MediaUrl),
  ...Brand.properties,
  summaryURLExpiresIn: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_EXPIRES_IN,
      default: DEFAULT_EXPIRES_IN,
      description: `Lifetime in whole seconds; 0 = never expires; at most ${MAX_EXPIRES_IN}`,
    }),
  ),
  readOnly: Type.Optional(Type.Boolean({ default: false })),
  enableCustomDomain: Type.Optional(Type.Boolean({ default: false })),
  speakerAvatarURLs: Type.Optional(
    Type.Record(Type.String(), HttpUrl, { description: "member id → http(s) image URL" }),
  ),
  hideShareButton: Type.Optional(Type.Boolean({ default: false })),
  disableSummaryURLAuthentication: Type.Optional(
    Type.Literal(false, {
      description:
        "false or left out: every summary link is signed, so its authentication cannot be disabled",
    }),
  ),
});
export type CreateExperienceBody = Static<typeof CreateExperienceBody>;

export const ExperienceParams = Type.Object({ conversationId: Type.String({ maxLength: 64 }) });
export const ExperienceItemParams = Type.Object({
  conversationId: Type.String({ maxLength: 64 }),
  experienceId: Type.String({ maxLength: 64 }),
});

/** Symbl's `name` and `url`, and Recap's `id` (what PATCH and DELETE take; Symbl's clients ignore it). */
export const ExperienceCreated = Type.Object({ name: Type.String(), url: Type.String(), id: Type.String() });
export type ExperienceCreated = Static<typeof ExperienceCreated>;

/** At least one of the two; the service says so when neither is given. */
export const UpdateExperienceBody = Type.Object({
  label: Type.Optional(Type.Union([Label, Type.Null()], { description: "null removes the label" })),
  expiresAt: Type.Optional(
    Type.Union([DateTime, Type.Null()], {
      description:
        "a new expiry, later than now (earlier or later than the current one); null: never expires",
    }),
  ),
});
export type UpdateExperienceBody = Static<typeof UpdateExperienceBody>;

/** Filters, and the same `limit` and `offset` as GET /v1/conversations. */
export const LinkListQuery = Type.Object({
  conversationId: Type.Optional(Type.String({ maxLength: 64 })),
  state: Type.Optional(LinkStateSchema),
  ...ListQuery.properties,
});
export type LinkListQuery = Static<typeof LinkListQuery>;

/** The settings a link keeps for its life (a snapshot; later links never change it). */
const SettingsSchema = Type.Object({
  name: ExperienceKindSchema,
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

/** A link as the app-wide list and PATCH show it: what an owner needs to tell it apart and act on it. */
export const ExperienceLink = Type.Object({
  id: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  conversationId: Type.String(),
  name: ExperienceKindSchema,
  state: LinkStateSchema,
  createdAt: Type.String(),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
  hint: Type.Union([Type.String(), Type.Null()], {
    description:
      "the last 4 characters of the link's token, to recognise a URL you hold (never enough to open it); null for links made before hints were kept",
  }),
  views: Type.Integer({ description: "times its page was opened (GET of the HTML page)" }),
  distinctViewers: Type.Integer({
    description: "viewers counted once a day each (a keyed hash of address and user agent, never stored)",
  }),
  lastViewedAt: Type.Union([Type.String(), Type.Null()]),
});
export const ExperienceLinkList = Type.Object({ experiences: Type.Array(ExperienceLink) });
export type ExperienceLink = Static<typeof ExperienceLink>;
export type ExperienceSummary = Static<typeof ExperienceSummary>;
export type ExperienceSettings = Static<typeof SettingsSchema>;

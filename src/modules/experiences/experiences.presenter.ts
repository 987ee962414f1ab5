import type { ExperienceRow } from "../../db/schema.ts";
import type {
  ExperienceLink,
  ExperienceSettings,
  ExperienceSummary,
  LinkState,
} from "./experiences.schemas.ts";

export function settingsOf(row: ExperienceRow): ExperienceSettings {
  return JSON.parse(row.settings) as ExperienceSettings;
}

export function linkStatus(row: ExperienceRow, now: Date): LinkState {
  if (row.revoked_at !== null) return "revoked";
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return "expired";
  return "active";
}

/** A link as the list API shows it: its settings and state, never its token (only a hash is stored). */
export function presentExperience(row: ExperienceRow, now: Date): ExperienceSummary {
  const settings = settingsOf(row);
  return {
    id: row.id,
    conversationId: row.conversation_id,
    name: row.name,
    status: linkStatus(row, now),
    customDomain: row.custom_domain,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    settings: {
      name: settings.name,
      ...(settings.videoUrl !== undefined && { videoUrl: settings.videoUrl }),
      ...(settings.audioUrl !== undefined && { audioUrl: settings.audioUrl }),
      ...(settings.logo !== undefined && { logo: settings.logo }),
      ...(settings.favicon !== undefined && { favicon: settings.favicon }),
      color: settings.color,
      font: settings.font,
      summaryURLExpiresIn: settings.summaryURLExpiresIn,
      readOnly: settings.readOnly,
      enableCustomDomain: settings.enableCustomDomain,
      speakerAvatarURLs: settings.speakerAvatarURLs,
      hideShareButton: settings.hideShareButton,
    },
  };
}

/** A link as the app-wide list and PATCH show it: no token, no settings, only what tells it apart. */
export function presentLink(row: ExperienceRow, now: Date): ExperienceLink {
  return {
    id: row.id,
    label: row.label,
    conversationId: row.conversation_id,
    name: settingsOf(row).name,
    state: linkStatus(row, now),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    hint: row.token_hint,
    views: row.view_count,
    distinctViewers: row.distinct_viewers,
    lastViewedAt: row.last_viewed_at,
  };
}

import type { BrandField, LinkForm, SettingsField, VoiceField } from "./view-model.ts";

/** The labels of the brand's fields, in the settings' brand form and the create-link form alike. */
export const BRAND_FIELD_LABELS: Record<BrandField, string> = {
  background: "Background colour",
  topicsFilter: "Topics colour",
  insightsFilter: "Insights colour",
  fontFamily: "Font family",
  logo: "Logo URL",
  favicon: "Favicon URL",
};

export const SETTINGS_FIELD_LABELS: Record<SettingsField, string> = {
  name: "Name",
  customDomain: "Custom domain",
  frameAncestors: "Frame ancestors",
  voiceProfiles: "Keep voice profiles",
};

/**
 * The labels of the create-link form's text fields and selects; a refusal names its field by these, not by the
 * API's name for it. (A checkbox's refusal keeps the API's wording, which says what to do instead.)
 */
export const LINK_FIELD_LABELS: Record<
  Exclude<keyof LinkForm, "avatars" | "readOnly" | "hideShareButton" | "enableCustomDomain">,
  string
> = {
  ...BRAND_FIELD_LABELS,
  name: "Kind of page",
  label: "Label (only you see it)",
  videoUrl: "Video URL (video summary)",
  audioUrl: "Audio URL (audio summary)",
  summaryURLExpiresIn: "Expires",
};

/** The labels of a link's edit form. */
export const LINK_EDIT_FIELD_LABELS = {
  label: "Label (empty: no label)",
  expiresAt: "Expires at (UTC)",
} as const;

/** The labels of a voice's rename form. */
export const VOICE_FIELD_LABELS: Record<VoiceField, string> = {
  name: "Name",
  email: "E-mail (empty: none)",
};

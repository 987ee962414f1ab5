import { contrastRatio, mix, palette, readableText } from "./colour.ts";
import type { PageView } from "./view-model.ts";

const DEFAULT_BACKGROUND = "#f5f6f8";
const DEFAULT_TOPIC = "#1d5fbf";
const DEFAULT_INSIGHT = "#7a3db8";
const FONT_FAMILY = /^[A-Za-z0-9][A-Za-z0-9 -]{0,63}$/;

/** A font family name safe in CSS and in the catalogue's URL (letters, digits, spaces, hyphens), or null. */
export function safeFontFamily(family: string | null): string | null {
  return family !== null && FONT_FAMILY.test(family) ? family.trim() : null;
}

/** The page's custom properties; every value is a validated colour or font name, so it is safe in CSS. */
export function themeCss(view: PageView): string {
  const { branding } = view;
  const colours = palette(branding.background ?? DEFAULT_BACKGROUND);
  const topic = branding.topicsFilter ?? DEFAULT_TOPIC;
  const insight = branding.insightsFilter ?? DEFAULT_INSIGHT;
  const topicTint = mix(colours.surface, topic, 0.18);
  const insightTint = mix(colours.surface, insight, 0.18);
  const family = safeFontFamily(branding.fontFamily);
  const font = family === null ? "" : `"${family}", `;
  const variables: Record<string, string> = {
    "--bg": colours.background,
    "--text": colours.text,
    "--muted": colours.muted,
    "--surface": colours.surface,
    "--surface-text": colours.surfaceText,
    "--surface-muted": colours.surfaceMuted,
    "--border": colours.border,
    "--current": colours.current,
    "--current-text": readableText(colours.current),
    "--topic": topic,
    "--topic-text": readableText(topic),
    "--topic-tint": topicTint,
    "--topic-tint-text": readableText(topicTint),
    "--insight": insight,
    "--insight-text": readableText(insight),
    "--insight-tint": insightTint,
    "--insight-tint-text": readableText(insightTint),
    // A link or focus ring drawn in the brand colour only where it stays readable on the surface.
    "--accent": contrastRatio(topic, colours.surface) >= 4.5 ? topic : colours.surfaceText,
    "--font": `${font}system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`,
  };
  return `:root{${Object.entries(variables)
    .map(([name, value]) => `${name}:${value}`)
    .join(";")}}`;
}

import { LRUCache } from "lru-cache";
import { mix, palette, readableText, withContrast } from "./colour.ts";
import type { PageBranding, PageView } from "./view-model.ts";

const DEFAULT_BACKGROUND = "#f5f6f8";
const DEFAULT_TOPIC = "#1d5fbf";
const DEFAULT_INSIGHT = "#7a3db8";
/** The page's colours when neither the link nor its app sets them (the console's colour pickers start there). */
export const DEFAULT_COLOURS = {
  background: DEFAULT_BACKGROUND,
  topicsFilter: DEFAULT_TOPIC,
  insightsFilter: DEFAULT_INSIGHT,
} as const;
/** Speakers' colours, given in the order attendees are listed (distinct hues, after Okabe and Ito). */
const SPEAKER_COLOURS = [
  "#0072b2",
  "#d55e00",
  "#009e73",
  "#cc79a7",
  "#e69f00",
  "#56b4e9",
  "#7a3db8",
  "#8c564b",
];
const FONT_FAMILY = /^[A-Za-z0-9][A-Za-z0-9 -]{0,63}$/;

/** A font family name safe in CSS and in the catalogue's URL (letters, digits, spaces, hyphens), or null. */
export function safeFontFamily(family: string | null): string | null {
  return family !== null && FONT_FAMILY.test(family) ? family.trim() : null;
}

/** The brand's colours and font as the page's custom properties (the console's preview sets the same). */
export function themeVariables(
  branding: Pick<PageBranding, "background" | "topicsFilter" | "insightsFilter" | "fontFamily">,
): Record<string, string> {
  const colours = palette(branding.background ?? DEFAULT_BACKGROUND);
  const topic = branding.topicsFilter ?? DEFAULT_TOPIC;
  const insight = branding.insightsFilter ?? DEFAULT_INSIGHT;
  const topicTint = mix(colours.surface, topic, 0.18);
  const insightTint = mix(colours.surface, insight, 0.18);
  const family = safeFontFamily(branding.fontFamily);
  const font = family === null ? "" : `"${family}", `;
  return {
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
    // Edges of chips and rings that keep 3:1 against what is around them, whatever the brand colour.
    "--topic-edge": withContrast(topic, [colours.surface], 3),
    "--insight-edge": withContrast(insight, [colours.surface], 3),
    "--accent": withContrast(topic, [colours.surface, colours.background], 3),
    "--font": `${font}system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`,
  };
}

/** Themes made lately, by what they are made of: the colour arithmetic is the same on every render of a page. */
const themes = new LRUCache<string, string>({ max: 256 });

/** The page's custom properties; every value is a validated colour or font name, so it is safe in CSS. */
export function themeCss(view: PageView): string {
  const { branding } = view;
  const memberIds = view.attendees.map((a) => a.id);
  const key = JSON.stringify([
    branding.background,
    branding.topicsFilter,
    branding.insightsFilter,
    branding.fontFamily,
    memberIds,
  ]);
  let css = themes.get(key);
  if (css === undefined) {
    const variables = themeVariables(branding);
    css = `:root{${Object.entries(variables)
      .map(([name, value]) => `${name}:${value}`)
      .join(";")}}${speakerCss(memberIds, variables["--surface"]!)}`;
    themes.set(key, css);
  }
  return css;
}

/** The colour of the attendee at `index`, kept at 3:1 against the cards it is drawn on. */
export function speakerColour(index: number, surface: string): string {
  const base = SPEAKER_COLOURS[index % SPEAKER_COLOURS.length] ?? SPEAKER_COLOURS[0]!;
  return withContrast(base, [surface], 3);
}

/** A CSS string holding any id: everything but letters, digits, "-" and "_" as a hex escape. */
function cssString(value: string): string {
  return `"${value.replace(/[^A-Za-z0-9_-]/g, (c) => `\\${c.codePointAt(0)!.toString(16)} `)}"`;
}

/** Each attendee's colour on their avatar and beside their name on each of their lines. */
function speakerCss(memberIds: string[], surface: string): string {
  return memberIds
    .map((id, index) => {
      const colour = speakerColour(index, surface);
      const key = cssString(id);
      return (
        `[data-member-id=${key}] .avatar-initials{background:${colour};color:${readableText(colour)}}` +
        `[data-member-id=${key}]{--speaker:${colour}}.speaker[data-member-name=${key}]{--speaker:${colour}}`
      );
    })
    .join("");
}

import type { Brand, ExperienceSettings } from "./experiences.schemas.ts";

/** The percent-encoded form of a URL the schema's `http-url` format accepted. */
export const normalUrl = (url: string) => new URL(url).href;

/**
 * A schema-checked brand as kept, for a link or an app alike: URLs percent-encoded, colours in lower case,
 * the font name trimmed, and an empty part left out.
 */
export function normalBrand(brand: Brand): Brand {
  const color: NonNullable<Brand["color"]> = {};
  for (const key of ["background", "topicsFilter", "insightsFilter"] as const) {
    const colour = brand.color?.[key];
    if (colour !== undefined) color[key] = colour.toLowerCase();
  }
  const family = brand.font?.family?.trim();
  return {
    ...(brand.logo !== undefined && { logo: normalUrl(brand.logo) }),
    ...(brand.favicon !== undefined && { favicon: normalUrl(brand.favicon) }),
    ...(Object.keys(color).length > 0 && { color }),
    ...(family !== undefined && { font: { family } }),
  };
}

/** A link's settings with its app's brand filling in the logo, favicon, colours and font the link does not set. */
export function withBrandDefaults(settings: ExperienceSettings, brand: Brand): ExperienceSettings {
  const logo = settings.logo ?? brand.logo;
  const favicon = settings.favicon ?? brand.favicon;
  return {
    ...settings,
    ...(logo !== undefined && { logo }),
    ...(favicon !== undefined && { favicon }),
    color: { ...brand.color, ...settings.color },
    font: { ...brand.font, ...settings.font },
  };
}

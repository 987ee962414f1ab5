import type { Brand } from "../../modules/experiences/experiences.schemas.ts";
import { HEX_COLOUR } from "../colour.ts";
import { safeFontFamily, themeVariables } from "../theme.ts";

/** The branding fields of the create-link form as typed, each possibly empty or not yet valid. */
export interface BrandingInput {
  background: string;
  topicsFilter: string;
  insightsFilter: string;
  fontFamily: string;
}

/** The form's brand fields, each empty one taking the app's value: what the link's page would show. */
export function brandedInput(input: BrandingInput, brand: Brand): BrandingInput {
  const or = (typed: string, fallback: string | undefined) =>
    typed.trim() === "" ? (fallback ?? "") : typed;
  return {
    background: or(input.background, brand.color?.background),
    topicsFilter: or(input.topicsFilter, brand.color?.topicsFilter),
    insightsFilter: or(input.insightsFilter, brand.color?.insightsFilter),
    fontFamily: or(input.fontFamily, brand.font?.family),
  };
}

const colourOrNull = (value: string) => (HEX_COLOUR.test(value.trim()) ? value.trim() : null);

/**
 * The summary page's custom properties for the branding typed so far: a value the API would refuse is
 * left out (the page's default shows), so the preview never shows what the link could not have.
 */
export function previewVariables(input: BrandingInput): Record<string, string> {
  return themeVariables({
    background: colourOrNull(input.background),
    topicsFilter: colourOrNull(input.topicsFilter),
    insightsFilter: colourOrNull(input.insightsFilter),
    fontFamily: safeFontFamily(input.fontFamily.trim() || null),
  });
}

/** The preview's rule for the page's nonce'd <style>: every value is a checked colour or font name. */
export function previewCss(input: BrandingInput): string {
  const declarations = Object.entries(previewVariables(input)).map(([name, value]) => `${name}:${value}`);
  return `.link-preview{${declarations.join(";")}}`;
}

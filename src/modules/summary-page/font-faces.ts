/** One @font-face rule of a catalogue stylesheet, reduced to what Recap serves again. */
export interface FontFace {
  /** The font file's URL as the catalogue wrote it (absolute or relative to the stylesheet). */
  source: string;
  /** The rule's other descriptors, each checked against its grammar: `font-weight:400;unicode-range:…`. */
  descriptors: string;
}

/** The descriptors a face keeps, each with the only values it may have; anything else is dropped. */
const DESCRIPTORS: Record<string, RegExp> = {
  "font-style": /^(?:normal|italic|oblique(?: -?\d{1,3}deg){0,2})$/,
  "font-weight": /^(?:normal|bold|\d{1,4}(?: \d{1,4})?)$/,
  "font-stretch": /^(?:normal|[a-z-]{1,20}|\d{1,3}(?:\.\d+)?%(?: \d{1,3}(?:\.\d+)?%)?)$/,
  "font-display": /^(?:auto|block|swap|fallback|optional)$/,
  "unicode-range":
    /^U\+[0-9A-Fa-f?]{1,6}(?:-[0-9A-Fa-f]{1,6})?(?:, ?U\+[0-9A-Fa-f?]{1,6}(?:-[0-9A-Fa-f]{1,6})?)*$/,
};

const FACE = /@font-face\s*\{([^}]*)\}/g;
const WOFF2_SOURCE = /url\(\s*(['"]?)([^'")\s]+)\1\s*\)\s*format\(\s*['"]woff2['"]\s*\)/;

/**
 * The @font-face rules of `family` in a stylesheet the font catalogue answered (its CSS2 API shape), with
 * their woff2 sources. Everything else in it (other rules, other families, descriptors outside the
 * allow-list, values outside their grammar) is left out, so the stylesheet Recap serves from it can hold
 * nothing but font faces.
 */
export function parseFontFaces(css: string, family: string): FontFace[] {
  const faces: FontFace[] = [];
  for (const [, body = ""] of css.matchAll(FACE)) {
    let named = "";
    let source: string | null = null;
    const kept: string[] = [];
    for (const declaration of body.split(";")) {
      const colon = declaration.indexOf(":");
      if (colon < 0) continue;
      const name = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration
        .slice(colon + 1)
        .trim()
        .replace(/\s+/g, " ");
      if (name === "font-family") named = value.replace(/^(['"])(.*)\1$/, "$2");
      else if (name === "src") source = WOFF2_SOURCE.exec(value)?.[2] ?? null;
      else if (DESCRIPTORS[name]?.test(value)) kept.push(`${name}:${value}`);
    }
    if (source !== null && named.toLowerCase() === family.toLowerCase()) {
      faces.push({ source, descriptors: kept.join(";") });
    }
  }
  return faces;
}

/** The stylesheet served from Recap's own origin: each face's source replaced by the cached file's name. */
export function fontStylesheet(family: string, faces: { file: string; descriptors: string }[]): string {
  return faces
    .map(
      (face) =>
        `@font-face{font-family:"${family}";src:url(${face.file}) format("woff2")` +
        `${face.descriptors === "" ? "" : `;${face.descriptors}`}}\n`,
    )
    .join("");
}

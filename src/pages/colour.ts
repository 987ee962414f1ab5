/** Colour arithmetic for branding: relative luminance and contrast as WCAG 2 defines them. */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

type Rgb = [number, number, number];

function parse(hex: string): Rgb {
  if (!HEX_COLOUR.test(hex)) throw new Error(`not a #RRGGBB colour: ${hex}`);
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

function format(rgb: Rgb): string {
  return (
    "#" +
    rgb
      .map((c) =>
        Math.round(Math.min(255, Math.max(0, c)))
          .toString(16)
          .padStart(2, "0"),
      )
      .join("")
  );
}

export function luminance(hex: string): number {
  const [r, g, b] = parse(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Mixes `b` into `a` by `amount` (0 = a, 1 = b). */
export function mix(a: string, b: string, amount: number): string {
  const x = parse(a);
  const y = parse(b);
  return format([0, 1, 2].map((i) => x[i]! + (y[i]! - x[i]!) * amount) as Rgb);
}

export const DARK_TEXT = "#16181d";
export const LIGHT_TEXT = "#ffffff";

/** The text colour (near-black or white) that reads best on `background`. */
export function readableText(background: string): string {
  const best =
    contrastRatio(DARK_TEXT, background) >= contrastRatio(LIGHT_TEXT, background) ? DARK_TEXT : LIGHT_TEXT;
  // On mid-tones neither may reach 4.5:1; pure black always does where white does not.
  return contrastRatio(best, background) >= 4.5 ? best : "#000000";
}

/** A softer text colour that still keeps WCAG AA (4.5:1) on `background`. */
export function mutedText(background: string): string {
  const text = readableText(background);
  for (const amount of [0.35, 0.25, 0.15]) {
    const candidate = mix(text, background, amount);
    if (contrastRatio(candidate, background) >= 4.6) return candidate;
  }
  return text;
}

/** The page palette derived from the brand background: every pair used for text keeps 4.5:1. */
export function palette(background: string) {
  const dark = luminance(background) < 0.18;
  const surface = dark ? mix(background, "#000000", 0.3) : mix(background, "#ffffff", 0.75);
  return {
    background,
    text: readableText(background),
    muted: mutedText(background),
    surface,
    surfaceText: readableText(surface),
    surfaceMuted: mutedText(surface),
    border: mix(surface, readableText(surface), 0.2),
    current: dark ? mix(surface, "#ffffff", 0.12) : mix(surface, "#000000", 0.07),
  };
}

function toHsl([r, g, b]: Rgb): Rgb {
  const [x, y, z] = [r / 255, g / 255, b / 255];
  const max = Math.max(x, y, z);
  const min = Math.min(x, y, z);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === x ? (y - z) / d + (y < z ? 6 : 0) : max === y ? (z - x) / d + 2 : (x - y) / d + 4;
  return [h / 6, s, l];
}

function fromHsl([h, s, l]: Rgb): Rgb {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255];
}

/**
 * `colour` with its lightness moved just far enough (keeping its hue) that it has at least `ratio`
 * contrast with every colour in `against`: darker on light surroundings, lighter on dark ones. Where no
 * lightness reaches it on all of them, the readable text colour of the first.
 */
export function withContrast(colour: string, against: string[], ratio: number): string {
  const holds = (candidate: string) => against.every((b) => contrastRatio(candidate, b) >= ratio);
  if (holds(colour)) return colour;
  const [first = colour] = against;
  const darker = contrastRatio("#000000", first) >= contrastRatio("#ffffff", first);
  const [h, s, l] = toHsl(parse(colour));
  const at = (lightness: number) => format(fromHsl([h, s, lightness]));
  // Binary search between the colour's own lightness and black or white for the nearest that holds.
  let near = l;
  let far = darker ? 0 : 1;
  if (!holds(at(far))) return readableText(first);
  for (let i = 0; i < 24; i++) {
    const middle = (near + far) / 2;
    if (holds(at(middle))) far = middle;
    else near = middle;
  }
  return at(far);
}

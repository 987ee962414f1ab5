import { describe, expect, it } from "vitest";
import { contrastRatio, palette, withContrast } from "./colour.ts";
import { speakerColour } from "./theme.ts";

/** Brand colours across the whole range: a grid of channels plus the troublesome near-white and mid-tones. */
const BRANDS = [
  ...[0, 0x33, 0x77, 0x99, 0xcc, 0xff].flatMap((r) =>
    [0, 0x66, 0xaa, 0xff].flatMap((g) =>
      [0, 0x80, 0xff].map((b) => `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`),
    ),
  ),
  "#f5f0e1",
  "#1a1a2e",
  "#ffffff",
  "#777777",
  "#767676",
  "#2f9e8f",
  "#f2a541",
];

describe("withContrast", () => {
  it("keeps a colour that already has the contrast", () => {
    expect(withContrast("#1d5fbf", ["#ffffff"], 3)).toBe("#1d5fbf");
  });

  it("darkens on light surroundings and lightens on dark ones, keeping the hue", () => {
    const onLight = withContrast("#ffe066", ["#fdfbf8"], 3);
    expect(contrastRatio(onLight, "#fdfbf8")).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(onLight, "#fdfbf8")).toBeLessThan(3.2);
    const onDark = withContrast("#10243e", ["#12121f"], 3);
    expect(contrastRatio(onDark, "#12121f")).toBeGreaterThanOrEqual(3);
    const [r, , b] = [1, 3, 5].map((i) => parseInt(onDark.slice(i, i + 2), 16)) as [number, number, number];
    expect(b).toBeGreaterThan(r);
  });

  it("reaches 3:1 and 4.5:1 for every brand colour on every brand's surface and background", () => {
    const failures: string[] = [];
    for (const background of BRANDS) {
      const { surface } = palette(background);
      for (const colour of BRANDS) {
        for (const ratio of [3, 4.5]) {
          const edge = withContrast(colour, [surface, background], ratio);
          const worst = Math.min(contrastRatio(edge, surface), contrastRatio(edge, background));
          if (worst < ratio) failures.push(`${colour} on ${background}: ${worst.toFixed(2)} < ${ratio}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("palette", () => {
  it("keeps text at 4.5:1 on the background and the surface for every brand colour", () => {
    for (const background of BRANDS) {
      const colours = palette(background);
      expect(contrastRatio(colours.text, background)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(colours.muted, background)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(colours.surfaceText, colours.surface)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(colours.surfaceMuted, colours.surface)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("speakerColour", () => {
  it("gives the first eight attendees distinct colours, each 3:1 against the cards", () => {
    for (const background of ["#f5f0e1", "#1a1a2e", "#f5f6f8", "#10243e"]) {
      const { surface } = palette(background);
      const colours = Array.from({ length: 8 }, (_, i) => speakerColour(i, surface));
      expect(new Set(colours).size).toBe(8);
      for (const colour of colours) expect(contrastRatio(colour, surface)).toBeGreaterThanOrEqual(3);
      expect(speakerColour(8, surface)).toBe(colours[0]);
    }
  });
});

import { describe, expect, it } from "vitest";
import { initials } from "./initials.ts";

/** Whether a string holds a UTF-16 surrogate without its other half (shown as �). */
const halfCharacter = (text: string) => !text.isWellFormed();

describe("initials", () => {
  it("takes the first and last words' first letters, or a single word's first two", () => {
    expect(initials("Ann Lee")).toBe("AL");
    expect(initials("  maria  de la cruz ")).toBe("MC");
    expect(initials("Zoë")).toBe("ZO");
    expect(initials("")).toBe("");
  });

  it("never cuts a character in half: emoji, flags, skin tones and accents stay whole", () => {
    for (const [name, expected] of [
      ["🦄 Unicorn Team", "🦄T"],
      ["Zoë 👩🏽‍💻", "Z👩🏽‍💻"],
      ["👩🏽‍💻", "👩🏽‍💻"],
      ["🇫🇷🇩🇪", "🇫🇷🇩🇪"],
      ["Zoe\u0308 Ade", "ZA"],
      ["e\u0301lodie", "E\u0301L"],
      ["𝒜lice 𝒷ob", "𝒜𝒷"],
    ] as const) {
      expect(initials(name), name).toBe(expected);
      expect(halfCharacter(initials(name)), name).toBe(false);
    }
  });
});

import { describe, expect, it } from "vitest";
import { matchesWords, unicodeWords, WORD_CHAR } from "./unicode-words.ts";

describe("unicodeWords", () => {
  it("reads \\b and \\w as words of every script, in and out of a character class", () => {
    const opener = unicodeWords(/^so\b/i);
    expect(opener.test("So we start")).toBe(true);
    expect(opener.test("Soñar es gratis")).toBe(false);
    expect(unicodeWords(/\bgive \w+\b/).exec("give Łukasz a call")?.[0]).toBe("give Łukasz");
    expect(unicodeWords(/^[\w-]+$/).test("Đorđe-Ørsted")).toBe(true);
    expect(WORD_CHAR.test("東")).toBe(true);
    expect(WORD_CHAR.test("-")).toBe(false);
  });
});

describe("matchesWords", () => {
  const patterns = [
    unicodeWords(/\bso\b/i),
    unicodeWords(/\b(?:next week|by (?:monday|friday))\b/i),
    unicodeWords(/(?<!to )\blet (?:you|him) know\b/i),
    unicodeWords(/\b\w+ed\b/i),
    // A boundary inside a negative look-ahead widens what it rejects: it must stay.
    unicodeWords(/\bwe (?:(?!(?:ne|fe)ed\b)\w+ed)\b/i),
  ];
  const texts = [
    "So we go",
    "soñar con eso",
    "I'll send it by Friday.",
    "by Fridays",
    "next weekend",
    "I'll let you know",
    "I want to let you know",
    "we walked",
    "seeded",
    "Łukasz needed it",
    "we needed it",
    "we need it",
    "we feed it",
    "",
  ];

  it("answers as the pattern's own test does, on words of every script", () => {
    for (const pattern of patterns)
      for (const text of texts)
        expect(matchesWords(pattern, text), `${pattern.source} on ${text}`).toBe(pattern.test(text));
  });

  it("finds a word and refuses the same letters inside a longer word", () => {
    expect(matchesWords(unicodeWords(/\bso\b/i), "and so on")).toBe(true);
    expect(matchesWords(unicodeWords(/\bso\b/i), "soñar")).toBe(false);
  });
});

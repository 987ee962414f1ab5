import { describe, expect, it } from "vitest";
import { unicodeWords, WORD_CHAR } from "./unicode-words.ts";

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

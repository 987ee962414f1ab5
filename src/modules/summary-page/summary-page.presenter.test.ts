import { describe, expect, it } from "vitest";
import { wordsIn } from "./summary-page.presenter.ts";

/** The definition wordsIn keeps: runs of characters that `\s` does not match. */
const byRegex = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe("wordsIn", () => {
  it("counts words as runs between any of the characters \\s matches", () => {
    const spaces = [...Array(0x10000).keys()]
      .map((code) => String.fromCharCode(code))
      .filter((c) => /\s/.test(c));
    for (const space of spaces) {
      const text = `${space}so${space}${space}we will${space}meet${space}`;
      expect(wordsIn(text), `U+${space.charCodeAt(0).toString(16)}`).toBe(byRegex(text));
      expect(wordsIn(text)).toBe(4);
    }
  });

  it("agrees with the regular expression on lines as they come", () => {
    for (const text of [
      "",
      "   ",
      "one",
      " one two ",
      "tab\tand\nnew line",
      "a\u00a0b",
      "x\u200by",
      "é è {vocalsound}",
    ]) {
      expect(wordsIn(text), JSON.stringify(text)).toBe(byRegex(text));
    }
  });
});

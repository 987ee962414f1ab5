import { describe, expect, it } from "vitest";
import { toFts5Match, toTsquery } from "../../db/full-text.ts";
import { DomainError } from "../../errors.ts";
import { parseSearchQuery } from "./search-query.ts";
import { snippetOf } from "./search-snippet.ts";

const word = (text: string, prefix = false) => ({ words: [text], prefix });

describe("parseSearchQuery", () => {
  it("reads words, phrases, prefixes, OR and -word as a search box user types them", () => {
    expect(parseSearchQuery('Budget "next year" forec* OR plan -draft')).toEqual({
      all: [
        [word("budget")],
        [{ words: ["next", "year"], prefix: false }],
        [word("forec", true), word("plan")],
      ],
      none: [word("draft")],
    });
  });

  it("cuts words at punctuation and Chinese or Japanese a character at a time", () => {
    expect(parseSearchQuery("bob@example.com 会議室").all).toEqual([
      [{ words: ["bob", "example", "com"], prefix: false }],
      [{ words: ["会", "議", "室"], prefix: false }],
    ]);
  });

  it("takes an unclosed quote to the end and control characters as spaces", () => {
    expect(parseSearchQuery('"next year').all).toEqual([[{ words: ["next", "year"], prefix: false }]]);
    expect(parseSearchQuery("a\u0000b\u0007c").all).toEqual([[word("a")], [word("b")], [word("c")]]);
  });

  it("ignores an OR with nothing on one side, and FTS5's own operators are words", () => {
    expect(parseSearchQuery("OR budget OR").all).toEqual([[word("budget")]]);
    expect(parseSearchQuery("NEAR(a b) AND c").all).toEqual([
      [{ words: ["near", "a"], prefix: false }],
      [word("b")],
      [word("and")],
      [word("c")],
    ]);
  });

  it.each([
    ["", "q must hold a word to search for"],
    ['"" OR * -', "q must hold a word to search for"],
    ["-budget -plan", "q must hold a word to find besides the excluded ones"],
    ["a OR -b", "cannot be joined by OR"],
    ["b*", "a prefix needs at least 2 letters"],
    [Array.from({ length: 33 }, (_, i) => `w${i}`).join(" "), "at most 32 words"],
  ])("refuses %j naming the rule", (text, rule) => {
    expect(() => parseSearchQuery(text)).toThrow(DomainError);
    expect(() => parseSearchQuery(text)).toThrow(rule);
  });
});

describe("the engines' query text", () => {
  const query = parseSearchQuery('budg* "next year" OR plan -draft');

  it("quotes every word for FTS5, so nothing typed is an operator", () => {
    expect(toFts5Match(query)).toBe('("budg"* AND ("next year" OR "plan")) NOT "draft"');
    expect(toFts5Match({ all: [[{ words: ['a"b'], prefix: false }]], none: [] })).toBe('"a""b"');
  });

  it("quotes every lexeme for to_tsquery", () => {
    expect(toTsquery(query)).toBe("('budg':* & (('next' <-> 'year') | 'plan')) & !'draft'");
    expect(toTsquery({ all: [[{ words: ["o'k\\"], prefix: false }]], none: [] })).toBe("'o''k\\\\'");
  });
});

describe("snippetOf", () => {
  it("escapes the text, then marks the words, phrases and prefixes that matched, accents folded", () => {
    expect(snippetOf('<i>Café</i> & "cafes" next year', parseSearchQuery('cafe caf* "next year"'))).toBe(
      "&lt;i&gt;<mark>Café</mark>&lt;/i&gt; &amp; &quot;<mark>cafes</mark>&quot; <mark>next year</mark>",
    );
  });

  it("marks Chinese words inside a run of characters", () => {
    expect(snippetOf("把预算发给客户", parseSearchQuery("预算"))).toBe("把<mark>预算</mark>发给客户");
  });

  it("cuts a long line to a window around its first match", () => {
    const text = `${"word ".repeat(100)}budget ${"more ".repeat(100)}`.trim();
    const snippet = snippetOf(text, parseSearchQuery("budget"));
    expect(snippet).toMatch(/^…word .*<mark>budget<\/mark> more .*more…$/);
    expect(snippet.length).toBeLessThan(230);
  });
});

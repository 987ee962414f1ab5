import { describe, expect, it } from "vitest";
import { decodeUtf8, findInputProblem, MAX_BODY_DEPTH } from "./input-rules.ts";

const nested = (levels: number): unknown => {
  let value: unknown = "leaf";
  for (let level = 0; level < levels; level++) value = [value];
  return value;
};

describe("findInputProblem", () => {
  it("takes well-formed text, paired surrogates included, at any width", () => {
    const body = {
      messages: Array.from({ length: 1000 }, (_, i) => ({ text: `line ${i} 🚀` })),
      n: 1,
      ok: true,
    };
    expect(findInputProblem("body", body)).toBeUndefined();
    expect(findInputProblem("querystring", { limit: 5, name: "é" })).toBeUndefined();
    expect(findInputProblem("body", undefined)).toBeUndefined();
  });

  it("names the first offending field in document order, in the part's own terms", () => {
    const body = { a: "fine", b: [{ c: "x\0" }], d: "\ud800" };
    expect(findInputProblem("body", body)).toBe("b[0].c must not contain the NUL character (U+0000)");
    expect(findInputProblem("params", { jobId: "\udc00" })).toBe(
      "params.jobId must not contain an unpaired UTF-16 surrogate",
    );
    expect(findInputProblem("querystring", { name: "\0" })).toBe(
      "query.name must not contain the NUL character (U+0000)",
    );
    expect(findInputProblem("body", "WEBVTT\0")).toBe("body must not contain the NUL character (U+0000)");
    expect(findInputProblem("body", { meta: { "k\ud800": 1 } })).toBe(
      "meta has a property name containing an unpaired UTF-16 surrogate",
    );
  });

  it(`allows ${MAX_BODY_DEPTH} levels of nesting and refuses more, at any depth, without recursion`, () => {
    expect(findInputProblem("body", nested(MAX_BODY_DEPTH))).toBeUndefined();
    const refusal = `body must not nest objects and arrays deeper than ${MAX_BODY_DEPTH} levels`;
    expect(findInputProblem("body", nested(MAX_BODY_DEPTH + 1))).toBe(refusal);
    expect(findInputProblem("body", nested(1_000_000))).toBe(refusal);
  });
});

describe("decodeUtf8", () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));
  const refusal = (offset: number) => `file is not valid UTF-8 at byte offset ${offset}`;

  it("decodes UTF-8 as sent, U+FFFD, a BOM and four-byte characters included", () => {
    const text = "\ufeffCafé \ufffd 🚀 \u{10ffff}";
    expect(decodeUtf8(Buffer.from(text), "file")).toBe(text);
    expect(decodeUtf8(Buffer.alloc(0), "file")).toBe("");
  });

  it("names the offset where the first sequence that is not UTF-8 starts", () => {
    const cases: [Buffer, number][] = [
      [bytes("caf", [0xe9], "!"), 3], // Latin-1 é
      [bytes("é", [0x80]), 2], // a continuation byte alone
      [bytes("ab", [0xc0, 0xaf]), 2], // an overlong "/"
      [bytes("ab", [0xe0, 0x80, 0xaf]), 2], // an overlong three-byte form
      [bytes("ab", [0xed, 0xa0, 0x80]), 2], // an encoded surrogate
      [bytes("ab", [0xf4, 0x90, 0x80, 0x80]), 2], // past U+10FFFF
      [bytes("ab", [0xf5, 0x80, 0x80, 0x80]), 2],
      [bytes("🚀", [0xe2, 0x82]), 4], // cut short at the end
      [bytes([0xe2, 0x82], "a"), 0], // cut short by an ASCII byte
      [bytes([0xff]), 0],
    ];
    for (const [input, offset] of cases) {
      expect(() => decodeUtf8(input, "file"), input.toString("hex")).toThrow(refusal(offset));
    }
  });
});

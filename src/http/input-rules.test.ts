import { describe, expect, it } from "vitest";
import { findInputProblem, MAX_BODY_DEPTH } from "./input-rules.ts";

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

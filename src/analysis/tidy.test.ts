import { describe, expect, it } from "vitest";
import { compressSentence } from "./tidy.ts";

describe("compressSentence", () => {
  it("drops spoken hedges inside a sentence (ES2002b, QMSum train)", () => {
    expect(
      compressSentence(
        "I think one thing we should try not to avoid is not to say we have to use speech recognition right now,",
      ),
    ).toBe("One thing we should try not to avoid is not to say we have to use speech recognition right now,");
    expect(compressSentence("We're kind of like sorting them, you know, by function.")).toBe(
      "We're like sorting them by function.",
    );
  });

  it("keeps 'like' as a verb and text that is nothing but hedges", () => {
    expect(compressSentence("I like the idea of a spongy remote.")).toBe(
      "I like the idea of a spongy remote.",
    );
    expect(compressSentence("You know")).toBe("You know");
  });
});

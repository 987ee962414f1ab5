import { describe, expect, it } from "vitest";
import { UNPUNCTUATED_PASTE } from "../../test/helpers/pastes.ts";
import { contentTerms, splitSentences, wordCount } from "./nlp.ts";

describe("splitSentences", () => {
  it("splits messages into sentences that never cross a message, skipping empty messages", () => {
    const sentences = splitSentences([
      "So this is our project. What we're aiming to do is to create a new remote control for a television",
      "",
      "Okay",
      "I'm a bit confused about what's the difference between the functional design and conceptual design?",
    ]);
    expect(sentences.map((s) => [s.messageIndex, s.position, s.text])).toEqual([
      [0, 0, "So this is our project."],
      [0, 1, "What we're aiming to do is to create a new remote control for a television"],
      [2, 0, "Okay"],
      [
        3,
        0,
        "I'm a bit confused about what's the difference between the functional design and conceptual design?",
      ],
    ]);
    expect(sentences.map((s) => s.index)).toEqual([0, 1, 2, 3]);
  });

  it("tags parts of speech and keeps stemmed content words only", () => {
    const [sentence] = splitSentences(["Dana will send the batteries by Friday."]);
    expect(sentence?.tokens.find((t) => t.value === "send")?.pos).toBe("VERB");
    expect(contentTerms(sentence!)).toEqual(["dana", "send", "batteri", "friday"]);
  });

  it('reads "I\'m" as "I am" (wink keeps it as one proper noun) without changing the text', () => {
    // ES2002a (QMSum train)
    const [sentence] = splitSentences(["I'm Laura and I'm the project manager."]);
    expect(sentence?.text).toBe("I'm Laura and I'm the project manager.");
    expect(sentence?.tokens.slice(0, 2).map((t) => [t.value, t.normal, t.pos])).toEqual([
      ["I", "i", "PRON"],
      ["'m", "am", "AUX"],
    ]);
    expect(contentTerms(sentence!)).not.toContain("i'm");
  });

  it("cuts a run of words without punctuation into clauses, losing no word (issue 24)", () => {
    const sentences = splitSentences([UNPUNCTUATED_PASTE]);
    expect(sentences.length).toBeGreaterThan(4);
    for (const sentence of sentences) expect(wordCount(sentence)).toBeLessThanOrEqual(40);
    expect(sentences.map((s) => s.text).join(" ")).toBe(UNPUNCTUATED_PASTE);
    expect(sentences.map((s) => s.text)).toContain(
      "i will check with legal about the new contract template before the end of the month",
    );
    const spoken = "So I think we should start with the budget and then look at the plan for the launch";
    expect(splitSentences([`${spoken} ${spoken} ${spoken}`]).map((s) => s.text)).toEqual([
      `${spoken} ${spoken} ${spoken}`,
    ]);
  });

  it("returns nothing for no text", () => {
    expect(splitSentences(["", "  "])).toEqual([]);
  });
});

import { afterAll, describe, expect, it } from "vitest";
import { MAX_SENTENCE_TOKENS, MAX_WORD_CHARS, splitSentences } from "./nlp.ts";
import { PATHOLOGICAL_CASES } from "../../test/helpers/pathological.ts";
import { createAnalyzer } from "./pool.ts";
import type { AnalysisInput } from "./types.ts";

/** Generous bound that tells "finishes" from "holds the worker for minutes"; not a speed check. */
const HANG = 60_000;

const REAL = "Dana will send the battery prices to the team by Friday.";

function conversation(texts: readonly string[]): AnalysisInput {
  return {
    conversationStartTime: "2026-11-02T15:00:00.000Z",
    messages: [...texts, REAL].map((text, i) => ({
      id: String(4_000_000_000_000_000 + i),
      text,
      memberId: "member-1",
      speakerName: "Speaker 1",
      startTime: null,
    })),
  };
}

describe("analysis of pathological text", () => {
  const analyzer = createAnalyzer({ threads: 1 });
  afterAll(async () => {
    await analyzer.close();
  });

  for (const { name, messages } of PATHOLOGICAL_CASES) {
    it(
      `finishes for ${name}, and still reads the real sentence beside it`,
      async () => {
        const result = await analyzer.analyze(conversation(messages(1)));
        expect(result.insights).toContainEqual(
          expect.objectContaining({ type: "action_item", text: REAL, assigneeName: "Dana" }),
        );
      },
      HANG,
    );
  }

  it("reads words and sentences only up to their bounds", () => {
    const sentences = splitSentences([`${"y".repeat(10_000)} ${"word ".repeat(2_000)}`]);
    expect(sentences.length).toBeGreaterThan(1);
    for (const sentence of sentences) {
      expect(sentence.tokens.length).toBeLessThanOrEqual(MAX_SENTENCE_TOKENS);
      for (const token of sentence.tokens) expect(token.value.length).toBeLessThanOrEqual(MAX_WORD_CHARS);
    }
    expect(sentences[0]?.tokens[0]?.value).toBe("y".repeat(MAX_WORD_CHARS));
  });
});

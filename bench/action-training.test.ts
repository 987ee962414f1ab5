import { describe, expect, it } from "vitest";
import { choosePhrases, type ScoredSentence } from "./action-training.ts";

/** A training sentence that says `phrases`, labelled `label`. */
const row = (label: number, ...phrases: string[]) => ({
  sentence: { messageIndex: 0, features: [], phrases: new Set(phrases), words: [] } satisfies ScoredSentence,
  label,
});

describe("choosePhrases", () => {
  // 20 tasks say "i will" (5 others do too), 200 other sentences say "the"; "the slides" is said by tasks
  // only, but in too few sentences to weigh.
  const rows = [
    ...Array.from({ length: 20 }, () => row(1, "i will", "the")),
    ...Array.from({ length: 5 }, () => row(0, "i will", "the")),
    ...Array.from({ length: 10 }, () => row(1, "the slides", "the")),
    ...Array.from({ length: 200 }, () => row(0, "the")),
  ];

  // How many meetings say each phrase.
  const spread = new Map([
    ["i will", 12],
    ["the", 40],
    ["the slides", 12],
  ]);

  it("takes the phrases that tell tasks from other sentences first", () => {
    expect(choosePhrases(rows, spread, 1)).toEqual(["i will"]);
    expect(choosePhrases(rows, spread, 2)).toEqual(["i will", "the"]);
  });

  it("leaves out phrases said in fewer than 15 sentences or 10 meetings, and takes none when asked for none", () => {
    expect(choosePhrases(rows, spread, 10)).not.toContain("the slides");
    expect(choosePhrases(rows, new Map([...spread, ["i will", 9]]), 10)).toEqual(["the"]);
    expect(choosePhrases(rows, spread, 0)).toEqual([]);
  });
});

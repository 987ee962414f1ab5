import { describe, expect, it } from "vitest";
import { alignLines, storedWords } from "./align.ts";
import type { RecognizedSegment } from "./engine.ts";

const words = (...spec: [string, number, number][]) =>
  spec.map(([text, startMs, endMs]) => ({ text, startMs, endMs }));
const segment = (text: string, startMs: number, endMs: number, extra: Partial<RecognizedSegment> = {}) => ({
  text,
  startMs,
  endMs,
  words: [],
  ...extra,
});

describe("alignLines", () => {
  it("keeps one unnamed speaker when nothing says who spoke", () => {
    const lines = alignLines([{ segments: [segment("Hello there.", 0, 900)], speaker: null }], null);
    expect(lines).toEqual([{ text: "Hello there.", startMs: 0, endMs: 900, words: [], speaker: null }]);
  });

  it("merges channels in time order under each channel's speaker", () => {
    const agent = { name: "Agent", email: "agent@example.com" };
    const customer = { name: "Customer", email: null };
    const lines = alignLines(
      [
        { segments: [segment("How can I help?", 0, 1000), segment("Sure.", 5000, 5600)], speaker: agent },
        { segments: [segment("My bill is wrong.", 2000, 3500)], speaker: customer },
      ],
      null,
    );
    expect(lines.map((line) => [line.speaker?.name, line.text])).toEqual([
      ["Agent", "How can I help?"],
      ["Customer", "My bill is wrong."],
      ["Agent", "Sure."],
    ]);
  });

  it("splits a segment at the word where diarization says the speaker changes, naming speakers in order", () => {
    const heard = segment("Ready? Yes, go ahead.", 0, 3000, {
      words: words(["Ready?", 0, 600], ["Yes,", 1500, 1900], ["go", 2000, 2300], ["ahead.", 2300, 3000]),
    });
    const turns = [
      { speaker: 1, startMs: 0, endMs: 1000 },
      { speaker: 0, startMs: 1400, endMs: 3100 },
    ];
    const lines = alignLines([{ segments: [heard], speaker: null }], turns);
    expect(lines.map((line) => [line.speaker?.name, line.text, line.startMs, line.endMs])).toEqual([
      ["Speaker 1", "Ready?", 0, 600],
      ["Speaker 2", "Yes, go ahead.", 1500, 3000],
    ]);
  });

  it("gives a segment without words to the speaker holding most of it, keeping the engine's text", () => {
    const turns = [
      { speaker: 0, startMs: 0, endMs: 1200 },
      { speaker: 1, startMs: 1200, endMs: 5000 },
    ];
    const lines = alignLines(
      [{ segments: [segment("First.", 0, 1000), segment("Second, longer.", 1000, 4000)], speaker: null }],
      turns,
    );
    expect(lines.map((line) => [line.speaker?.name, line.text])).toEqual([
      ["Speaker 1", "First."],
      ["Speaker 2", "Second, longer."],
    ]);
  });

  it("uses the engine's own speaker labels when there are no turns", () => {
    const lines = alignLines(
      [
        {
          segments: [
            segment("One.", 0, 500, { speaker: "B" }),
            segment("Two.", 600, 900, { speaker: "A" }),
            segment("Three.", 1000, 1500, { speaker: "B" }),
          ],
          speaker: null,
        },
      ],
      null,
    );
    expect(lines.map((line) => line.speaker?.name)).toEqual(["Speaker 1", "Speaker 2", "Speaker 1"]);
  });
});

describe("storedWords", () => {
  it("keeps each word's times from its line's start, and nothing when the engine gave no words", () => {
    const line = {
      startMs: 4_000,
      words: [
        { text: "ship", startMs: 4_100, endMs: 4_400 },
        { text: "it", startMs: 4_450, endMs: 4_600 },
      ],
    };
    expect(storedWords(line)).toBe('[["ship",100,400],["it",450,600]]');
    expect(storedWords({ startMs: 0, words: [] })).toBeNull();
  });
});

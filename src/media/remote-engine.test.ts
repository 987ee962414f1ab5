import { describe, expect, it } from "vitest";
import { segmentsOf } from "./remote-engine.ts";

/** The same two utterances as each server dialect answers them (docs/MEDIA.md, Remote engines). */
describe("segmentsOf reads every server's dialect alike", () => {
  const expected = [
    {
      text: "Hello there.",
      startMs: 500,
      endMs: 1500,
      words: [
        { text: "Hello", startMs: 500, endMs: 900 },
        { text: "there.", startMs: 900, endMs: 1500 },
      ],
    },
    { text: "Bye.", startMs: 3000, endMs: 3400, words: [{ text: "Bye.", startMs: 3000, endMs: 3400 }] },
  ];

  it("OpenAI: words at the top level", () => {
    const answer = {
      text: "Hello there. Bye.",
      segments: [
        { start: 0.5, end: 1.5, text: " Hello there." },
        { start: 3, end: 3.4, text: " Bye." },
      ],
      words: [
        { word: "Hello", start: 0.5, end: 0.9 },
        { word: "there.", start: 0.9, end: 1.5 },
        { word: "Bye.", start: 3, end: 3.4 },
      ],
    };
    expect(segmentsOf(answer, 10_000)).toEqual(expected);
  });

  it("whisper.cpp: words nested in segments, with their leading spaces", () => {
    const answer = {
      text: "Hello there. Bye.",
      language: "english",
      segments: [
        {
          start: 0.5,
          end: 1.5,
          text: " Hello there.",
          words: [
            { word: " Hello", start: 0.5, end: 0.9, probability: 0.9 },
            { word: " there.", start: 0.9, end: 1.5, probability: 0.8 },
          ],
        },
        { start: 3, end: 3.4, text: " Bye.", words: [{ word: " Bye.", start: 3, end: 3.4 }] },
      ],
    };
    expect(segmentsOf(answer, 10_000)).toEqual(expected);
  });

  it("vLLM: numbers as strings", () => {
    const answer = {
      text: "Hello there. Bye.",
      segments: [
        { start: "0.5", end: "1.5", text: "Hello there." },
        { start: "3.0", end: "3.4", text: "Bye." },
      ],
      words: [
        { word: "Hello", start: "0.5", end: "0.9" },
        { word: "there.", start: "0.9", end: "1.5" },
        { word: "Bye.", start: "3.0", end: "3.4" },
      ],
    };
    expect(segmentsOf(answer, 10_000)).toEqual(expected);
  });

  it("LocalAI: no words, times as Go durations (nanoseconds)", () => {
    const answer = {
      text: "Hello there. Bye.",
      segments: [
        { id: 0, start: 500_000_000, end: 1_500_000_000, text: "Hello there." },
        { id: 1, start: 3_000_000_000, end: 3_400_000_000, text: "Bye." },
      ],
    };
    expect(segmentsOf(answer, 10_000)).toEqual(expected.map((segment) => ({ ...segment, words: [] })));
  });

  it("diarized_json: the server's speaker labels are kept", () => {
    const answer = {
      segments: [
        { start: 0.5, end: 1.5, text: "Hello there.", speaker: "A" },
        { start: 3, end: 3.4, text: "Bye.", speaker: "B" },
      ],
    };
    expect(segmentsOf(answer, 10_000).map((segment) => segment.speaker)).toEqual(["A", "B"]);
  });

  it("text alone: one segment over the part", () => {
    expect(segmentsOf({ text: " Just text. " }, 4_000)).toEqual([
      { text: "Just text.", startMs: 0, endMs: 4_000, words: [] },
    ]);
  });
});

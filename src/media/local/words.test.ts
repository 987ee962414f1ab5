import { describe, expect, it } from "vitest";
import { wordsFromTokens } from "./words.ts";

describe("wordsFromTokens", () => {
  it("starts a word at each SentencePiece word start and ends it where the next begins", () => {
    const words = wordsFromTokens(
      {
        tokens: ["\u2581He", "llo", "\u2581wor", "ld", "."],
        timestamps: [0.1, 0.2, 0.5, 0.6, 0.8],
        durations: [],
      },
      1000,
      2000,
    );
    expect(words).toEqual([
      { text: "Hello", startMs: 1100, endMs: 1500 },
      { text: "world.", startMs: 1500, endMs: 2000 },
    ]);
  });

  it("reads sherpa-onnx's spaces as word starts and ends words at their last token's duration", () => {
    const words = wordsFromTokens(
      {
        tokens: [" so", " it", "'s", " fine", " ,"],
        timestamps: [0, 0.32, 0.4, 0.72, 1.04],
        durations: [0.24, 0.08, 0.16, 0.24, 0.08],
      },
      0,
      1500,
    );
    expect(words).toEqual([
      { text: "so", startMs: 0, endMs: 240 },
      { text: "it's", startMs: 320, endMs: 560 },
      { text: "fine,", startMs: 720, endMs: 1120 },
    ]);
  });

  it("joins byte-fallback tokens into their UTF-8 characters", () => {
    const words = wordsFromTokens(
      {
        tokens: ["\u2581caf", "<0xC3>", "<0xA9>", "\u2581ok"],
        timestamps: [0, 0.1, 0.2, 0.4],
        durations: [],
      },
      0,
      600,
    );
    expect(words.map((w) => w.text)).toEqual(["café", "ok"]);
  });

  it("makes each token of an unspaced script a word", () => {
    const words = wordsFromTokens(
      { tokens: ["你", "好", "吗"], timestamps: [0, 0.2, 0.4], durations: [] },
      0,
      600,
    );
    expect(words).toEqual([
      { text: "你", startMs: 0, endMs: 200 },
      { text: "好", startMs: 200, endMs: 400 },
      { text: "吗", startMs: 400, endMs: 600 },
    ]);
  });

  it("gives no words without token timestamps, and none past the utterance's end", () => {
    expect(wordsFromTokens({ tokens: [" hello"], timestamps: [], durations: [] }, 0, 500)).toEqual([]);
    expect(wordsFromTokens({ tokens: [" hello"], timestamps: [0.3], durations: [0.9] }, 0, 500)).toEqual([
      { text: "hello", startMs: 300, endMs: 500 },
    ]);
  });
});

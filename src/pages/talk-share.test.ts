import { describe, expect, it } from "vitest";
import { talkShare, type SpokenLine } from "./talk-share.ts";

const line = (
  speakerId: string | null,
  text: string,
  offset: number | null = null,
  endOffset: number | null = null,
): SpokenLine => ({ speakerId, text, offset, endOffset });

describe("talkShare", () => {
  it("shares by speaking time when every line has a start and an end", () => {
    const share = talkShare([
      line("a", "one", 0, 30),
      line("b", "two words here now", 30, 40),
      line("a", "x", 40, 50),
    ]);
    expect(share.by).toBe("time");
    expect(Object.fromEntries(share.shares)).toEqual({ a: 0.8, b: 0.2 });
  });

  it("shares by words when a line has no end time", () => {
    const share = talkShare([line("a", "one two three", 0, 5), line("b", "four", 5, null)]);
    expect(share.by).toBe("words");
    expect(Object.fromEntries(share.shares)).toEqual({ a: 0.75, b: 0.25 });
  });

  it("shares by words for an untimed meeting, and by words when every timed line lasts zero seconds", () => {
    expect(talkShare([line("a", "a b"), line("b", "c d")]).by).toBe("words");
    const instant = talkShare([line("a", "a b c", 3, 3), line("b", "d", 4, 4)]);
    expect(instant.by).toBe("words");
    expect(instant.shares.get("a")).toBe(0.75);
  });

  it("counts lines of no member in the total only, so members' shares need not add up to one", () => {
    const share = talkShare([line("a", "one two"), line(null, "three four")]);
    expect(Object.fromEntries(share.shares)).toEqual({ a: 0.5 });
  });

  it("is empty when nothing was said", () => {
    expect(talkShare([]).shares.size).toBe(0);
    expect(talkShare([line("a", "  ")]).shares.size).toBe(0);
  });
});

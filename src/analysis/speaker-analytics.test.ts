import { describe, expect, it } from "vitest";
import { speakerAnalytics, type AnalyticsLine } from "./speaker-analytics.ts";

const members = [
  { id: "a", name: "Ann", userId: "ann@example.com" },
  { id: "b", name: "Bob" },
  { id: "c", name: "Cy" },
  { id: "d", name: "Dee" },
];

// Ann 0–10 (10 words), Bob 8–14 (9), Cy 9–12 (2), then Ann alone 20–25 (5) and 26–32 (4); Dee is silent.
// The conversation ends at 30 s, before Ann's last line does.
const lines: AnalyticsLine[] = [
  { id: "a1", memberId: "a", text: "one two three four five six seven eight nine ten", start: 0, end: 10 },
  { id: "b1", memberId: "b", text: "one two three four five six seven eight nine", start: 8, end: 14 },
  { id: "c1", memberId: "c", text: "yes, right", start: 9, end: 12 },
  { id: "a2", memberId: "a", text: "so, on to the budget", start: 20, end: 25 },
  { id: "a3", memberId: "a", text: "it looks fine — thanks", start: 26, end: 32 },
];

describe("speakerAnalytics", () => {
  it("computes talk, silence and overlap by hand on a small timed meeting", () => {
    const result = speakerAnalytics({ members, lines, conversationEnd: 30 });
    // Someone speaks in 0–14, 20–25 and 26–32: 25 s of 32; two or more speak in 8–12: 4 s.
    expect(result.metrics).toEqual([
      { type: "total_silence", percent: 21.875, seconds: 7 },
      { type: "total_talk_time", percent: 78.125, seconds: 25 },
      { type: "total_overlap", percent: 16, seconds: 4 },
    ]);
    const [ann, bob, cy, dee] = result.members;
    expect(ann).toEqual({
      id: "a",
      name: "Ann",
      userId: "ann@example.com",
      words: 19,
      // 19 words in 21 s.
      pace: { wpm: 54 },
      talkTime: { percentage: 84, seconds: 21 },
      listenTime: { percentage: 16, seconds: 4 },
      overlap: {
        overlapDuration: 2,
        overlappingMembers: [
          // 2 s of Ann's 21 and Bob's 6; 1 s of Ann's 21 and Cy's 3.
          { id: "b", name: "Bob", percent: 7.407, seconds: 2 },
          { id: "c", name: "Cy", percent: 4.167, seconds: 1 },
        ],
      },
      // 20–32 beats 0–10.
      longestMonologue: { words: 9, seconds: 12, messageIds: ["a2", "a3"] },
    });
    expect(bob).toMatchObject({
      words: 9,
      pace: { wpm: 90 },
      talkTime: { percentage: 24, seconds: 6 },
      listenTime: { percentage: 76, seconds: 19 },
      overlap: {
        overlapDuration: 4,
        overlappingMembers: [
          { id: "a", name: "Ann", userId: "ann@example.com", percent: 7.407, seconds: 2 },
          { id: "c", name: "Cy", percent: 33.333, seconds: 3 },
        ],
      },
    });
    expect(cy).toMatchObject({
      words: 2,
      pace: { wpm: 40 },
      talkTime: { percentage: 12, seconds: 3 },
      listenTime: { percentage: 88, seconds: 22 },
      overlap: {
        overlapDuration: 3,
        overlappingMembers: [
          { id: "a", percent: 4.167, seconds: 1 },
          { id: "b", percent: 33.333, seconds: 3 },
        ],
      },
    });
    expect(dee).toEqual({
      id: "d",
      name: "Dee",
      words: 0,
      talkTime: { percentage: 0, seconds: 0 },
      listenTime: { percentage: 100, seconds: 25 },
      overlap: { overlapDuration: 0, overlappingMembers: [] },
      longestMonologue: { words: 0, seconds: 0, messageIds: [] },
    });
  });

  it("leaves every time-based figure out of an untimed conversation and counts words", () => {
    const untimed = lines.map((line) => ({ ...line, start: null, end: null }));
    const result = speakerAnalytics({ members, lines: untimed, conversationEnd: 0 });
    expect(result.metrics).toEqual([]);
    expect(result.members[0]).toEqual({
      id: "a",
      name: "Ann",
      userId: "ann@example.com",
      words: 19,
      // By words, without times: the first line (10) beats the last two (9).
      longestMonologue: { words: 10, messageIds: ["a1"] },
    });
    for (const member of result.members) {
      expect(member).not.toHaveProperty("talkTime");
      expect(member).not.toHaveProperty("pace");
    }
  });

  it("counts a member's own overlapping lines once, not as overlap", () => {
    const result = speakerAnalytics({
      members: members.slice(0, 1),
      lines: [
        { id: "1", memberId: "a", text: "one two", start: 0, end: 6 },
        { id: "2", memberId: "a", text: "three four", start: 4, end: 10 },
      ],
      conversationEnd: 10,
    });
    expect(result.metrics).toContainEqual({ type: "total_overlap", percent: 0, seconds: 0 });
    expect(result.members[0]?.talkTime).toEqual({ percentage: 100, seconds: 10 });
  });
});

import { describe, expect, it } from "vitest";
import { loadMeeting, spokenTurns } from "../../test/helpers/qmsum.ts";
import { analyzeConversation } from "./analyze.ts";
import type { AnalysisInput } from "./types.ts";

function meetingInput(split: "train" | "val", file: string): AnalysisInput {
  const turns = spokenTurns(loadMeeting(split, file));
  return {
    conversationStartTime: "2026-11-02T15:00:00.000Z",
    messages: turns.map((turn, i) => ({
      id: String(3_000_000_000_000_000 + i),
      text: turn.content,
      memberId: turn.speaker,
      speakerName: turn.speaker,
      startTime: null,
    })),
  };
}

// Its own file, so that the first analysis runs in a thread that has analysed nothing before.
describe("analysis is a function of the conversation alone", () => {
  it("gives a meeting the same analysis in a fresh thread and after other meetings", () => {
    const meeting = meetingInput("val", "ES2006a.json");
    const fresh = analyzeConversation(meeting);
    // TS3005a says "name's" where wink keeps it whole; ES2006a's "my name's Cat" was then read differently.
    for (const [split, file] of [
      ["train", "TS3005a.json"],
      ["val", "Bed002.json"],
      ["train", "ES2002a.json"],
    ] as const) {
      analyzeConversation(meetingInput(split, file));
    }
    expect(analyzeConversation(meeting)).toStrictEqual(fresh);
  });
});

import { describe, expect, it } from "vitest";
import { loadSplit, MEETING_KINDS, meetingKind, ofKind } from "./qmsum.ts";

describe("meetingKind", () => {
  it("tells QMSum's three kinds of meeting apart by name", () => {
    expect(
      ["ES2002a", "IS1000a", "TS3003c", "Bed003", "Bmr001", "Buw001", "covid_1", "education_4"].map(
        meetingKind,
      ),
    ).toEqual([
      "product design",
      "product design",
      "product design",
      "research",
      "research",
      "research",
      "committee",
      "committee",
    ]);
  });

  it("groups the train meetings by kind, each meeting in one group (97 product design, 41 research, 24 committee)", () => {
    const train = loadSplit("train");
    const groups = MEETING_KINDS.map((kind) => ofKind(train, kind));
    expect(groups.map((group) => group.length)).toEqual([97, 41, 24]);
    expect(new Set(groups.flat().map((m) => m.name)).size).toBe(train.length);
  });
});

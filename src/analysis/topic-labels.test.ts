import { describe, expect, it } from "vitest";
import { sentencesOf } from "./analyze.ts";
import { labelSegments } from "./topic-labels.ts";

describe("labelSegments", () => {
  it("labels a segment with its repeated multi-word phrase rather than a pronoun or single word", () => {
    const sentences = sentencesOf([
      "I'm Laura and I'm the project manager .",
      "Well for a remote control , do you think that will be {disfmarker}",
      "I suppose it's depends on how complicated our remote control is .",
      "Like how much does , you know , a remote control cost .",
      "I'm not sure about the buttons .",
    ]);
    const [segment] = labelSegments(sentences, [0], 5);
    expect(segment).toMatchObject({ startMessage: 0, endMessage: 4, label: "remote control", score: 1 });
  });

  it("falls back to a neutral label when a segment has no noun phrase", () => {
    const sentences = sentencesOf(["Yeah .", "I'm sure .", "Alright ."]);
    expect(labelSegments(sentences, [0], 3).map((s) => s.label)).toEqual(["general discussion"]);
  });

  it("titles each part by what it was about, not by the subject said all through the meeting", () => {
    const sentences = sentencesOf([
      "The remote control needs a power button , and the remote control needs a volume button .",
      "A power button and a volume button on the remote control are enough for a remote control .",
      "For the remote control , a standard battery is cheap , and a battery charger is cheap .",
      "A standard battery in the remote control lasts , so the battery charger matters less .",
    ]);
    const labels = labelSegments(sentences, [0, 2], 4).map((s) => s.label);
    expect(labels).not.toContain("remote control");
    expect(labels).toHaveLength(2);
    expect(labels[0]).toMatch(/button/);
    expect(labels[1]).toMatch(/batter|charger/);
  });
});

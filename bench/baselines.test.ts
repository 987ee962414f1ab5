import { describe, expect, it } from "vitest";
import { sentencesOf } from "../src/analysis/analyze.ts";
import { leadSummary, oracleSummary, textRankSummary } from "./baselines.ts";
import { rouge, rougeTokens } from "./metrics/rouge.ts";

const meeting = sentencesOf([
  "Okay, so welcome everybody to this first meeting about the project today.",
  "The weather outside was quite nice this morning on my way to work here.",
  "We decided that the remote control will have a rubber case and a big red button.",
  "The remote control battery should last a whole year without charging it again.",
  "My cat likes to sit on the keyboard while I am writing long emails at home.",
]);
const reference =
  "The team decided the remote control gets a rubber case, a red button and a battery lasting a year.";

describe("summary baselines", () => {
  it("cuts every baseline to the requested number of words, one entry per sentence", () => {
    for (const summary of [
      leadSummary(meeting, 20),
      textRankSummary(meeting, 20),
      oracleSummary(meeting, 20, reference),
    ]) {
      expect(rougeTokens(summary.join(" "))).toHaveLength(20);
      expect(summary.length).toBeGreaterThanOrEqual(2);
    }
  });

  it("leads with the opening and lets the oracle pick the sentence the reference repeats", () => {
    expect(leadSummary(meeting, 12)[0]).toMatch(/^okay so welcome/);
    const oracle = oracleSummary(meeting, 30, reference);
    expect(oracle.join(" ")).toMatch(/rubber case/);
    const score = (summary: string[]) => rouge(summary.join(" "), reference).rouge2;
    expect(score(oracle)).toBeGreaterThan(score(leadSummary(meeting, 30)));
    expect(score(oracle)).toBeGreaterThanOrEqual(score(textRankSummary(meeting, 30)));
  });
});

import { describe, expect, it } from "vitest";
import { readableText } from "./readable-text.ts";

describe("readableText", () => {
  it("removes annotation marks, joins contractions and attaches punctuation", () => {
    expect(readableText("I 'm {disfmarker} What ? Really ? Oh , that 's horrible !")).toBe(
      "I'm — What? Really? Oh, that's horrible!",
    );
    expect(readableText("We do n't {vocalsound} know {pause} yet .")).toBe("We don't know yet.");
    expect(readableText("Mm - hmm .")).toBe("Mm-hmm.");
  });

  it("keeps every word said, fillers and repeats included", () => {
    expect(readableText("Um , the the plan , uh , works .")).toBe("Um, the the plan, uh, works.");
  });

  it("drops a break-off at the start or end, or before punctuation", () => {
    expect(readableText("{disfmarker} so it 's {disfmarker}")).toBe("so it's");
    expect(readableText("It 's just a {disfmarker} .")).toBe("It's just a.");
    expect(readableText("a {disfmarker} {disfmarker} b")).toBe("a — b");
  });

  it("gives an empty text for a line of marks only, and leaves clean text alone", () => {
    expect(readableText("{vocalsound} {pause}")).toBe("");
    expect(readableText("Let us review the budget.")).toBe("Let us review the budget.");
  });
});

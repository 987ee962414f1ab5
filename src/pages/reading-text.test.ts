import { describe, expect, it } from "vitest";
import { readingText } from "./reading-text.ts";

describe("readingText", () => {
  it("removes annotation marks, joins contractions and attaches punctuation", () => {
    expect(readingText("I 'm {disfmarker} What ? Really ? Oh , that 's horrible !")).toBe(
      "I'm — What? Really? Oh, that's horrible!",
    );
    expect(readingText("We do n't {vocalsound} know {pause} yet .")).toBe("We don't know yet.");
    expect(readingText("Mm - hmm .")).toBe("Mm-hmm.");
  });

  it("closes the spaced quotation marks of the source (Bed015)", () => {
    expect(readingText('The middle thing used to be " entities " , and " Harry " and " room " .')).toBe(
      'The middle thing used to be "entities", and "Harry" and "room".',
    );
    expect(readingText('He said " yes')).toBe('He said " yes');
  });

  it("keeps every word said, fillers and repeats included", () => {
    expect(readingText("Um , the the plan , uh , works .")).toBe("Um, the the plan, uh, works.");
  });

  it("drops a break-off at the start or end, or before punctuation", () => {
    expect(readingText("{disfmarker} so it 's {disfmarker}")).toBe("so it's");
    expect(readingText("It 's just a {disfmarker} .")).toBe("It's just a.");
    expect(readingText("a {disfmarker} {disfmarker} b")).toBe("a — b");
  });

  it("gives an empty text for a line of marks only, and leaves clean text alone", () => {
    expect(readingText("{vocalsound} {pause}")).toBe("");
    expect(readingText("Let us review the budget.")).toBe("Let us review the budget.");
  });
});

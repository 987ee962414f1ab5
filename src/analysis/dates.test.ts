import { describe, expect, it } from "vitest";
import { resolveDueDate } from "./dates.ts";

const wednesday = new Date("2024-01-03T09:00:00.000Z");

describe("resolveDueDate", () => {
  it("resolves weekdays and relative days forward from the reference", () => {
    expect(resolveDueDate("Dana will send it by Friday.", wednesday)).toBe("2024-01-05T00:00:00.000Z");
    expect(resolveDueDate("Send it by Monday please", wednesday)).toBe("2024-01-08T00:00:00.000Z");
    expect(resolveDueDate("I'll do it tomorrow", wednesday)).toBe("2024-01-04T00:00:00.000Z");
  });

  it("keeps the time when one is stated", () => {
    expect(resolveDueDate("Let's have it by 3pm on Monday", wednesday)).toBe("2024-01-08T15:00:00.000Z");
  });

  it("ignores durations and 'now' (ES2006a)", () => {
    expect(resolveDueDate("So we've got twenty five minutes to do that", wednesday)).toBeNull();
    expect(resolveDueDate("We need to wrap it up now", wednesday)).toBeNull();
    expect(resolveDueDate("I will look it up.", wednesday)).toBeNull();
  });

  it("does not read 'the money' or 'a sec' as dates, which chrono alone would (ES2008b)", () => {
    expect(
      resolveDueDate("Yes, I do think, who's gonna have the money to buy that also, that one?", wednesday),
    ).toBeNull();
    expect(resolveDueDate("Just a sec while my PowerPoint comes up.", wednesday)).toBeNull();
  });
});

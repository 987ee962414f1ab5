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

  it("never resolves a deadline before the moment it was said (issue 24)", () => {
    const friday = new Date("2024-01-05T06:24:00.000Z");
    expect(resolveDueDate("Dana will send the budget by Friday.", friday)).toBe("2024-01-12T00:00:00.000Z");
    expect(resolveDueDate("Dana will send the budget by Friday.", new Date("2024-01-05T16:00:00.000Z"))).toBe(
      "2024-01-12T00:00:00.000Z",
    );
    expect(resolveDueDate("Send it by Monday please", new Date("2024-01-08T06:24:00.000Z"))).toBe(
      "2024-01-15T00:00:00.000Z",
    );
    expect(resolveDueDate("I'll send it today.", friday)).toBe("2024-01-05T23:59:59.999Z");
    expect(resolveDueDate("Let's have it by 5pm on Friday.", friday)).toBe("2024-01-05T17:00:00.000Z");
    expect(resolveDueDate("I sent it yesterday, I will resend it.", friday)).toBeNull();

    const phrases = ["by Friday", "by Monday", "by Sunday", "today", "tonight", "this afternoon", "tomorrow"];
    phrases.push("next week", "by Friday at 5pm", "by the weekend", "by the end of the week", "on Wednesday");
    for (let day = 1; day <= 7; day++) {
      for (const time of ["00:00", "06:24", "12:00", "18:30", "23:59"]) {
        const said = new Date(`2024-01-0${day}T${time}:00.000Z`);
        for (const phrase of phrases) {
          const due = resolveDueDate(`I will send the report ${phrase}.`, said);
          expect(due, `"${phrase}" said at ${said.toISOString()}`).not.toBeNull();
          expect(Date.parse(due ?? ""), `"${phrase}" said at ${said.toISOString()}`).toBeGreaterThan(
            said.getTime(),
          );
        }
      }
    }
  });
});

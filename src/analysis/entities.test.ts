import { describe, expect, it } from "vitest";
import { findEntities } from "./entities.ts";

const at = "2026-11-02T15:00:00.000Z"; // a Monday

describe("findEntities", () => {
  it("finds people, organisations, places, dates, times, money and numbers, with their lines", () => {
    const entities = findEntities(
      [
        { id: "1", text: "Dana from Acme Inc. will pay $2,500 by next Friday at 3pm.", reference: at },
        { id: "2", text: "We met with Priya in London, and 15% of the 20 people said yes.", reference: at },
        { id: "3", text: "Okay, Dana will call Acme Inc. tomorrow.", reference: at },
      ],
      ["Dana Scully", "Lee"],
    );
    const brief = entities.map((e) => [e.type, e.subType, e.text, e.value, e.messageIds]);
    expect(brief).toEqual(
      expect.arrayContaining([
        ["person", "person", "Dana", "Dana", ["1", "3"]],
        ["organization", "organization", "Acme Inc.", "Acme Inc.", ["1", "3"]],
        ["money", "currency", "$2,500", "2500", ["1"]],
        ["datetime", "date", "next Friday", "2026-11-13", ["1"]],
        ["datetime", "time", "3pm", "2026-11-02T15:00:00.000Z", ["1"]],
        ["person", "person", "Priya", "Priya", ["2"]],
        ["location", "location", "London", "London", ["2"]],
        ["number", "percent", "15%", "15", ["2"]],
        ["number", "cardinal", "20", "20", ["2"]],
        ["datetime", "date", "tomorrow", "2026-11-03", ["3"]],
      ]),
    );
    expect(brief.map(([, , value]) => value)).not.toContain("Okay");
    const dana = entities.find((e) => e.text === "Dana");
    expect(dana?.category).toBe("Managed");
    expect(dana?.messageRefs[1]).toEqual({
      id: "3",
      text: "Okay, Dana will call Acme Inc. tomorrow.",
      offset: 6,
    });
  });

  it("finds nothing in lines that name nothing", () => {
    expect(findEntities([{ id: "1", text: "yes, that works for me", reference: at }], [])).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { findIntents } from "./intents.ts";

const intentsOf = (...texts: string[]) =>
  findIntents(texts.map((text, i) => ({ id: String(i + 1), text }))).map((found) => [
    found.messageIds[0],
    found.intent,
    found.alternatives.map((alternative) => alternative.intent),
  ]);

describe("findIntents", () => {
  it("reads each intent from the lines that state it, and nothing from the others", () => {
    expect(
      intentsOf(
        "Hi, you've reached the voicemail of Dana Lee, please leave a message after the tone.",
        "Honestly I'm not interested, thanks.",
        "Please take me off your calling list.",
        "That sounds great, send me the details.",
        "Let's look at the budget for next quarter.",
      ),
    ).toEqual([
      ["1", "answering_machine", []],
      ["2", "not_interested", []],
      ["3", "do_not_call", []],
      ["4", "interested", []],
    ]);
  });

  it("gives a line's later intents as alternatives", () => {
    expect(intentsOf("No thanks, and don't call me again.")).toEqual([
      ["1", "do_not_call", ["not_interested"]],
    ]);
  });
});

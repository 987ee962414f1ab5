import { describe, expect, it } from "vitest";
import { analyzeConversation, sentencesOf } from "./analyze.ts";
import { wordsOf } from "./nlp.ts";
import { isQuestion } from "./questions.ts";

/** Whether any sentence of a real QMSum train turn (file names in the test names) reads as a question. */
const asks = (text: string) => sentencesOf([text]).some((s) => isQuestion(s, wordsOf(s)).question);

/** The questions an analysis shows for lines said by alternating speakers, in the order it lists them. */
function shownQuestions(lines: string[]): string[] {
  const messages = lines.map((text, i) => ({
    id: String(1_000_000_000_000_000 + i),
    text,
    memberId: i % 2 === 0 ? "member-a" : "member-b",
    speakerName: i % 2 === 0 ? "Speaker A" : "Speaker B",
    startTime: null,
  }));
  const result = analyzeConversation({ conversationStartTime: "2024-01-03T09:00:00.000Z", messages });
  return result.insights.filter((insight) => insight.type === "question").map((insight) => insight.text);
}

describe("what reads as a question", () => {
  it("finds inverted and wh-questions (Bmr020, ES2015b, ES2002d)", () => {
    expect(asks("Are we gonna do it altogether or separately ?")).toBe(true);
    expect(asks("Do you know if anywhere else has it ?")).toBe(true);
    expect(asks("What about the digital pens , did you find them easy enough to use ?")).toBe(true);
  });

  it("ignores tag and back-channel questions (TS3006d, Bro012, Bed013)", () => {
    expect(asks("It's called the Real Remote , right ?")).toBe(false);
    expect(
      asks(
        "Yeah . Yeah , and it 's hard to improve on the {disfmarker} on the best case , cuz it 's already so good , right ?",
      ),
    ).toBe(false);
    expect(asks("Is it ?")).toBe(false);
  });

  it("does not read a statement opening with a wh-word as a question (ES2006a)", () => {
    expect(asks("What we're aiming to do is to create a new remote control for a television .")).toBe(false);
  });

  it("ignores half-statements said with a rising tone (TS3005b, ES2002b, Bmr003)", () => {
    for (const text of [
      "Forty five plus , or ?",
      "L_C_D_ screen as in touch screen ?",
      "Where you can activate it and deactivate it ?",
      "It 's very badly designed ?",
      "Have a nice lunch , huh ?",
    ])
      expect(asks(text)).toBe(false);
  });

  it("finds questions after openers, wh-modifiers, negated and determiner subjects (Bmr003, Bmr010)", () => {
    for (const text of [
      "How many are there , one to five ?",
      "Are those delays adjustable ?",
      "So does that make sense ?",
      "What if you wanna edit it ?",
      "You drew it a long time ago ?",
      "Isn't that great ?",
    ])
      expect(asks(text)).toBe(true);
  });

  it("still ignores a negated tag after a statement (ES2008d, Bro010)", () => {
    expect(asks("It it might be , 'cause that's our corporate colour , isn't it ?")).toBe(false);
    expect(asks("I 'm sorry , there 's {disfmarker} it 's an OR at the output , isn't it ?")).toBe(false);
  });
});

describe("questions worth showing", () => {
  const unanswered = [
    "Why are you specifying it in XML ?",
    "How do we decide how to answer it ?",
    "Do they have to be mutually exclusive ?",
    "What are the values of the Go-there-discourse ?",
    "Which is the clunky one , the one on left or on the right ?",
    "How much longer have we got for the meeting by the way ?",
    "Why are they buying one in the first place ?",
    "What's the agenda for this meeting ?",
    "Is it gonna be like a switch on the remote that says use the T_V_ or use the V_C_R_ ?",
    "Wouldn't they already have a remote control with their television when they buy one ?",
    "Are those delays adjustable ?",
    "Do you know if anywhere else has it ?",
  ];
  const answered = "Do you have any estimate of how many students you hope to attract by that ?";
  const answer =
    "That is subject to continuing negotiations with Universities Wales before we let the contract for the scheme .";

  it("shows at most ten, the one that gets an answer first (Bed012, ES2002b, IS1000b, education_19)", () => {
    const lines = [...unanswered.flatMap((question) => [question, "Mm - hmm ."]), answered, answer];
    const shown = shownQuestions(lines);
    expect(shown).toHaveLength(10);
    expect(shown[0]).toBe("Do you have any estimate of how many students you hope to attract by that?");
  });

  it("drops short filler questions but keeps short ones about something (issue 9, Bmr010)", () => {
    const shown = shownQuestions([
      "Which one was mine ?",
      "Okay .",
      "So does that make sense ?",
      "Yeah .",
      "Are those delays adjustable ?",
      "Yeah .",
    ]);
    expect(shown).toEqual(["Are those delays adjustable?"]);
  });

  it("scores a full question above a short one (ES2002d, Bmr003)", () => {
    const [long, short] = [
      "What about the digital pens , did you find them easy enough to use ?",
      "Is it yellow and blue ?",
    ].map(
      (text) =>
        analyzeConversation({
          conversationStartTime: "2024-01-03T09:00:00.000Z",
          messages: [{ id: "1000000000000001", text, memberId: null, speakerName: null, startTime: null }],
        }).insights[0],
    );
    expect(long?.score).toBeGreaterThan(short?.score ?? 1);
    expect(long?.score).toBeLessThanOrEqual(1);
  });
});

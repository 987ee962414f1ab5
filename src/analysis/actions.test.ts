import { describe, expect, it } from "vitest";
import { analyzeConversation } from "./analyze.ts";
import type { InsightItem } from "./types.ts";

/**
 * The guideline of datasets/qmsum/ACTIONS.md on real turns of QMSum train meetings (file and turn in the
 * test names) and the examples of issue 9. `at` places the line in a meeting of `of` lines, the others
 * being small talk, since where a line is said matters at the end of a meeting.
 */
function tasksOf(text: string, { at = 0, of = 1, speakerName = "Speaker A" } = {}): InsightItem[] {
  const messages = Array.from({ length: of }, (_, i) => ({
    id: String(1_000_000_000_000_000 + i),
    text: i === at ? text : "Okay .",
    memberId: i === at ? "member-a" : "member-b",
    speakerName: i === at ? speakerName : "Speaker B",
    startTime: null,
  }));
  const result = analyzeConversation({ conversationStartTime: "2024-01-03T09:00:00.000Z", messages });
  return result.insights.filter((insight) => insight.type !== "question");
}

const typesOf = (text: string) => tasksOf(text).map((insight) => insight.type);

describe("action items: requests addressed to someone", () => {
  it("reads 'X, can you …' as a task for X, not a question, with its due date (issue 9)", () => {
    const [item] = tasksOf("Carol, can you ask finance for the tax tables by Thursday?");
    // Asking finance is contacting someone: a follow-up, which is an action item of Symbl's kind.
    expect(item).toMatchObject({ type: "follow_up", assigneeName: "Carol" });
    // Said on Wednesday 2024-01-03: the next Thursday.
    expect(item?.dueBy).toBe("2024-01-04T00:00:00.000Z");
  });

  it("reads a request by name to talk to someone as a follow-up for that person (Bmr027 251)", () => {
    const [item] = tasksOf(
      "Morgan , can you talk to our lawyer about it , and find out what the status is on this ?",
    );
    expect(item).toMatchObject({ type: "follow_up", assigneeName: "Morgan" });
  });

  it("reads 'I'd like you guys to …' and a polite 'X, if you can …' as requests", () => {
    // A condition, not a request: no one is addressed, and the task is said after it.
    expect(typesOf("If you can figure out the layout , we 'll build it .")).toEqual([]);
    expect(typesOf("I want you to consider my arguments about the Bill .")).toEqual([]);
  });

  it("does not take an unnamed request for something done in the meeting for a task (ES2002b 1, IS1009d 235)", () => {
    expect(typesOf("Could you plug me in ?")).toEqual([]);
    expect(typesOf("Can you just fill it in the yellow boxes ?")).toEqual([]);
  });
});

describe("action items: what is not a task", () => {
  it("ignores opinions and requirements of the thing being designed (IS1000b 243, TS3003b 96, TS3005a)", () => {
    expect(typesOf("So we we must adapt to the to the receiver .")).toEqual([]);
    expect(typesOf("We are going to use default materials .")).toEqual([]);
    expect(typesOf("You should make sure that you have every button they need on it .")).toEqual([]);
    expect(typesOf("We ought to st we ought to standardize .")).toEqual([]);
  });

  it("ignores meeting procedure (covid_1 180, TS3003c 2 and 276, ES2003d 298)", () => {
    expect(
      typesOf("I am not sure whether that is a point of order, but I will let Mr. Therrien continue."),
    ).toEqual([]);
    expect(typesOf("And a first I'll show you the agenda .")).toEqual([]);
    expect(typesOf("Let's look at the flat case .")).toEqual([]);
    expect(typesOf("Okay , I'll give it a three for the design .")).toEqual([]);
    expect(typesOf("Let me draw it on the board .")).toEqual([]);
  });

  it("ignores keeping the minutes and running through something in the meeting (IS1000c 8, IS1002c 29)", () => {
    expect(typesOf("Uh I will take some minutes uh again .")).toEqual([]);
    expect(typesOf("I'm gonna take some notes .")).toEqual([]);
    expect(typesOf("We 'll just run through the agenda then .")).toEqual([]);
    expect(typesOf("I'm just going to look at my notes for a second .")).toEqual([]);
  });

  it("does not count spoken openers as the words of a task ('Yeah, but I'll zap.')", () => {
    expect(typesOf("Yeah , but I 'll zap .")).toEqual([]);
  });

  it("ignores a plan checked back as a question (Bed008 101)", () => {
    expect(typesOf("Hynek will try to push for trying to combine , different things ?")).toEqual([]);
  });
});

describe("action items: work after the meeting", () => {
  it("keeps a group plan with a time after the meeting (Bed012 362, Bro025 402)", () => {
    expect(typesOf("Yeah . We should do this th the upcoming days .")).toEqual(["action_item"]);
    expect(
      typesOf(
        "And then , uh , later on in the month I think we wanna start including the neural net at the end .",
      ),
    ).toEqual(["action_item"]);
  });

  it("keeps a group decision to do an errand, without an assignee (Bed005)", () => {
    const [item] = tasksOf("Well , in the beginning , we 'll write up a flat file .");
    expect(item).toMatchObject({ type: "action_item", assigneeName: null });
  });

  it("keeps work handed out at the close of a meeting, not the same words at its start (ES2002b 553)", () => {
    const assignment =
      "um for uh our Industrial Designer , you're gonna be thinking about the components concept . Um User " +
      "Interface Designer gonna be thinking about our user interface , and marketing you're gonna be thinking " +
      "about trend watching .";
    // Each sentence of the turn hands out work: both are listed.
    expect(tasksOf(assignment, { at: 19, of: 20 }).map((i) => [i.type, i.text])).toEqual([
      ["action_item", "For our Industrial Designer, you're gonna be thinking about the components concept."],
      [
        "action_item",
        "User Interface Designer gonna be thinking about our user interface, and marketing you're gonna be thinking about trend watching.",
      ],
    ]);
    expect(tasksOf(assignment, { at: 0, of: 20 })).toEqual([]);
  });

  it("keeps the group's 'look into', not a cut-off 'that' (ES2008a 124)", () => {
    expect(typesOf("We have to look into the costs of those .")).toEqual(["action_item"]);
    // A cut-off "that" still ends nothing.
    expect(typesOf("I 'll make sure that")).toEqual([]);
  });
});

/** One-line conversations: a short chat has no closing part, so only the sentence itself decides. */
describe("action items: short conversations", () => {
  it("keeps a short first-person commitment on a pronoun (TS3003c 147, ES2003c 72, Bmr018 211)", () => {
    expect(typesOf("It's a good question . Um . {vocalsound} I'll look into that .")).toEqual([
      "action_item",
    ]);
    expect(typesOf("I 'll work on that .")).toEqual(["action_item"]);
    const [item] = tasksOf("I 'll have to uh research .", { speakerName: "Industrial Designer" });
    expect(item).toMatchObject({ type: "action_item", assigneeName: "Industrial Designer" });
  });

  it("keeps the speaker's own 'I will have to look at it' (Bro024 969)", () => {
    expect(typesOf("Yeah , I {disfmarker} I {disfmarker} I will have to look at it .")).toEqual([
      "action_item",
    ]);
  });

  it("keeps a polite 'Ron, if you can …' without a time", () => {
    const [item] = tasksOf("Ron , if you can figure out the layout of the buttons .");
    expect(item).toMatchObject({ type: "action_item", assigneeName: "Ron" });
  });

  it("does not take a cut-off promise to check with someone for a follow-up (ES2010b 0)", () => {
    expect(typesOf("Well I 'll check with my {disfmarker}")).toEqual([]);
  });
});

describe("action items: issue 27's false positives and misses, in new words", () => {
  it("keeps a clear request with an owner and a date in a one-line conversation", () => {
    const [item] = tasksOf("Priya, can you sign the lease by Monday?");
    expect(item).toMatchObject({ type: "action_item", assigneeName: "Priya" });
    expect(typesOf("Tom will book the venue for the offsite on Friday.")).toEqual(["action_item"]);
  });

  it("keeps a group plan for the next meeting", () => {
    expect(typesOf("Let's each bring a design next meeting.")).toEqual(["action_item"]);
  });

  it("ignores a hypothetical, a social offer, a role in the meeting and reported speech", () => {
    expect(typesOf("You could post the forms to them.")).toEqual([]);
    expect(typesOf("I'll get the coffee for everyone.")).toEqual([]);
    expect(typesOf("I will act as the secretary for today.")).toEqual([]);
    expect(typesOf("She said she would send the invoice.")).toEqual([]);
  });

  it("ignores work reported as done", () => {
    expect(typesOf("We already sent the quote to the supplier last week.")).toEqual([]);
  });
});

describe("follow-ups", () => {
  it("finds the kinds Symbl calls follow-ups (ES2002b 550, TS3003c 86, Bed012 349 and 452)", () => {
    // Sharing the minutes, contacting someone, setting up a meeting, sending an e-mail.
    expect(
      typesOf(
        "Um so I'll be putting the minutes of this uh this meeting into the project documents folder .",
      ),
    ).toEqual(["follow_up"]);
    expect(typesOf("So I'll have to ask the manufacturing department .")).toEqual(["follow_up"]);
    expect(typesOf("OK , then . Let 's meet {disfmarker} meet again next Tuesday .")).toEqual(["follow_up"]);
    expect(typesOf("OK . I 'll send an email , make a time suggestion .")).toEqual(["follow_up"]);
  });

  it("finds an offer to get back, to pass something on or to ask one's department (education_23 134)", () => {
    expect(typesOf("Not off the top of my head, but I can let you know.")).toEqual(["follow_up"]);
    expect(typesOf("I can pass you on that email from my colleague .")).toEqual(["follow_up"]);
    expect(typesOf("I'll check in my department if there is a specialist .")).toEqual(["follow_up"]);
    expect(typesOf("I thought I can't mail you so I left it in the folder .")).toEqual([]);
  });

  it("does not take asking oneself for a follow-up", () => {
    expect(typesOf("The question that we can ask ourselves is what needs are to be fulfilled .")).toEqual([]);
  });

  it("does not take an announcement of the next meeting or a talk deferred in the meeting for one (IS1000a, IS1000b)", () => {
    expect(typesOf("Next meeting will be in thirty minutes .")).toEqual([]);
    expect(typesOf("We will talk about it later .")).toEqual([]);
  });
});

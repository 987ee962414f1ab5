import { describe, expect, it } from "vitest";
import { analyzeConversation } from "./analyze.ts";
import type { AnalysisInput, InsightItem } from "./types.ts";
import { UNPUNCTUATED_PASTE } from "../../test/helpers/pastes.ts";

/** Real turns from the QMSum train split (file names in the test names), analysed one message each. */
function insightsOf(text: string, speakerName = "Speaker A", startTime: string | null = null): InsightItem[] {
  const input: AnalysisInput = {
    conversationStartTime: "2024-01-03T09:00:00.000Z",
    messages: [{ id: "1000000000000001", text, memberId: "member-a", speakerName, startTime }],
  };
  return analyzeConversation(input).insights;
}

function typesOf(text: string): string[] {
  return insightsOf(text).map((i) => i.type);
}

describe("action items", () => {
  it("finds a first-person commitment and assigns it to the speaker", () => {
    const [item] = insightsOf("Yeah . I will look up the supplier prices by Friday .", "Industrial Designer");
    expect(item?.type).toBe("action_item");
    expect(item?.assigneeName).toBe("Industrial Designer");
    expect(item?.memberId).toBe("member-a");
    expect(item?.messageIds).toEqual(["1000000000000001"]);
    expect(item?.text).toBe("I will look up the supplier prices by Friday.");
  });

  it("finds a bare first-person 'look it up' in a short conversation (TS3006b)", () => {
    expect(insightsOf("Yeah . I will look it up .", "Industrial Designer")[0]?.type).toBe("action_item");
  });

  it("finds a named assignee and resolves the weekday forward (Bed006)", () => {
    const [item] = insightsOf("OK , Bhaskara will do the big show on Friday .");
    expect(item?.type).toBe("action_item");
    expect(item?.assigneeName).toBe("Bhaskara");
    // 2024-01-03 is a Wednesday: the next Friday is the 5th.
    expect(item?.dueBy).toBe("2024-01-05T00:00:00.000Z");
  });

  it("resolves the due date from the message's own time when it has one", () => {
    const [item] = insightsOf(
      "Yeah , I wi I {disfmarker} I will do that next week .",
      "PhD C",
      "2024-02-01T10:00:00.000Z",
    );
    expect(item?.type).toBe("action_item");
    expect(item?.dueBy).toBe("2024-02-08T00:00:00.000Z");
  });

  it("ignores 'let's say', 'let's get started' and other meeting procedure (ES2003a, TS3006a)", () => {
    expect(
      typesOf("For instance , um let's say oh oh um , or um you know you press uh say the play button"),
    ).toEqual([]);
    expect(typesOf("Okay let's get started .")).toEqual([]);
  });

  it("ignores negated and non-committal sentences (TS3008c, education_2)", () => {
    expect(typesOf("I don't think we should do it .")).toEqual([]);
    expect(typesOf("That will make a lot of people happy, thank you. [Laughter.]")).toEqual([]);
  });

  it("does not take a relative clause for a commitment (ES2006a-like)", () => {
    expect(
      typesOf("The method that we're going to use to complete the project has three components ."),
    ).toEqual([]);
  });
});

describe("action items: what is not a task", () => {
  it("reads a question about an obligation as a question (Bmr012)", () => {
    expect(typesOf("Do you have to hand it around and if you have two pieces of")).toEqual(["question"]);
  });

  it("does not take a capitalised sentence start for an addressee (Bmr012)", () => {
    const [item] = insightsOf(
      "Course on the other on the other hand you could you view it as the age at the time of the",
    );
    expect(item?.assigneeName ?? null).toBeNull();
  });

  it("ignores conditions (Bmr012)", () => {
    expect(
      typesOf(
        "If we wanna use a different set headset the solution that the guy suggested is Sony will sell you the jack with just wires coming out the end .",
      ),
    ).toEqual([]);
  });
});

describe("action items: precision rules", () => {
  it("ignores cut-off sentences that end on a function word (TS3005a, IS1000b)", () => {
    expect(typesOf("You should just give it to .")).toEqual([]);
    expect(
      typesOf(
        "In this meeting we should really try to reach a decision about the target group and the functionality of the",
      ),
    ).toEqual([]);
    expect(typesOf("Yeah , we will see in which order we will handle them of .")).toEqual([]);
  });

  it("ignores group tasks with nothing but a pronoun for an object, and items under five words (TS3005b)", () => {
    expect(typesOf("We should do it .")).toEqual([]);
    expect(typesOf("Let's do speech .")).toEqual([]);
  });

  it("reads an unaddressed 'you have to' as a description, not a task (ES2002b, TS3005a)", () => {
    expect(typesOf("You have to push it together .")).toEqual([]);
    expect(typesOf("You have to find your other remote control if you want to search .")).toEqual([]);
  });

  it("does not take a relative clause without 'that' for a task (TS3005a, TS3005b)", () => {
    expect(typesOf("The angle you have to use .")).toEqual([]);
    expect(typesOf("It is one of the functions you have to specify .")).toEqual([]);
  });

  it("reads a wh-question with 'will you' as a question, not a request (education_23)", () => {
    expect(typesOf("What performance measures will you use?")).toEqual(["question"]);
  });

  it("ignores verbs that announce rather than commit (ES2002b, Bed004)", () => {
    expect(typesOf("I will admit I don't know what R_S_I_ stands for .")).toEqual([]);
    expect(typesOf("The other thing that's real funny , I'll spoil it for you .")).toEqual([]);
  });
});

describe("follow-ups", () => {
  it("finds 'I'll get back to you' (ES2014a)", () => {
    const [item] = insightsOf("Oh I w um basically I'll get back to you on that .", "Marketing");
    expect(item?.type).toBe("follow_up");
    expect(item?.assigneeName).toBe("Marketing");
  });

  it("finds 'I'll let you know' (Bed004)", () => {
    expect(typesOf("OK , I 'll let you know .")).toEqual(["follow_up"]);
  });

  it("finds a promise to check with someone (covid_3)", () => {
    expect(
      typesOf(
        "Madam Chair, I can assure the honourable member that I will check with the minister and that she will return to the member in due course.",
      ),
    ).toEqual(["follow_up"]);
  });

  it("finds taking something off-line (Bmr012)", () => {
    expect(typesOf("We'll do this off-line , yeah .")).toEqual(["follow_up"]);
  });

  it("does not take a statement about the past for a follow-up", () => {
    expect(typesOf("We sent it to them last week and they liked it .")).toEqual([]);
  });
});

describe("insight text", () => {
  it("quotes a clause, not a whole paste without punctuation (issue 24)", () => {
    const insights = insightsOf(UNPUNCTUATED_PASTE);
    expect(insights.length).toBeGreaterThan(0);
    for (const insight of insights) expect(insight.text.split(" ").length).toBeLessThanOrEqual(40);
    expect(insights.map((i) => i.text)).toContain(
      "I will check with legal about the new contract template before the end of the month",
    );
  });

  it("is never longer than a hundred words", () => {
    const clause = "and the figures, which we went through last time, are in the shared folder";
    const long = `I will send you the report by Friday, ${Array.from({ length: 7 }, () => clause).join(", ")}.`;
    expect(long.split(" ").length).toBeGreaterThan(100);
    expect(insightsOf(long)).toEqual([]);
  });
});

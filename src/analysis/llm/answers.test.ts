import { describe, expect, it } from "vitest";
import type { InsightItem } from "../types.ts";
import {
  chapterTitles,
  citedDecisions,
  citedStatements,
  citedVerdicts,
  parseContent,
  readPartAnswer,
  readQuestionAnswer,
  titleSupported,
  withTitles,
  withVerdicts,
} from "./answers.ts";
import {
  groupForBudget,
  questionPrompt,
  splitTranscript,
  type CandidateRef,
  type ChapterRef,
} from "./prompts.ts";

const message = (id: string, text: string) => ({
  id,
  text,
  memberId: null,
  speakerName: "Ann",
  startTime: null,
});
const part = (...ids: string[]) => ({ lines: ids.map((id) => `[${id}] Ann: …`), messageIds: ids });
const insight = (text: string, messageIds: string[]): InsightItem => ({
  type: "action_item",
  text,
  score: 0.9,
  messageIds,
  memberId: "m-ann",
  assigneeName: "Ann",
  assigneeMemberId: "m-ann",
  dueBy: null,
});

describe("splitTranscript", () => {
  it("cuts at message boundaries within the budget, and cuts short a single message longer than it", () => {
    const messages = [
      message("1", "a".repeat(30)),
      message("2", "b".repeat(30)),
      message("3", "c".repeat(200)),
    ];
    const parts = splitTranscript(messages, 100);
    expect(parts.map((p) => p.messageIds)).toEqual([["1", "2"], ["3"]]);
    expect(parts.every((p) => p.lines.join("\n").length <= 100)).toBe(true);
    expect(parts[1]?.lines[0]).toMatch(/^\[3\] Ann: c+…$/);
  });
});

describe("evidence", () => {
  it("keeps a statement only when it cites at least one id and only ids that were shown", () => {
    const shown = new Set(["1", "2"]);
    const kept = citedStatements(
      [
        { text: " The team  met. ", messageIds: ["1", "1"] },
        { text: "No evidence.", messageIds: [] },
        { text: "Invented.", messageIds: ["3"] },
        { text: "Half invented.", messageIds: ["2", "3"] },
        { text: "  ", messageIds: ["2"] },
      ],
      shown,
    );
    expect(kept).toEqual([{ text: "The team met.", messageIds: ["1"] }]);
  });

  it("titles a chapter from the part holding most of its lines, citing only that chapter's lines", () => {
    const chapters: ChapterRef[] = [{ id: "C1", topicIndex: 2, messageIds: new Set(["2", "3", "4"]) }];
    const texts = new Map([
      ["1", "Welcome, everyone, to the early title meeting."],
      ["2", "The early title was fine."],
      ["3", "Now the budget."],
      ["4", "It is over by ten percent."],
    ]);
    const titles = chapterTitles(
      [
        { part: part("1", "2"), titles: [{ chapter: "C1", title: "Early title", messageIds: ["2"] }] },
        { part: part("3", "4"), titles: [{ chapter: "C1", title: "Welcome", messageIds: ["1"] }] },
      ],
      chapters,
      texts,
    );
    expect(titles).toEqual(new Map([[2, "Early title"]]));
    const better = chapterTitles(
      [
        { part: part("1", "2"), titles: [{ chapter: "C1", title: "Early title", messageIds: ["2"] }] },
        { part: part("3", "4"), titles: [{ chapter: "C1", title: "Budget review", messageIds: ["3"] }] },
      ],
      chapters,
      texts,
    );
    expect(better).toEqual(new Map([[2, "Budget review"]]));
  });

  it("refuses a title whose words the chapter's own lines do not say, keeping the local title", () => {
    const chapters: ChapterRef[] = [
      { id: "C1", topicIndex: 0, messageIds: new Set(["1", "2"]) },
      { id: "C2", topicIndex: 1, messageIds: new Set(["3", "4"]) },
    ];
    const texts = new Map([
      ["1", "We keep the battery we had."],
      ["2", "Two batteries cost too much."],
      ["3", "The case will be rubber."],
      ["4", "A yellow one, then."],
    ]);
    const titles = chapterTitles(
      [
        {
          part: part("1", "2", "3", "4"),
          titles: [
            // "rubber" is said in the meeting, but in the other chapter's lines.
            { chapter: "C1", title: "Rubber battery", messageIds: ["1"] },
            { chapter: "C2", title: "Pricing strategy", messageIds: ["3"] },
          ],
        },
      ],
      chapters,
      texts,
    );
    expect(titles).toEqual(new Map());
    const local = [
      { kind: "chapter" as const, text: "battery", score: 1, messageIds: ["1", "2"] },
      { kind: "chapter" as const, text: "case", score: 1, messageIds: ["3", "4"] },
    ];
    expect(withTitles(local, titles)).toEqual(local);

    const accepted = chapterTitles(
      [
        {
          part: part("1", "2", "3", "4"),
          titles: [
            { chapter: "C1", title: "Battery costs", messageIds: ["1", "2"] },
            { chapter: "C2", title: "The rubber case", messageIds: ["3"] },
          ],
        },
      ],
      chapters,
      texts,
    );
    expect(withTitles(local, accepted).map((topic) => topic.text)).toEqual([
      "Battery costs",
      "The rubber case",
    ]);
  });

  it("supports a title by stems of the lines' words, and never one of framing words alone", () => {
    expect(titleSupported("Batteries and costs", ["The battery cost too much."])).toBe(true);
    expect(titleSupported("Review of the Q3 budget", ["The q3 budget is late."])).toBe(true);
    expect(titleSupported("Budget review", ["We talked."])).toBe(false);
    expect(titleSupported("The review", ["The review is done."])).toBe(false);
    expect(titleSupported("", ["Anything."])).toBe(false);
  });

  it("keeps a decision only when it cites lines of the part it was shown, in conversation order, at most 4 a part", () => {
    const decisions = citedDecisions([
      {
        part: part("1", "2", "3"),
        decisions: [
          { text: "The team chose a yellow case.", messageIds: ["3"] },
          { text: "The team kept the battery.", messageIds: ["2", "1"] },
          { text: "The team hired a designer.", messageIds: ["9"] },
          { text: "The team agreed on everything.", messageIds: [] },
          { text: "The team chose a red one.", messageIds: ["2", "4"] },
        ],
      },
      {
        part: part("4", "5"),
        decisions: [
          // Message 1 exists, but was not shown in this part.
          { text: "The team moved the meeting.", messageIds: ["1"] },
          ...Array.from({ length: 6 }, (_, i) => ({ text: `Decision ${i}.`, messageIds: ["5"] })),
        ],
      },
    ]);
    expect(decisions).toEqual([
      { text: "The team kept the battery.", messageIds: ["2", "1"] },
      { text: "The team chose a yellow case.", messageIds: ["3"] },
      ...Array.from({ length: 4 }, (_, i) => ({ text: `Decision ${i}.`, messageIds: ["5"] })),
    ]);
  });

  it("takes a verdict only when it cites the candidate's own line", () => {
    const candidates: CandidateRef[] = [
      { id: "A1", insightIndex: 0, insight: insight("Ann will call.", ["2"]) },
    ];
    const verdict = { candidate: "A1", isTask: false, assignee: null, dueBy: null, text: "" };
    expect(
      citedVerdicts([{ part: part("1", "2"), verdicts: [{ ...verdict, messageIds: ["1"] }] }], candidates)
        .size,
    ).toBe(0);
    expect(
      citedVerdicts(
        [{ part: part("1", "2"), verdicts: [{ ...verdict, messageIds: ["1", "2"] }] }],
        candidates,
      ).size,
    ).toBe(1);
  });
});

describe("withVerdicts", () => {
  const base = { candidate: "A1", messageIds: ["1"] };
  it("drops what is not a task and rewrites what is, keeping local values the model left empty", () => {
    const local = [
      insight("Ann will call.", ["1"]),
      insight("I think blue is nicer.", ["2"]),
      insight("Untouched.", ["3"]),
    ];
    const verdicts = new Map([
      [
        0,
        { ...base, isTask: true, assignee: "Bob", dueBy: "2026-11-06", text: "Bob will call the supplier." },
      ],
      [1, { ...base, isTask: false, assignee: null, dueBy: null, text: "" }],
    ]);
    const wednesday = () => new Date("2026-11-04T09:00:00.000Z");
    expect(withVerdicts(local, verdicts, wednesday)).toEqual([
      {
        ...local[0],
        text: "Bob will call the supplier.",
        assigneeName: "Bob",
        assigneeMemberId: null,
        dueBy: "2026-11-06T00:00:00.000Z",
      },
      local[2],
    ]);
    const kept = withVerdicts(
      local.slice(0, 1),
      new Map([[0, { ...base, isTask: true, assignee: null, dueBy: "2026-02-30", text: " " }]]),
      wednesday,
    );
    expect(kept).toEqual(local.slice(0, 1));
  });

  it("never gives a due date before the task was said (issue 24)", () => {
    const verdict = (dueBy: string) =>
      new Map([[0, { ...base, isTask: true, assignee: null, dueBy, text: "Ann will call the supplier." }]]);
    const friday = () => new Date("2026-11-06T06:24:00.000Z");
    const dueBy = (day: string) =>
      withVerdicts([insight("Ann will call.", ["1"])], verdict(day), friday)[0]?.dueBy;
    expect(dueBy("2026-11-06")).toBe("2026-11-06T23:59:59.999Z");
    expect(dueBy("2026-11-13")).toBe("2026-11-13T00:00:00.000Z");
    expect(dueBy("2026-11-05")).toBeNull();
  });
});

describe("parseContent", () => {
  it("reads JSON, also inside a Markdown code fence, and refuses anything else", () => {
    expect(parseContent('{"summary":[]}')).toEqual({ summary: [] });
    expect(parseContent('```json\n{"summary":[]}\n```')).toEqual({ summary: [] });
    expect(() => parseContent("Sure! Here is the summary.")).toThrow(SyntaxError);
    expect(() => parseContent('```json\n{"summary":\n```')).toThrow(SyntaxError);
  });
});

describe("readPartAnswer", () => {
  it("reads each field on its own, so one that does not match the schema leaves the others", () => {
    const fields = readPartAnswer({
      summary: [{ text: "x", messageIds: ["1"] }],
      decisions: [{ text: "y", messageIds: "1" }],
      chapters: [{ title: 5 }],
      actionItems: [],
    });
    expect(fields.summary).toEqual({ value: [{ text: "x", messageIds: ["1"] }] });
    expect(fields.decisions).toEqual({ problem: 'its "decisions" does not match the schema' });
    expect(fields.chapters).toEqual({ problem: 'its "chapters" does not match the schema' });
    expect(fields.actionItems).toEqual({ value: [] });
    expect(readPartAnswer([1]).summary).toEqual({ problem: "the answer is not a JSON object" });
  });
});

describe("groupForBudget", () => {
  it("groups the parts' statements so that each combining request fits", () => {
    const statements = Array.from({ length: 5 }, (_, i) => ({
      text: "s".repeat(40),
      messageIds: [String(i)],
    }));
    const groups = groupForBudget(statements, 100);
    expect(groups.map((group) => group.length)).toEqual([2, 2, 1]);
  });
});

describe("questionPrompt", () => {
  const excerpt = (name: string, ids: string[]) => ({
    conversation: { name, startTime: "2026-03-02T09:00:00Z" },
    lines: ids.map((id) => ({
      id,
      speakerName: id === "2" ? null : "Ann",
      text: `line ${id}\nwith a break`,
    })),
  });

  it("shows the best excerpts that fit the budget under their meeting, then the question, and says which ids it showed", () => {
    const { prompt, messageIds } = questionPrompt(
      "What  was\ncut?",
      [excerpt("Budget review", ["1", "2"]), excerpt("Launch", ["3"]), excerpt("Other", ["4"])],
      180,
    );
    expect(prompt).toBe(
      [
        'Meeting "Budget review", 2026-03-02:\n[1] Ann: line 1 with a break\n[2] Unknown speaker: line 2 with a break',
        'Meeting "Launch", 2026-03-02:\n[3] Ann: line 3 with a break',
        "Question: What was cut?",
      ].join("\n\n"),
    );
    expect(messageIds).toEqual(["1", "2", "3"]);
  });

  it("reads an answer only when it matches its schema", () => {
    expect(readQuestionAnswer({ answer: [{ text: "Cut.", messageIds: ["1"] }] })).toEqual([
      { text: "Cut.", messageIds: ["1"] },
    ]);
    expect(readQuestionAnswer({ answer: "Cut." })).toBeNull();
    expect(readQuestionAnswer({ answer: [], extra: 1 })).toBeNull();
  });
});

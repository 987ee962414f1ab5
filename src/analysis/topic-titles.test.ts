import { describe, expect, it } from "vitest";
import { loadMeeting, meetingFiles, spokenTurns } from "../../test/helpers/qmsum.ts";
import { analyzeConversation } from "./analyze.ts";

// Words no chapter title may contain, listed here independently of lexicon.ts so that a gap there fails.
const PRONOUNS = `i me my mine we us our you your he him his she her it its they them their this that these
  those something someone everything everyone anything what which who`;
const FILLERS = `um uh mm hmm yeah yes okay ok alright right well like gonna wanna dunno kinda sorta actually
  basically stuff thing things course`;
const ADDRESS = `speaker speakers chair chairman chairperson minister honourable honorable madam sir mister mr
  mrs ms member members colleague colleagues gentlemen ladies manager expert designer`;
const forbidden = new Set(`${PRONOUNS} ${FILLERS} ${ADDRESS}`.split(/\s+/));

describe("chapter titles of the QMSum val meetings", () => {
  const meetings = meetingFiles("val").map((file) => {
    const turns = spokenTurns(loadMeeting("val", file));
    return {
      file,
      ids: turns.map((_, i) => String(4_000_000_000_000_000 + i)),
      result: analyzeConversation({
        conversationStartTime: "2026-11-02T15:00:00.000Z",
        messages: turns.map((turn, i) => ({
          id: String(4_000_000_000_000_000 + i),
          text: turn.content,
          memberId: turn.speaker,
          speakerName: turn.speaker,
          startTime: null,
        })),
      }),
    };
  });

  it("are short noun phrases without a pronoun, filler, form of address or speaker word", () => {
    const bad: string[] = [];
    for (const { file, result } of meetings) {
      for (const topic of result.topics) {
        const words = topic.text.split(" ");
        const wellFormed = /^[a-z0-9][a-z0-9-]*(?: [a-z0-9][a-z0-9-]*){0,2}$/.test(topic.text);
        if (!wellFormed || words.some((w) => forbidden.has(w))) bad.push(`${file}: ${topic.text}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("are distinct within a meeting, and its chapters cover it in order from the first line", () => {
    for (const { ids, result } of meetings) {
      const texts = result.topics.map((t) => t.text);
      expect(new Set(texts).size).toBe(texts.length);
      const chapters = result.topics
        .filter((t) => t.kind === "chapter")
        .map((t) => t.messageIds)
        .sort((a, b) => ids.indexOf(a[0] ?? "") - ids.indexOf(b[0] ?? ""));
      expect(chapters.length).toBeGreaterThan(0);
      expect(chapters.flat()).toEqual(ids);
    }
  });
});

import { parse } from "@plussub/srt-vtt-parser";
import { describe, expect, it } from "vitest";
import { captionCues, cuesToSrt, cuesToWebVtt, downloadName, pageToText } from "./exports.ts";
import { testPageView } from "../../test/helpers/page-views.ts";
import type { PageMessage, PageView } from "./view-model.ts";

/** The parser's cues (its published types leave them untyped). */
const cuesOf = (text: string) =>
  (parse(text) as unknown as { entries: { id: string; from: number; to: number; text: string }[] }).entries;

function line(
  id: string,
  offset: number | null,
  text: string,
  extra: Partial<PageMessage> = {},
): PageMessage {
  return {
    id,
    text,
    speakerId: "m1",
    speakerName: "Ann <Lee> & co",
    offset,
    endOffset: null,
    startTime: null,
    hidden: false,
    ...extra,
  };
}

function view(messages: PageMessage[]): PageView {
  return testPageView({
    endTime: "2026-11-02T16:02:00.000Z",
    summary: [{ text: "We plan the launch.", messageIds: ["1"] }],
    topics: [{ id: "t1", kind: "chapter", text: "launch", messageIds: ["1"], offset: 0, share: 1 }],
    insights: [
      {
        id: "i1",
        type: "action_item",
        text: "Send the deck",
        messageIds: ["2"],
        speakerId: "m1",
        speakerName: "Ann Lee",
        assigneeId: null,
        assigneeName: "Bob",
        dueBy: null,
      },
    ],
    messages,
    readOnly: true,
  });
}

describe("captions", () => {
  const messages = [
    line("1", 0, "Hello --> world <b>bold</b>", { endOffset: 3.5 }),
    line("2", 2, "Overlapping start"),
    line("3", null, "Untimed"),
    line("4", 3725.25, "Later,\nacross lines", { endOffset: 3730 }),
    line("5", 3726, "Hidden", { hidden: true }),
  ];

  it("writes WebVTT that a parser reads back: times, voices and text, hidden and untimed lines left out", () => {
    const vtt = cuesToWebVtt(captionCues(view(messages)));
    expect(vtt.startsWith("WEBVTT\n\n")).toBe(true);
    expect(vtt).toContain("01:02:05.250 --> 01:02:10.000");
    expect(vtt).toContain("<v Ann &lt;Lee&gt; &amp; co>Hello --&gt; world &lt;b&gt;bold&lt;/b&gt;");
    const entries = cuesOf(vtt);
    expect(entries.map((e) => [e.id, e.from, e.to])).toEqual([
      ["1", 0, 2000],
      ["2", 2000, 3000],
      ["4", 3_725_250, 3_730_000],
    ]);
    expect(vtt).not.toContain("Untimed");
    expect(vtt).not.toContain("Hidden");
  });

  it("writes SRT numbered from 1 with comma milliseconds, one line of text per cue", () => {
    const srt = cuesToSrt(captionCues(view(messages)));
    const entries = cuesOf(srt);
    expect(entries.map((e) => [e.id, e.from, e.to, e.text])).toEqual([
      ["1", 0, 2000, "Ann <Lee> & co: Hello --> world <b>bold</b>"],
      ["2", 2000, 3000, "Ann <Lee> & co: Overlapping start"],
      ["3", 3_725_250, 3_730_000, "Ann <Lee> & co: Later, across lines"],
    ]);
    expect(srt).toContain("01:02:05,250 --> 01:02:10,000");
  });

  it("has no cue for a transcript without times", () => {
    expect(captionCues(view([line("1", null, "Hello"), line("2", null, "Hi")]))).toEqual([]);
  });
});

describe("plain text and file names", () => {
  it("reads like the page: title, summary, insights with who, topics, the transcript with times", () => {
    const text = pageToText(
      view([line("1", 65, "Hello"), line("2", null, "Bye"), line("3", 70, "x", { hidden: true })]),
    );
    expect(text.split("\n").slice(0, 2)).toEqual(["Planning", "2026-11-02T15:00:00.000Z · 1 h 2 min"]);
    expect(text).toContain("Action items\n\n- Send the deck (said by Ann Lee, for Bob)\n");
    expect(text).toContain("Topics\n\n- launch\n");
    expect(text).toContain("Transcript\n\n[1:05] Ann <Lee> & co: Hello\nAnn <Lee> & co: Bye\n");
    expect(text).not.toContain("x\n");
  });

  it("names downloads by the title in safe characters", () => {
    expect(downloadName("Réunion: Q3 plan / budget", "vtt")).toBe("reunion-q3-plan-budget.vtt");
    expect(downloadName('"; rm -rf', "md")).toBe("rm-rf.md");
    expect(downloadName("日本語", "srt")).toBe("conversation.srt");
  });
});

import { describe, expect, it } from "vitest";
import { detectTrackers } from "../analysis/trackers.ts";
import { renderPage } from "./render-page.ts";
import { testPageView } from "../../test/helpers/page-views.ts";
import type { PageMessage, PageView } from "./view-model.ts";

const context = {
  styleNonce: "n0nce",
  scriptUrl: null,
  stylesheetUrl: null,
  fontStylesheetUrl: null,
  selfPath: "TOKEN",
  verbatim: false,
  part: null,
};

const line = (id: string, speaker: "a" | "b", text: string, at: number | null): PageMessage => ({
  id,
  text,
  speakerId: speaker,
  speakerName: speaker === "a" ? "Ann Lee" : "Bob Stone",
  offset: at,
  endOffset: at === null ? null : at + 4,
  startTime: null,
  hidden: false,
});

function audioView(timed: boolean): PageView {
  const at = (seconds: number) => (timed ? seconds : null);
  const view = testPageView({
    kind: "audio-summary",
    title: "Budget review",
    endTime: "2026-11-02T15:00:40.000Z",
    attendees: [
      { id: "a", name: "Ann Lee", avatarUrl: null },
      { id: "b", name: "Bob Stone", avatarUrl: null },
    ],
    topics: [
      { id: "t1", kind: "chapter", text: "The budget", messageIds: ["1", "2"], offset: at(0), share: 0.6 },
      { id: "t2", kind: "chapter", text: "Next steps", messageIds: ["3"], offset: at(20), share: 0.4 },
    ],
    messages: [
      line("1", "a", "Let us go over the budget.", at(0)),
      line("2", "b", "The budget is tight this year.", at(10)),
      line("3", "a", "Then we cut travel.", at(20)),
    ],
    trackers: [
      { id: "k1", name: "Budget", vocabulary: ["budget"] },
      { id: "k2", name: "Hiring", vocabulary: ["hire"] },
    ],
    mediaUrl: "https://media.example/meeting.mp3",
    readOnly: true,
  });
  // As SummaryPageService matches them, in the analysis worker.
  return { ...view, trackerMatches: detectTrackers(view.trackers, view.messages, []).trackers };
}

const text = (page: string) =>
  page
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("the analytics page (audio-summary)", () => {
  it("places the timeline with nonce'd rules, never style attributes, and marks the chapters along it", () => {
    const page = renderPage(audioView(true), context).html;
    expect(page).not.toMatch(/\sstyle=/);
    const style = /<style nonce="n0nce">([\s\S]*?)<\/style>/.exec(page)?.[1] ?? "";
    // The chapters (0–20 s, 20–40 s of 40 s) come first, then Ann's two stretches and Bob's one.
    expect(style).toContain(".at-0{left:0.000%;width:50.000%}");
    expect(style).toContain(".at-1{left:50.000%;width:50.000%}");
    expect(page).toMatch(
      /class="tl-item at-1">\s*<a class="tl-chapter" href="#m-3" data-goto="3" data-seek="20"/,
    );
    expect(text(page)).toContain("Chapters The budget , from 0:00 Next steps , from 0:20");
    expect(page.match(/class="tl-segment/g)).toHaveLength(3);
    expect(page).toContain("The timeline as a table");
    expect(text(page)).toContain("Budget (2 lines) budget");
    expect(text(page)).not.toContain("Hiring");
  });

  it("says plainly that an untimed conversation has no timeline, and shows word shares", () => {
    const page = renderPage(audioView(false), context).html;
    expect(page).not.toContain('class="timeline"');
    expect(text(page)).toContain("This conversation's lines have no times, so there is no timeline.");
    expect(text(page)).toContain("Speaker Words Share of words");
    // Ann says 10 of the 16 words.
    expect(text(page)).toMatch(/Ann Lee 10 63%/);
    expect(text(page)).not.toContain("Talk time Share");
    expect(text(page)).toContain("Ann Lee: Let us go over the budget.");
    expect(page).toContain('<audio id="player"');
  });

  it("tells an app without trackers so, and leaves the other kinds' page as it was", () => {
    const page = renderPage({ ...audioView(true), trackers: [] }, context).html;
    expect(text(page)).toContain("This app has no trackers.");
    const video = renderPage({ ...audioView(true), kind: "video-summary" }, context).html;
    expect(video).not.toContain("Who spoke when");
    expect(video).toContain('class="layout"');
  });
});

import { describe, expect, it } from "vitest";
import { testPageView } from "../../test/helpers/page-views.ts";
import { pageSearch, renderPage, renderPagePart } from "./render-page.ts";
import { partCount, PART_LINES, TranscriptParts, WHOLE_UP_TO } from "./transcript-parts.ts";
import type { PageMessage, PageView } from "./view-model.ts";

const context = {
  styleNonce: "n",
  scriptUrl: null,
  stylesheetUrl: null,
  fontStylesheetUrl: null,
  selfPath: "TOKEN",
  verbatim: false,
  part: null,
};

/** `count` lines, 5 s apart, by Ann but every tenth (5, 15, …) by Bob; line 2,500 says "needle". */
function longView(count: number, overrides: Partial<PageView> = {}): PageView {
  const messages: PageMessage[] = Array.from({ length: count }, (_, i) => ({
    id: `l${i}`,
    text: i === 2500 ? "The needle is here." : `Line ${i} of the plan.`,
    speakerId: i % 10 === 5 ? "m2" : "m1",
    speakerName: i % 10 === 5 ? "Bob Stone" : "Ann Lee",
    offset: i * 5,
    endOffset: i * 5 + 4,
    startTime: null,
    hidden: false,
  }));
  return testPageView({
    attendees: [
      { id: "m1", name: "Ann Lee", avatarUrl: null },
      { id: "m2", name: "Bob Stone", avatarUrl: null },
    ],
    messages,
    ...overrides,
  });
}

const lineIds = (html: string) =>
  [...html.matchAll(/<li class="line[^"]*" id="m-([^"]+)"/g)].map((m) => m[1]);
const partLinks = (html: string) =>
  [
    ...html.matchAll(/<li class="part" data-part="(\d+)">\s*<a class="part-link" href="([^"]+)">([^<]+)</g),
  ].map((m) => [m[1], m[2], m[3]]);

describe("a long transcript in parts", () => {
  it("is one part up to 1,500 lines, then parts of 1,000", () => {
    expect(WHOLE_UP_TO).toBe(1500);
    expect(PART_LINES).toBe(1000);
    expect([1, 1500, 1501, 3200, 17_000].map(partCount)).toEqual([1, 1, 2, 4, 17]);
    const parts = new TranscriptParts(longView(3200).messages, 9, { selfPath: "T", verbatim: true });
    expect([
      parts.count,
      parts.current,
      parts.range(4),
      parts.partOf("l2999"),
      parts.partOf("l3000"),
    ]).toEqual([4, 4, [3000, 3200], 3, 4]);
    expect(parts.pageOf(1)).toBe("T?text=verbatim");
    expect(parts.label(3)).toBe("Part 3 of 4: lines 2,001–3,000, from 2:46:40");
  });

  it("shows the part asked for, a link to each other part in its place, and links into other parts by their page", () => {
    const view = longView(3200, { summary: [{ text: "The needle", messageIds: ["l2500"] }] });
    const first = renderPage(view, context).html;
    expect(lineIds(first)).toEqual(Array.from({ length: 1000 }, (_, i) => `l${i}`));
    expect(partLinks(first)).toEqual([
      ["2", "TOKEN?part=2", "Part 2 of 4: lines 1,001–2,000, from 1:23:20"],
      ["3", "TOKEN?part=3", "Part 3 of 4: lines 2,001–3,000, from 2:46:40"],
      ["4", "TOKEN?part=4", "Part 4 of 4: lines 3,001–3,200, from 4:10:00"],
    ]);
    expect(first).toContain('data-part="1" data-parts="4" data-part-starts="0 5000 10000 15000"');
    const signature = new TranscriptParts(view.messages, null, context).signature;
    expect(first).toContain(`data-version="${signature}"`);
    // The lines' text is not in it: an edited line moves no part.
    const edited = view.messages.map((m, i) => (i === 5 ? { ...m, text: "Edited." } : m));
    expect(new TranscriptParts(edited, null, context).signature).toBe(signature);
    expect(new TranscriptParts(view.messages.slice(1), null, context).signature).not.toBe(signature);
    // The summary's line is in part 3: its link is that part's page (without the script) and names the part.
    expect(first).toMatch(/href="TOKEN\?part=3#m-l2500" data-goto="l2500" data-part="3" data-seek="12500"/);

    const third = renderPage(view, { ...context, part: 3, verbatim: true }).html;
    expect(lineIds(third)).toEqual(Array.from({ length: 1000 }, (_, i) => `l${2000 + i}`));
    expect(partLinks(third).map(([part, href]) => [part, href])).toEqual([
      ["1", "TOKEN?text=verbatim"],
      ["2", "TOKEN?text=verbatim&amp;part=2"],
      ["4", "TOKEN?text=verbatim&amp;part=4"],
    ]);
    expect(third).toMatch(/href="#m-l2500" data-goto="l2500" data-part="3"/);
    // The text switch stays at the part.
    expect(third).toContain('href="TOKEN?part=3"');
    // A part past the last shows the last.
    expect(lineIds(renderPage(view, { ...context, part: 99 }).html)[0]).toBe("l3000");
  });

  it("sends a part as the script asks for it: the same lines, a speaker's lines together across parts", () => {
    const view = longView(3200);
    const part = renderPagePart(view, { ...context, part: 2 }).html;
    expect(part.startsWith('<ol class="lines" data-part="2" data-parts="4"')).toBe(true);
    expect(lineIds(part)).toEqual(Array.from({ length: 1000 }, (_, i) => `l${1000 + i}`));
    const onPage = renderPage(view, { ...context, part: 2 }).html;
    const line = (html: string, id: string) =>
      new RegExp(`<li class="line[^"]*" id="m-${id}"[\\s\\S]*?</li>`).exec(html)?.[0];
    expect(line(part, "l1500")).toBe(line(onPage, "l1500"));
    // Part 2's first line (Ann) goes on from the last of part 1 (Ann): no heading of its own.
    expect(line(part, "l1000")).toContain('class="line is-continued"');
    expect(line(part, "l1005")).toContain('class="line"');
  });

  it("tells a chip's parts, and finds the parts that mention a query in the text as shown", () => {
    const view = longView(3200, {
      topics: [
        { id: "t1", kind: "phrase", text: "needle", messageIds: ["l2500", "l10"], offset: null, share: null },
      ],
    });
    expect(renderPage(view, context).html).toMatch(
      /data-filter="topic:t1"\s+data-count="2"\s+data-parts="1 3"/,
    );
    const search = pageSearch(view, context);
    const mentioning = (query: string) =>
      Array.from({ length: search.parts }, (_, i) => i + 1).filter((part) => search.mentions(part, query));
    expect(mentioning("NEEDLE")).toEqual([3]);
    expect(mentioning("line 3199")).toEqual([4]);
    expect(mentioning("haystack")).toEqual([]);
  });

  it("sends a transcript of 1,500 lines whole, as before", () => {
    const html = renderPage(longView(1500), context).html;
    expect(lineIds(html)).toHaveLength(1500);
    expect(partLinks(html)).toEqual([]);
    expect(html).not.toContain("data-parts");
  });
});

import { describe, expect, it } from "vitest";
import { contrastRatio, palette, readableText } from "./colour.ts";
import { escapeHtml, safeHttpUrl } from "./escape.ts";
import { escapeMarkdown, pageToJson, pageToMarkdown } from "./page-data.ts";
import { pageToText } from "./exports.ts";
import { renderLinkProblemPage } from "./render-error-page.ts";
import { renderPage } from "./render-page.ts";
import { safeFontFamily } from "./theme.ts";
import { testPageView } from "../../test/helpers/page-views.ts";
import { formatDuration, formatOffset, type PageInsight, type PageView } from "./view-model.ts";

const context = {
  styleNonce: "abc",
  scriptUrl: "../assets/page.js?v=1",
  stylesheetUrl: null,
  fontStylesheetUrl: null,
  selfPath: "TOKEN",
  verbatim: false,
  part: null,
};

/** An action item resting on line "1", with no speaker, assignee or due date. */
function insight(id: string, overrides: Partial<PageInsight> = {}): PageInsight {
  return {
    id,
    type: "action_item",
    text: `Task ${id}`,
    messageIds: ["1"],
    speakerId: null,
    speakerName: null,
    assigneeId: null,
    assigneeName: null,
    dueBy: null,
    ...overrides,
  };
}

function view(overrides: Partial<PageView> = {}): PageView {
  return testPageView({
    messages: [
      {
        id: "1",
        text: "Hello",
        speakerId: "m1",
        speakerName: "Ann Lee",
        offset: 0,
        endOffset: null,
        startTime: null,
        hidden: false,
      },
      {
        id: "2",
        text: "Secret",
        speakerId: "m1",
        speakerName: "Ann Lee",
        offset: 65,
        endOffset: null,
        startTime: null,
        hidden: true,
      },
    ],
    ...overrides,
  });
}

describe("escaping", () => {
  it("escapes every character that could end a text node or an attribute", () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\``)).toBe(
      "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;",
    );
  });
  it("lets only absolute http(s) URLs through", () => {
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("data:text/html,x")).toBeNull();
    expect(safeHttpUrl("/relative")).toBeNull();
    expect(safeHttpUrl('https://x.example/"><b>')).toBe("https://x.example/%22%3E%3Cb%3E");
  });
  it("keeps Markdown syntax in user text as text", () => {
    expect(escapeMarkdown("[click](javascript:x) *b*")).toBe("\\[click\\]\\(javascript:x\\) \\*b\\*");
  });
});

describe("colour", () => {
  it("picks the text colour with the better contrast and keeps 4.5:1 for every text pair", () => {
    expect(readableText("#ffffff")).toBe("#16181d");
    expect(readableText("#10243e")).toBe("#ffffff");
    for (const background of ["#000000", "#ffffff", "#777777", "#10243e", "#ffe066", "#2f9e8f", "#ff0000"]) {
      const p = palette(background);
      expect(contrastRatio(p.text, p.background)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(p.muted, p.background)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(p.surfaceText, p.surface)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(p.surfaceMuted, p.surface)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("the page", () => {
  it("formats offsets and durations", () => {
    expect(formatOffset(65)).toBe("1:05");
    expect(formatOffset(3723)).toBe("1:02:03");
    expect(formatDuration(2520)).toBe("42 min");
  });

  it("takes a font family only when its name is safe in CSS and in the catalogue's URL", () => {
    expect(safeFontFamily("Source Sans 3")).toBe("Source Sans 3");
    expect(safeFontFamily("x'); @import url(evil)")).toBeNull();
    expect(safeFontFamily(null)).toBeNull();
  });

  it("links the downloads, captions only when the transcript has times", () => {
    const timed = renderPage(view(), context).html;
    for (const format of ["md", "txt", "vtt", "srt", "json"])
      expect(timed).toContain(`href="TOKEN/export.${format}"`);
    const untimed = renderPage(
      view({ messages: view().messages.map((m) => ({ ...m, offset: null })) }),
      context,
    ).html;
    expect(untimed).toContain('href="TOKEN/export.txt"');
    expect(untimed).not.toContain("export.vtt");
    expect(untimed).not.toContain("export.srt");
  });

  it("renders without inline scripts, with the theme in the nonce'd style", () => {
    const html = renderPage(view({ title: "<script>alert(1)</script>" }), context).html;
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toMatch(/<script(?![^>]*src=)/);
    expect(html).toMatch(/<style nonce="abc">\s*:root\{--bg:#f5f6f8/);
    expect(html).toContain("No summary was found for this conversation.");
    expect(html).toContain('data-offset="65"');
  });

  it("styles a page by its own brand and attendees, though themes are kept between renders", () => {
    const style = (page: PageView) =>
      /<style nonce="abc">([\s\S]*?)<\/style>/.exec(renderPage(page, context).html)?.[1] ?? "";
    const branded = (branding: Partial<PageView["branding"]>) =>
      view({ branding: { ...view().branding, ...branding } });
    expect(style(branded({ background: "#10243e" }))).toContain("--bg:#10243e;");
    expect(style(view())).toContain("--bg:#f5f6f8;");
    expect(style(branded({ topicsFilter: "#aa0000" }))).toContain("--topic:#aa0000;");
    expect(style(branded({ insightsFilter: "#00aa00" }))).toContain("--insight:#00aa00;");
    expect(style(branded({ fontFamily: "Inter" }))).toContain('--font:"Inter", ');
    expect(style(view({ attendees: [{ id: "m9", name: "Zoë", avatarUrl: null }] }))).toContain(
      '.speaker[data-member-name="m9"]',
    );
    expect(style(view())).not.toContain('"m9"');
  });

  it("shows hidden lines only to editable links, and never in JSON or Markdown", () => {
    expect(renderPage(view(), context).html).toContain("Secret");
    expect(renderPage(view({ readOnly: true }), context).html).not.toContain("Secret");
    expect(JSON.stringify(pageToJson(view()))).not.toContain("Secret");
    expect(pageToMarkdown(view())).not.toContain("Secret");
    expect(pageToMarkdown(view())).toContain("**Ann Lee** [0:00]: Hello");
  });

  it("shows lines cleaned for reading under one heading per speaker, or as stored with verbatim", () => {
    const marked = "I 'm {disfmarker} sure , yes .";
    const base = view();
    const lines = [
      { ...base.messages[0]!, id: "a", text: marked },
      { ...base.messages[0]!, id: "b", text: "{vocalsound}" },
      { ...base.messages[0]!, id: "c", text: "Next." },
      { ...base.messages[0]!, id: "d", text: "Hi .", speakerId: "m2", speakerName: "Bob" },
    ];
    const line = (html: string, id: string) =>
      new RegExp(`<li class="([^"]*)" id="m-${id}"([^>]*)>`).exec(html);
    const cleaned = renderPage(view({ messages: lines }), context).html;
    expect(cleaned).toContain('<p class="line-text" dir="auto">I&#39;m — sure, yes.</p>');
    expect(line(cleaned, "a")?.[1]).toBe("line");
    // A line of marks only is left out of the cleaned text, so the next line still goes on from "a".
    expect(line(cleaned, "b")?.[1]).toBe("line is-continued is-sound");
    expect(line(cleaned, "c")?.[1]).toBe("line is-continued");
    expect(line(cleaned, "d")?.[1]).toBe("line");
    // The editor gets the stored text where the page shows another; a read-only page does not carry it.
    expect(line(cleaned, "a")?.[2]).toContain('data-text="I &#39;m {disfmarker} sure , yes ."');
    expect(line(cleaned, "c")?.[2]).not.toContain("data-text");
    expect(renderPage(view({ messages: lines, readOnly: true }), context).html).not.toContain("data-text=");
    const verbatim = renderPage(view({ messages: lines }), { ...context, verbatim: true }).html;
    expect(verbatim).toContain("I &#39;m {disfmarker} sure , yes .");
    expect(verbatim).not.toContain("data-text=");
    expect(line(verbatim, "b")?.[1]).toBe("line is-continued");
    expect(verbatim).toMatch(/href="TOKEN\?text=verbatim"\s+data-text-mode="verbatim"\s+aria-current="page"/);
  });

  it("renders a line again whenever anything it shows changes, though lines are kept between renders", () => {
    const lineOf = (page: PageView, withContext = context) =>
      /<li [^>]*id="m-1"[\s\S]*?<\/li>/.exec(renderPage(page, withContext).html)?.[0] ?? "";
    // Stored text that reads otherwise once cleaned, so an editable line also carries it for the editor.
    const first = { ...view().messages[0]!, text: "I 'm here ." };
    const withLine = (line: Partial<PageView["messages"][number]>, page: Partial<PageView> = {}) =>
      view({ messages: [{ ...first, ...line }], ...page });
    const before = lineOf(withLine({}));
    expect(before).toContain('data-text="I &#39;m here ."');
    expect(lineOf(withLine({}))).toBe(before);
    const changed: [string, PageView][] = [
      ["text", withLine({ text: "I 'm here now ." })],
      // Reads the same once cleaned; the editor's copy of the stored text changes.
      ["stored text", withLine({ text: "I 'm here." })],
      ["speaker", withLine({ speakerId: "m2", speakerName: "Bob" })],
      ["speaker's id", withLine({ speakerId: "m2" })],
      ["speaker's name", withLine({ speakerName: "Ann Lee-Park" })],
      ["time", withLine({ offset: 7 })],
      ["hidden", withLine({ hidden: true })],
      ["read-only", withLine({}, { readOnly: true })],
      ["media", withLine({}, { kind: "video-summary", mediaUrl: "https://example.com/v.mp4" })],
      [
        "chapter",
        withLine(
          {},
          { topics: [{ id: "t1", kind: "chapter", text: "Intro", messageIds: ["1"], offset: 0, share: 1 }] },
        ),
      ],
      ["insight", withLine({}, { insights: [insight("i1", { type: "question" })] })],
      ["continued", view({ messages: [{ ...first, id: "0" }, first] })],
    ];
    // Each change is rendered right after the first view, so the line kept is the first view's.
    for (const [what, page] of changed) {
      expect(lineOf(withLine({})), what).toBe(before);
      expect(lineOf(page), what).not.toBe(before);
    }
    expect(lineOf(withLine({}), { ...context, verbatim: true }), "verbatim").toContain(">I &#39;m here .<");
    expect(lineOf(withLine({})), "the first view again").toBe(before);
  });

  it("lists chapters in order with their start when known and share, then key phrases", () => {
    const chapter = (id: string, text: string, offset: number | null, share: number) => ({
      id,
      kind: "chapter" as const,
      text,
      messageIds: [id === "t1" ? "1" : "2"],
      offset,
      share,
    });
    const topics = [
      chapter("t1", "budget", 0, 0.7),
      chapter("t2", "hiring plan", null, 0.004),
      { id: "t3", kind: "phrase" as const, text: "travel", messageIds: ["1"], offset: null, share: null },
    ];
    const html = renderPage(view({ topics }), context).html.replace(/\s+/g, " ");
    expect(html).toMatch(
      /<ol class="items chapters"[^>]*> <li class="chapter"> <a [^>]*href="#m-1"[^>]*>budget<\/a/,
    );
    expect(html).toContain(
      'starts at <time datetime="PT0S">0:00</time></span ><span>70% of the meeting</span>',
    );
    expect(html).toMatch(/>hiring plan<\/a > <span class="item-meta"><span>&lt;1% of the meeting<\/span>/);
    expect(html).toMatch(
      /<h3 id="phrases-heading">Key phrases<\/h3> <ul class="items topics"[^>]*> <li><a [^>]*>travel</,
    );
    expect(pageToMarkdown(view({ topics }))).toContain(
      "- budget (0:00, 70% of the meeting)\n- hiring plan (\\<1% of the meeting)\n- travel\n",
    );
  });

  it("shows a date and a length only when the meeting's times give them, never 0 s", () => {
    const header = (overrides: Partial<PageView>) =>
      /<header[\s\S]*<\/header>/.exec(renderPage(view(overrides), context).html)?.[0] ?? "";
    expect(header({})).toMatch(/2 November 2026[\s\S]*15:00 UTC[\s\S]*42 min/);
    const undated = header({ dated: false, endTime: "2026-11-02T15:00:00.000Z" });
    expect(undated).not.toContain("<time");
    expect(undated).not.toContain('class="meta"');
    expect(header({ endTime: "2026-11-02T15:00:00.400Z" })).not.toMatch(/\b0 s\b/);
    expect(pageToMarkdown(view({ dated: false, endTime: "2026-11-02T15:00:00.000Z" }))).not.toMatch(/0 min/);
    // Plain text follows the same rules.
    expect(pageToText(view({})).split("\n")[1]).toBe("2026-11-02T15:00:00.000Z · 42 min");
    expect(pageToText(view({ dated: false })).split("\n")[1]).toBe("42 min");
    expect(pageToText(view({ dated: false, endTime: "2026-11-02T15:00:00.000Z" })).split("\n")[1]).toBe("");
  });

  it("lists five insights of a type and the rest behind Show all; dismissed ones only on editable links", () => {
    const insights = ["a", "b", "c", "d", "e", "f", "g"].map((id) => insight(id));
    const html = renderPage(view({ insights, dismissedInsights: [insight("z")] }), context).html;
    const more = /<details class="more">([\s\S]*?)<\/details>/.exec(html)?.[1] ?? "";
    expect(more).toMatch(/Show all <span class="count">\(7\)<\/span>/);
    expect(more).toContain("Task f");
    expect(more).not.toContain("Task e");
    expect(html).toMatch(/<details class="dismissed"[^>]*>[\s\S]*Task z[\s\S]*restore-insight/);
    const readOnly = renderPage(
      view({ insights, dismissedInsights: [insight("z")], readOnly: true }),
      context,
    ).html;
    expect(readOnly).not.toContain("Task z");
    expect(JSON.stringify(pageToJson(view({ dismissedInsights: [insight("z")] })))).not.toContain("Task z");
  });

  it("shows each attendee's initials whole: an emoji or an accented letter is never cut in half", () => {
    const html = renderPage(
      view({
        attendees: [
          { id: "m1", name: "🦄 Unicorn Team", avatarUrl: null },
          { id: "m2", name: "Zoë 👩🏽‍💻", avatarUrl: null },
          { id: "m3", name: "e\u0301lodie", avatarUrl: null },
        ],
      }),
      context,
    ).html;
    const shown = [...html.matchAll(/class="avatar avatar-initials"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(shown).toEqual(["🦄T", "Z👩🏽‍💻", "E\u0301L"]);
    expect(html).not.toContain("\ufffd");
  });

  it("lets user text run right to left: dir=auto on lines, names and titles; lang from the conversation's language", () => {
    const hebrew = view({
      title: "ישיבת תכנון",
      attendees: [{ id: "m1", name: "דנה כהן", avatarUrl: null }],
      summary: [{ text: "הוחלט על התקציב", messageIds: ["1"] }],
      insights: [insight("i1", { text: "לשלוח את הדוח", speakerId: "m1", speakerName: "דנה כהן" })],
      messages: [
        {
          id: "1",
          text: "שלום לכולם, נתחיל",
          speakerId: "m1",
          speakerName: "דנה כהן",
          offset: 0,
          endOffset: null,
          startTime: null,
          hidden: false,
        },
      ],
    });
    const html = renderPage(hebrew, context).html;
    expect(html).toContain('<span data-field="title" dir="auto">ישיבת תכנון</span>');
    expect(html).toContain('<p class="line-text" dir="auto">שלום לכולם, נתחיל</p>');
    expect(html).toMatch(/<span class="speaker" data-member-name="m1" dir="auto">דנה כהן<\/span>/);
    expect(html).toMatch(/<span class="attendee-name" data-member-name="m1" dir="auto">דנה כהן<\/span>/);
    expect(html).toMatch(/<a\s+class="goto item-text"\s+dir="auto"[^>]*>הוחלט על התקציב<\/a\s*>/);
    expect(html).toMatch(/<strong data-member-name="m1" dir="auto">דנה כהן<\/strong>/);
    // Without a known language the page says English; with one, the page is in it; a tag that is none is ignored.
    expect(html).toContain('<html lang="en">');
    expect(renderPage({ ...hebrew, language: "he" }, context).html).toContain('<html lang="he">');
    expect(renderPage({ ...hebrew, language: "pt-br" }, context).html).toContain('<html lang="pt-BR">');
    expect(renderPage({ ...hebrew, language: '"><b' }, context).html).toContain('<html lang="en">');
  });

  it("plays a sound file given as a video as audio, and offers to follow playback only when lines have times", () => {
    const page = (mediaUrl: string, offset: number | null) =>
      renderPage(
        view({
          kind: "video-summary",
          mediaUrl,
          messages: [
            {
              id: "1",
              text: "Hello",
              speakerId: "m1",
              speakerName: "Ann Lee",
              offset,
              endOffset: null,
              startTime: null,
              hidden: false,
            },
          ],
        }),
        context,
      ).html;
    expect(page("https://m.test/call.mp4", 0)).toContain('<video id="player"');
    for (const sound of [
      "https://m.test/call.mp3",
      "https://m.test/a/Call.M4A?sig=1",
      "https://m.test/c.wav",
    ]) {
      const html = page(sound, 0);
      expect(html, sound).toContain('<audio id="player"');
      expect(html, sound).not.toContain("<video");
      expect(html, sound).toContain('class="now-speaking"');
    }
    const untimed = page("https://m.test/call.mp4", null);
    expect(untimed).toContain('<video id="player"');
    expect(untimed).not.toContain("follow-toggle");
    expect(untimed).not.toContain("now-speaking");
    expect(page("https://m.test/call.mp4", 0)).toContain("follow-toggle");
  });

  it("renders problem pages that name no conversation", () => {
    expect(renderLinkProblemPage("expired", "n")).toContain("This link has expired");
    expect(renderLinkProblemPage("revoked", "n")).toContain("This link was revoked");
    expect(renderLinkProblemPage("revoked", "n")).not.toContain("expired");
    expect(renderLinkProblemPage("not_found", "n")).toContain("Link not found");
  });
});

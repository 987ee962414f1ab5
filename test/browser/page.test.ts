// One suite for the page in Chromium: each test needs the same browser and served meetings, which are
// slow to start, so they share one file rather than several that would each launch Chromium.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { TestClock } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { createLink as createLinkOn, ingestMeeting, message, onServer } from "../helpers/factories.ts";
import {
  barsVideo,
  browserSuite,
  chromiumAvailable,
  makeWav,
  recordDialogs,
  seriousViolations,
  serveMedia,
  settled,
  playerState,
  SEEK,
} from "./browser.ts";
const available = chromiumAvailable();

describe.skipIf(!available)("the summary page in Chromium", () => {
  const clock = new TestClock();
  const suite = browserSuite({ clock });
  let media: { url: string; close(): Promise<void> };
  let video: { url: string; close(): Promise<void> };
  let token: string;
  let meetingId: string;

  beforeAll(async () => {
    media = await serveMedia(makeWav(90));
    video = await serveMedia(barsVideo(), "video/webm", "meeting.webm");
    ({ token } = await suite.server.newApp());
    meetingId = (await ingestMeeting(suite.server, token, "ES2006a.json")).conversationId;
  });
  afterAll(async () => {
    await media?.close();
    await video?.close();
  });

  async function createLink(conversationId: string, body: Record<string, unknown>): Promise<string> {
    return onServer(suite.server, (await createLinkOn(suite.server, token, conversationId, body)).url);
  }

  const members = async (conversationId: string) =>
    (
      await apiClient(suite.server.url, token).get<Body.MemberList>(
        `/v1/conversations/${conversationId}/members`,
      )
    ).body.members;

  /** A fresh page that reaches only the test's own servers (fonts and images elsewhere are refused). */
  async function open(url: string): Promise<{ page: Page; dialogs: string[]; status: number }> {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const dialogs = recordDialogs(page);
    await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    const response = await page.goto(url);
    return { page, dialogs, status: response?.status() ?? 0 };
  }

  const inViewport = (page: Page, selector: string) =>
    page.locator(selector).evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight;
    });

  async function smallConversation(
    name: string,
    speaker = "Ann Lee",
    text = "Let us review the budget.",
  ): Promise<string> {
    const { conversationId } = await suite.server.ingest(token, {
      name,
      messages: [
        message(text, speaker, [0, 4]),
        message("Can you send the report by Friday?", "Bob Stone", [20, 24]),
        message("Yes, I will send it tomorrow.", speaker, [40, 44]),
      ],
    });
    return conversationId;
  }

  it("renders a real QMSum meeting: header, summary, insights, topics and every transcript line", async () => {
    const { page, status } = await open(await createLink(meetingId, { name: "verbose-text-summary" }));
    expect(status).toBe(200);
    await expect.poll(() => page.locator("h1").innerText()).toBe("ES2006a");
    const { messages } = (
      await apiClient(suite.server.url, token).get<Body.MessageList>(
        `/v1/conversations/${meetingId}/messages`,
      )
    ).body;
    expect(await page.locator(".lines > li").count()).toBe(messages.length);
    expect(await page.locator(".attendee").count()).toBeGreaterThan(1);
    expect(await page.locator("#summary p").count()).toBeGreaterThan(0);
    expect(await page.locator("#summary").innerText()).not.toContain("No summary was found");
    expect(await page.locator("#insights h3").allInnerTexts()).toEqual([
      "ACTION ITEMS",
      "FOLLOW-UPS",
      "QUESTIONS",
    ]);
    await page.context().close();
  });

  it("lays out right-to-left lines, names and titles right to left, beside left-to-right ones", async () => {
    const { conversationId } = await suite.server.ingest(token, {
      name: "ישיבת תכנון",
      messages: [
        message("שלום לכולם, נתחיל בתקציב של הרבעון.", "דנה כהן", [0, 4]),
        message("Let us review the budget.", "Ann Lee", [5, 9]),
        message("مرحبا، سأرسل التقرير غدا.", "سارة", [10, 14]),
      ],
    });
    const { page } = await open(await createLink(conversationId, { name: "verbose-text-summary" }));
    const laidOut = (selector: string) =>
      page.locator(selector).evaluateAll((elements) =>
        elements.map((element) => {
          // Where the text's own box sits in its element: right-aligned text ends at the element's right edge.
          const range = document.createRange();
          range.selectNodeContents(element);
          const text = range.getBoundingClientRect();
          const box = element.getBoundingClientRect();
          return {
            direction: getComputedStyle(element).direction,
            right: Math.abs(box.right - text.right) < 2,
            left: Math.abs(text.left - box.left) < 2,
          };
        }),
      );
    expect(await laidOut(".line-text")).toEqual([
      { direction: "rtl", right: true, left: false },
      { direction: "ltr", right: false, left: true },
      { direction: "rtl", right: true, left: false },
    ]);
    expect((await laidOut(".line .speaker")).map((s) => s.direction)).toEqual(["rtl", "ltr", "rtl"]);
    expect((await laidOut(".attendee-name")).map((s) => s.direction)).toEqual(["rtl", "ltr", "rtl"]);
    expect((await laidOut("[data-field=title]")).map((s) => s.direction)).toEqual(["rtl"]);
    await page.context().close();
  });

  it("writes the meeting's start and a deadline's time of day in the viewer's time zone, naming it", async () => {
    const { conversationId } = await suite.server.ingest(token, {
      name: "Deadlines",
      messages: [
        message("Bob, can you send the report by 3 pm on Friday?", "Ann Lee", [0, 4]),
        message("Sure, and I will book the room tomorrow.", "Bob Stone", [5, 9]),
      ],
    });
    const url = await createLink(conversationId, { name: "verbose-text-summary" });
    const context = await suite.browser.newContext({ timezoneId: "America/New_York", locale: "en-US" });
    const page = await context.newPage();
    await page.goto(url);
    await expect.poll(() => page.locator("header time.start").innerText()).toBe("10:00 AM EST");
    expect(await page.locator("header time.date").innerText()).toBe("November 2, 2026");
    const dues = page.locator(".insight .item-meta time");
    // A time of day said is an instant; a day said is that day, wherever the viewer is.
    expect((await dues.allInnerTexts()).sort()).toEqual(["2026-11-03", "Nov 6, 2026, 10:00 AM EST"]);
    await context.close();
    // Without the script the same instants read in UTC, saying so.
    const plain = await suite.browser.newContext({
      timezoneId: "America/New_York",
      javaScriptEnabled: false,
    });
    const noScript = await plain.newPage();
    await noScript.goto(url);
    expect(await noScript.locator("header time.start").innerText()).toBe("15:00 UTC");
    expect((await noScript.locator(".insight .item-meta time").allInnerTexts()).sort()).toEqual([
      "2026-11-03",
      "6 Nov 2026, 15:00 UTC",
    ]);
    await plain.close();
  });

  it("highlights the matching lines when a filter chip is chosen", async () => {
    const { page } = await open(await createLink(meetingId, { name: "verbose-text-summary" }));
    const chip = page.locator(".chip").first();
    await chip.click();
    expect(await chip.getAttribute("aria-pressed")).toBe("true");
    const highlighted = await page.locator(".line.is-match-topic, .line.is-match-insight").count();
    expect(highlighted).toBeGreaterThan(0);
    expect(await page.locator(".filter-count").innerText()).toContain(`${highlighted} line`);
    await chip.click();
    expect(await chip.getAttribute("aria-pressed")).toBe("false");
    // A busy CI machine took past expect.poll's default second to clear a long page's highlights.
    await expect
      .poll(() => page.locator(".line.is-match-topic, .line.is-match-insight").count(), { timeout: 10_000 })
      .toBe(0);
    await page.context().close();
  });

  it("searches the transcript with a count and next/previous", async () => {
    const { page } = await open(await createLink(meetingId, { name: "verbose-text-summary" }));
    await page.fill("#search-input", "remote");
    await page.press("#search-input", "Enter");
    const count = page.locator("#search-count");
    await expect.poll(() => count.innerText()).toMatch(/^1 of \d+$/);
    const total = Number((await count.innerText()).split(" of ")[1]);
    expect(total).toBeGreaterThan(2);
    expect(await page.locator("mark").count()).toBe(total);
    await page.click("[data-action=search-next]");
    expect(await count.innerText()).toBe(`2 of ${total}`);
    await expect.poll(() => inViewport(page, "mark.is-current"), { timeout: 8000 }).toBe(true);
    await page.click("[data-action=search-prev]");
    await page.click("[data-action=search-prev]");
    expect(await count.innerText()).toBe(`${total} of ${total}`);
    await page.fill("#search-input", "zzqqxx");
    await expect.poll(() => count.innerText()).toBe("No matches");
    await page.context().close();
  });

  it("brings an insight's transcript line into view when the insight is clicked", async () => {
    const { page } = await open(await createLink(meetingId, { name: "verbose-text-summary" }));
    const link = page.locator("#insights a[data-goto], #topics a[data-goto]").last();
    const target = `#m-${await link.getAttribute("data-goto")}`;
    expect(await inViewport(page, target)).toBe(false);
    await link.click();
    await expect.poll(() => inViewport(page, target), { timeout: 8000 }).toBe(true);
    expect(await page.locator(target).getAttribute("class")).toContain("is-target");
    await page.context().close();
  });

  it("seeks the video when a line's time is clicked, and highlights the line being played", async () => {
    const conversationId = await smallConversation("Media review");
    const { page } = await open(
      await createLink(conversationId, { name: "video-summary", videoUrl: video.url }),
    );
    const player = page.locator("#player");
    await expect.poll(() => player.evaluate((v: HTMLMediaElement) => v.readyState)).toBeGreaterThan(0);
    await page.locator(".line").nth(1).locator("a.time").click();
    await expect.poll(() => playerState(player), SEEK).toEqual({ time: 20, hidden: false, error: null });
    expect(await page.locator(".line").nth(1).getAttribute("aria-current")).toBe("true");
    await player.evaluate((v: HTMLMediaElement) => (v.currentTime = 41));
    // The line follows the seek once it lands, which takes as long as any seek (SEEK).
    await expect.poll(() => page.locator(".line").nth(2).getAttribute("aria-current"), SEEK).toBe("true");
    expect(await page.locator(".media-placeholder").isVisible()).toBe(false);
    await page.context().close();
  });

  it("plays a sound file given as a video as audio, not a black box, and shows who is speaking", async () => {
    const conversationId = await smallConversation("Phone call");
    // A sound file by its name (the WAV at /meeting.wav), and one whose address does not say it is sound.
    const nameless = await serveMedia(makeWav(90), "audio/wav", "recording");
    for (const url of [media.url, nameless.url]) {
      const { page } = await open(await createLink(conversationId, { name: "video-summary", videoUrl: url }));
      const player = page.locator("#player");
      await expect.poll(() => player.evaluate((v: HTMLMediaElement) => v.readyState)).toBeGreaterThan(0);
      expect(await player.evaluate((p) => p.tagName), url).toBe(url === media.url ? "AUDIO" : "VIDEO");
      // Only the controls: no 16:9 box of black.
      expect(await player.evaluate((p) => p.getBoundingClientRect().height), url).toBeLessThan(80);
      const speaking = page.locator(".now-speaking");
      await player.evaluate((v: HTMLMediaElement) => (v.currentTime = 21));
      await expect.poll(() => speaking.isVisible(), SEEK).toBe(true);
      await expect.poll(() => speaking.innerText(), SEEK).toBe("BS\nNow speaking: Bob Stone");
      // In the speaker's colour, as beside their lines.
      const colours = await page.evaluate(() => [
        getComputedStyle(document.querySelector(".now-speaking .avatar")!).backgroundColor,
        getComputedStyle(document.querySelectorAll(".attendee .avatar")[1]!).backgroundColor,
      ]);
      expect(colours[0]).toBe(colours[1]);
      await page.context().close();
    }
    await nameless.close();
  });

  it("offers no Follow playback when the lines have no times to follow", async () => {
    const { conversationId } = await suite.server.ingest(token, {
      name: "Untimed notes",
      messages: [message("We agreed on the plan.", "Ann Lee"), message("Good.", "Bob Stone")],
    });
    const { page } = await open(
      await createLink(conversationId, { name: "video-summary", videoUrl: video.url }),
    );
    const player = page.locator("#player");
    await expect.poll(() => player.evaluate((v: HTMLMediaElement) => v.readyState)).toBeGreaterThan(0);
    expect(await page.getByRole("button", { name: /Follow/ }).count()).toBe(0);
    expect(await page.locator(".now-speaking").isVisible()).toBe(false);
    await page.context().close();
  });

  it("shows a placeholder, not a broken player, when the media URL fails", async () => {
    const conversationId = await smallConversation("Broken media");
    const { page } = await open(
      await createLink(conversationId, {
        name: "audio-summary",
        audioUrl: `${media.url.replace(/\/[^/]*$/, "")}/missing.wav`,
      }),
    );
    await expect.poll(() => page.locator(".media-placeholder").isVisible()).toBe(true);
    expect(await page.locator("#player").isVisible()).toBe(false);
    expect(await page.locator(".lines > li").count()).toBe(3);
    await page.context().close();
  });

  it("applies the branding: background, readable text, chip colours and the font family", async () => {
    const { page } = await open(
      await createLink(meetingId, {
        name: "verbose-text-summary",
        color: { background: "#10243e", topicsFilter: "#2f9e8f", insightsFilter: "#f2a541" },
        font: { family: "Source Sans 3" },
      }),
    );
    const style = (selector: string, property: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((e, p) => getComputedStyle(e).getPropertyValue(p), property);
    expect(await style("body", "background-color")).toBe("rgb(16, 36, 62)");
    expect(await style("body", "color")).toBe("rgb(255, 255, 255)");
    expect(await style("body", "font-family")).toMatch(/^"Source Sans 3"/);
    expect(await style(".chip-topic", "background-color")).toBe("rgb(47, 158, 143)");
    expect(await style(".chip-insight", "background-color")).toBe("rgb(242, 165, 65)");
    expect(await style(".chip-insight", "color")).toBe("rgb(22, 24, 29)");
    // This suite's server fetches no fonts (page-take-away.test.ts loads one from the page's origin).
    expect(await page.locator('link[href*="//"]').count()).toBe(0);
    await page.context().close();
  });

  it("shows no editing controls on a read-only page", async () => {
    const { page } = await open(
      await createLink(meetingId, { name: "verbose-text-summary", readOnly: true }),
    );
    await page.locator("#search-input").waitFor();
    const editing = page.locator(
      "[data-action=rename-conversation], [data-action=rename-member], [data-action=edit-message], " +
        "[data-action=toggle-hidden], [data-action=edit-insight], [data-action=dismiss-insight]",
    );
    expect(await editing.count()).toBe(0);
    expect(await page.locator("#edit-toggle").count()).toBe(0);
    expect(await page.locator("[data-action=copy-link]").isVisible()).toBe(true);
    await page.context().close();
  });

  it("renames a speaker from the page, and the members API shows the new name", async () => {
    const conversationId = await smallConversation("Rename test");
    const { page } = await open(await createLink(conversationId, { name: "verbose-text-summary" }));
    await page.click("#edit-toggle");
    await page.click('[data-action=rename-member][aria-label="Rename speaker Bob Stone"]');
    await page.fill('input[aria-label="Speaker name"]', "🦄 Unicorn Team");
    await page.press('input[aria-label="Speaker name"]', "Enter");
    await expect
      .poll(() => page.locator(".line").nth(1).locator(".speaker").innerText())
      .toBe("🦄 Unicorn Team");
    // The avatar's initials follow the name, the emoji whole, as the server renders them.
    const initials = () => page.locator(".avatar-initials").allInnerTexts();
    expect(await initials()).toEqual(["AL", "🦄T"]);
    expect((await members(conversationId)).map((m) => m.name)).toEqual(["Ann Lee", "🦄 Unicorn Team"]);
    await page.reload();
    expect(await page.locator(".attendee-name").allInnerTexts()).toEqual(["Ann Lee", "🦄 Unicorn Team"]);
    expect(await initials()).toEqual(["AL", "🦄T"]);
    await page.context().close();
  });

  it("runs nothing from script payloads in the title, speaker names, message text and every URL field", async () => {
    const payload = `<script>alert("x")</script><img src=x onerror=alert(1)><svg onload=alert(2)>"'\`\${alert(3)}`;
    const conversationId = await smallConversation(payload, payload, payload);
    const speakers = await members(conversationId);
    const evil = `http://127.0.0.1:1/"><script>alert(4)</script>?x=' onerror='alert(5)`;
    const url = await createLink(conversationId, {
      name: "video-summary",
      videoUrl: evil,
      logo: evil,
      favicon: evil,
      speakerAvatarURLs: Object.fromEntries(speakers.map((m) => [m.id, evil])),
    });
    const { page, dialogs } = await open(url);
    await page.locator("#search-input").waitFor();
    await page.fill("#search-input", "script");
    await page.press("#search-input", "Enter");
    await page.click("#edit-toggle");
    await page.locator(".line").first().focus();
    await page.click("[data-action=edit-message] >> nth=0");
    await page.keyboard.press("Escape");
    await page.click("[data-action=rename-conversation]");
    await page.keyboard.press("Escape");
    await settled(page);
    expect(dialogs).toEqual([]);
    expect(await page.locator("h1").innerText()).toContain('<script>alert("x")</script>');
    expect(await page.locator("script:not([src])").count()).toBe(0);
    expect(await page.locator("[onerror], [onload]").count()).toBe(0);
    await page.context().close();
  });

  it("shows the 410 page for an expired link, its card clear of a phone's edges", async () => {
    const url = await createLink(meetingId, { name: "verbose-text-summary", summaryURLExpiresIn: 60 });
    clock.advance(61);
    const { page, status } = await open(url);
    expect(status).toBe(410);
    expect(await page.locator("h1").innerText()).toBe("This link has expired");
    expect(await page.content()).not.toContain("ES2006a");
    await page.setViewportSize({ width: 390, height: 844 });
    const card = await page.locator("main").boundingBox();
    expect(card?.x).toBeGreaterThanOrEqual(12);
    expect((card?.x ?? 0) + (card?.width ?? 0)).toBeLessThanOrEqual(390 - 12);
    await page.context().close();
  });

  for (const kind of ["verbose-text-summary", "video-summary"] as const) {
    it(`has no serious or critical accessibility violations on the ${kind} page`, async () => {
      const { page } = await open(
        await createLink(meetingId, {
          name: kind,
          ...(kind === "video-summary" && { videoUrl: video.url }),
          color: { background: "#10243e", topicsFilter: "#2f9e8f", insightsFilter: "#f2a541" },
        }),
      );
      await page.locator("#search-input").waitFor();
      await page.locator(".chip").first().click();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
      // axe takes over 30 s on a loaded machine (as on main before the page's layout changed).
    }, 120_000);
  }

  it("reaches every control by keyboard", async () => {
    const conversationId = await smallConversation("Keyboard test");
    const { page } = await open(
      await createLink(conversationId, { name: "video-summary", videoUrl: video.url }),
    );
    await page.locator("#search-input").waitFor();
    await page.click("#edit-toggle");
    // Every control in the tab order: the transcript is one stop (its lines' times are reached by arrow
    // keys and Enter, page-reading.test.ts), and edit controls show on the line in focus.
    const total = await page.evaluate(() => {
      const controls = [
        ...document.querySelectorAll<HTMLElement>(
          "a[href], button, input, textarea, select, summary, [tabindex='0']",
        ),
      ].filter(
        (element) =>
          element.offsetParent !== null &&
          !element.closest("[hidden], details:not([open]) > :not(summary)") &&
          element.tabIndex >= 0,
      );
      controls.forEach((element, index) => (element.dataset.kbd = String(index)));
      return controls.length;
    });
    expect(total).toBeGreaterThan(10);
    const reached = new Set<string>();
    for (let i = 0; i < total + 40 && reached.size < total; i++) {
      await page.keyboard.press("Tab");
      const marker = await page.evaluate(
        () => (document.activeElement as HTMLElement | null)?.dataset.kbd ?? null,
      );
      if (marker !== null) reached.add(marker);
    }
    const missed = await page.evaluate(
      (seen) =>
        [...document.querySelectorAll<HTMLElement>("[data-kbd]")]
          .filter((e) => !seen.includes(e.dataset.kbd ?? ""))
          .map((e) => e.outerHTML.slice(0, 200)),
      [...reached],
    );
    expect(missed).toEqual([]);

    // And a control works from the keyboard: the title's Rename opens an editor that Escape closes.
    await page.focus("[data-action=rename-conversation]");
    await page.keyboard.press("Enter");
    expect(
      await page
        .locator('input[aria-label="Conversation name"]')
        .evaluate((e) => e === document.activeElement),
    ).toBe(true);
    await page.keyboard.press("Escape");
    expect(
      await page.locator("[data-action=rename-conversation]").evaluate((e) => e === document.activeElement),
    ).toBe(true);
    await page.context().close();
  });
});

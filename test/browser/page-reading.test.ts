// Reading a long meeting (QMSum Bed015, 1,257 lines) in Chromium: cleaned and verbatim text, the sticky
// toolbar, the chapter outline, filters with next/previous and "only matching lines", back to top, edit
// mode and the transcript as one tab stop. One file: the meeting is slow to ingest, so its tests share it.
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { readingText } from "../../src/pages/reading-text.ts";
import { apiClient } from "../helpers/api.ts";
import type * as Body from "../helpers/bodies.ts";
import { createLink as createLinkOn, ingestMeeting, onServer } from "../helpers/factories.ts";
import { browserSuite, chromiumAvailable, seriousViolations } from "./browser.ts";

const available = chromiumAvailable();

describe.skipIf(!available)("reading a long meeting in Chromium", () => {
  const suite = browserSuite();
  let token: string;
  let meetingId: string;
  let messages: Body.MessageList["messages"];
  let readOnly: string;
  let editable: string;

  beforeAll(async () => {
    const { server } = suite;
    ({ token } = await server.newApp());
    meetingId = (await ingestMeeting(server, token, "Bed015.json")).conversationId;
    messages = (
      await apiClient(server.url, token).get<Body.MessageList>(`/v1/conversations/${meetingId}/messages`)
    ).body.messages;
    const link = async (body: Record<string, unknown>) =>
      onServer(server, (await createLinkOn(server, token, meetingId, body)).url);
    readOnly = await link({ name: "verbose-text-summary", readOnly: true });
    editable = await link({ name: "verbose-text-summary" });
  }, 120_000);

  /** A fresh page at 1366×900 (or as given) that reaches only the test's own server. */
  async function open(
    url: string,
    options: { javaScriptEnabled?: boolean; width?: number; height?: number } = {},
  ): Promise<Page> {
    const context = await suite.browser.newContext({
      viewport: { width: options.width ?? 1366, height: options.height ?? 900 },
      javaScriptEnabled: options.javaScriptEnabled ?? true,
      reducedMotion: "reduce",
    });
    const page = await context.newPage();
    await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    await page.goto(url);
    if (options.javaScriptEnabled !== false) await page.locator("#search-input").waitFor();
    return page;
  }

  const inViewport = (page: Page, selector: string) =>
    page.locator(selector).evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.height > 0 && box.bottom > 0 && box.top < window.innerHeight;
    });
  const shownLines = (page: Page) =>
    page.evaluate(
      () => [...document.querySelectorAll<HTMLElement>(".line")].filter((l) => l.offsetParent).length,
    );
  /** Elements in the transcript that Tab stops at. */
  const transcriptTabStops = (page: Page) =>
    page.evaluate(
      () =>
        [...document.querySelectorAll<HTMLElement>(".lines, .lines *")].filter(
          (e) => e.tabIndex >= 0 && e.offsetParent !== null,
        ).length,
    );
  /** A stored line with annotation marks and split contractions: the cleaning has something to do. */
  const markedLine = () => {
    const line = messages.find((m) => m.text.includes("{disfmarker}") && / '(?:s|m) /.test(m.text));
    if (!line) throw new Error("Bed015 has no line with marks");
    return line;
  };

  it("shows the text cleaned for reading, and the stored text under Verbatim", async () => {
    const page = await open(readOnly);
    const line = markedLine();
    const shown = await page.locator(`#m-${line.id} .line-text`).innerText();
    expect(shown).toBe(readingText(line.text));
    expect(shown).not.toMatch(/\{[a-z_ ]+\}| '(?:s|m|re|ll)\b| [,.?!]/);
    const transcript = await page.locator(".lines").innerText();
    expect(transcript).not.toMatch(/\{(?:disfmarker|vocalsound|pause|gap)\}/);
    // A speaker's consecutive lines read under one heading.
    const headings = await page.locator(".line:not(.is-continued) .speaker").count();
    expect(headings).toBeLessThan(messages.length);
    // Its name is there for a screen reader, not on the screen.
    const continued = page.locator(".line.is-continued .speaker").first();
    expect(await continued.evaluate((e) => e.getBoundingClientRect().width)).toBeLessThanOrEqual(1);

    await page.click("[data-text-mode=verbatim]");
    await page.waitForURL(/text=verbatim/);
    expect(await page.locator(`#m-${line.id} .line-text`).innerText()).toBe(line.text);
    expect(await page.locator("[data-text-mode=verbatim]").getAttribute("aria-current")).toBe("page");
    // Any other text mode is refused, naming the field.
    const refused = await fetch(`${readOnly}?text=raw`);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toContain("text");
    // Search finds the stored text there.
    await page.fill("#search-input", "{disfmarker}");
    await page.press("#search-input", "Enter");
    await expect.poll(() => page.locator("#search-count").innerText()).toMatch(/^1 of \d+$/);
    await page.context().close();
  });

  it("reads without JavaScript: cleaned text, every line, the outline and the Verbatim switch", async () => {
    const page = await open(readOnly, { javaScriptEnabled: false });
    const line = markedLine();
    expect(await page.locator(".lines > li").count()).toBe(messages.length);
    expect(await page.locator(`#m-${line.id} .line-text`).innerText()).toBe(readingText(line.text));
    expect(await page.locator("#search-input").isVisible()).toBe(false);
    await page.click(".outline summary");
    const chapter = page.locator(".outline a[data-goto]").last();
    const target = `#m-${await chapter.getAttribute("data-goto")}`;
    await chapter.click();
    expect(new URL(page.url()).hash).toBe(target);
    expect(await inViewport(page, target)).toBe(true);
    expect(await inViewport(page, "#toolbar")).toBe(true);
    await page.click("[data-text-mode=verbatim]");
    expect(await page.locator(`#m-${line.id} .line-text`).innerText()).toBe(line.text);
    await page.context().close();
  });

  it("keeps the toolbar in view far down the transcript, and Back to top returns", async () => {
    const page = await open(readOnly);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight * 0.7));
    const box = await page.locator("#toolbar").evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(50_000);
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.top).toBeLessThan(2);
    expect(await page.locator("#search-input").isVisible()).toBe(true);
    expect(await inViewport(page, "#search-input")).toBe(true);
    await page.click(".to-top");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    expect(await inViewport(page, "h1")).toBe(true);
    await page.context().close();
  });

  it("jumps to a chapter from the outline and marks the one being read", async () => {
    const page = await open(readOnly);
    const links = page.locator(".outline a[data-goto]");
    const chapters = await links.count();
    expect(chapters).toBeGreaterThan(1);
    expect(await page.locator(".outline").textContent()).toMatch(/\d+:\d\d · (?:\d+%|<1%)/);
    await page.click(".outline summary");
    const last = links.nth(chapters - 1);
    const target = `#m-${await last.getAttribute("data-goto")}`;
    await last.click();
    await expect.poll(() => inViewport(page, target)).toBe(true);
    await expect.poll(() => last.getAttribute("aria-current")).toBe("location");
    expect(await page.locator(".outline [aria-current]").count()).toBe(1);
    expect(await page.locator(".outline-current").innerText()).toContain(`${chapters} of ${chapters}`);
    // Scrolling back to the first chapter's start moves the mark (no jump involved).
    const first = `#m-${await links.first().getAttribute("data-goto")}`;
    await page.locator(first).evaluate((line) => line.scrollIntoView({ block: "start" }));
    await expect.poll(() => links.first().getAttribute("aria-current")).toBe("location");
    expect(await last.getAttribute("aria-current")).toBeNull();
    await page.context().close();
  });

  it("counts each filter's lines, steps through them, and can show only them", async () => {
    const page = await open(readOnly);
    // The first insight filter with more than one line to step through.
    const counts = await page
      .locator(".chip-insight")
      .evaluateAll((chips) => chips.map((c) => Number(c.getAttribute("data-count") ?? "0")));
    const index = counts.findIndex((n) => n > 1);
    expect(index).toBeGreaterThanOrEqual(0);
    const chip = page.locator(".chip-insight").nth(index);
    const count = counts[index] ?? 0;
    expect(await chip.innerText()).toContain(`(${count})`);
    await chip.click();
    const status = page.locator(".filter-count");
    expect(await status.innerText()).toBe(`${count} lines highlighted · 1 of ${count}`);
    await page.click("[data-action=filter-next]");
    expect(await status.innerText()).toBe(`${count} lines highlighted · 2 of ${count}`);
    await expect.poll(() => inViewport(page, ".line.is-target")).toBe(true);
    expect(await page.locator(".line.is-target").getAttribute("class")).toContain("is-match-insight");
    await page.click("[data-action=filter-prev]");
    await page.click("[data-action=filter-prev]");
    expect(await status.innerText()).toBe(`${count} lines highlighted · ${count} of ${count}`);

    const all = await shownLines(page);
    await page.check("#only-matching");
    expect(await shownLines(page)).toBe(count);
    // Search narrows further.
    await page.fill("#search-input", "the");
    await page.press("#search-input", "Enter");
    await expect.poll(() => shownLines(page)).toBeLessThanOrEqual(count);
    await page.fill("#search-input", "");
    await expect.poll(() => shownLines(page)).toBe(count);
    await page.uncheck("#only-matching");
    expect(await shownLines(page)).toBe(all);
    await chip.click();
    expect(await status.innerText()).toBe("");
    await page.context().close();
  });

  it("is one tab stop, moved through with the arrow keys, Home and End", async () => {
    const page = await open(readOnly);
    const stops = await transcriptTabStops(page);
    expect(stops).toBe(1);
    await page.locator(".chip").last().focus();
    await page.keyboard.press("Tab");
    const focused = () =>
      page.evaluate(() => {
        const lines = [...document.querySelectorAll<HTMLElement>(".line")].filter((l) => l.offsetParent);
        return lines.indexOf(document.activeElement as HTMLElement);
      });
    expect(await focused()).toBe(0);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await focused()).toBe(2);
    expect(await inViewport(page, ".line:focus")).toBe(true);
    await page.keyboard.press("ArrowUp");
    expect(await focused()).toBe(1);
    await page.keyboard.press("End");
    expect(await focused()).toBe((await shownLines(page)) - 1);
    await page.keyboard.press("Home");
    expect(await focused()).toBe(0);
    await page.keyboard.press("ArrowDown");
    // Tab leaves the transcript; Shift+Tab comes back to the line last read.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest(".lines") === null)).toBe(true);
    await page.keyboard.press("Shift+Tab");
    expect(await focused()).toBe(1);
    await page.context().close();
  });

  it("reaches an insight's controls with Shift+Tab as with Tab when editing, and shows them", async () => {
    const page = await open(editable);
    await page.locator("#edit-toggle").click();
    await page.locator(".insight").nth(1).locator("a").first().focus();
    await page.keyboard.press("Shift+Tab");
    const reached = await page.evaluate(() => {
      const active = document.activeElement;
      return {
        action: active?.getAttribute("data-action"),
        inFirstInsight: active?.closest(".insight") === document.querySelector(".insight"),
        width: active?.getBoundingClientRect().width ?? 0,
      };
    });
    expect(reached).toMatchObject({ action: "dismiss-insight", inFirstInsight: true });
    expect(reached.width).toBeGreaterThan(20);
    await page.context().close();
  });

  it("reads like a read-only page until editing is turned on, then edits the line in focus", async () => {
    const page = await open(editable);
    const toggle = page.locator("#edit-toggle");
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    expect(await page.locator("[data-action=edit-message]").count()).toBe(0);
    const editing = page.locator(
      "[data-action=rename-conversation], [data-action=rename-member], [data-action=edit-insight]",
    );
    expect(await editing.locator("visible=true").count()).toBe(0);

    await toggle.click();
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await page.locator("[data-action=rename-conversation]").isVisible()).toBe(true);
    const line = markedLine();
    await page.locator(`#m-${line.id}`).focus();
    expect(await page.locator("[data-action=edit-message]").count()).toBe(1);
    expect(await page.locator(`#m-${line.id} [data-action=edit-message]`).isVisible()).toBe(true);
    // The line, its Edit and its Hide: still a handful of stops, not thousands.
    const stops = await transcriptTabStops(page);
    expect(stops).toBe(3);

    // The editor holds the stored text, and a saved edit is stored as typed and shown cleaned.
    await page.click(`#m-${line.id} [data-action=edit-message]`);
    const field = page.locator('textarea[aria-label="Line text"]');
    expect(await field.inputValue()).toBe(line.text);
    await field.fill("We 're done {pause} here .");
    await field.press("Tab");
    await page.locator(".editor button[type=submit]").click();
    await expect.poll(() => page.locator(`#m-${line.id} .line-text`).innerText()).toBe("We're done here.");
    const stored = await apiClient(suite.server.url, token).get<Body.MessageList>(
      `/v1/conversations/${meetingId}/messages`,
    );
    expect(stored.body.messages.find((m) => m.id === line.id)?.text).toBe("We 're done {pause} here .");

    await toggle.click();
    expect(await page.locator("[data-action=edit-message]").count()).toBe(0);
    expect(await page.locator("[data-action=rename-conversation]").isVisible()).toBe(false);
    await page.context().close();
  });

  it("fits a phone: no sideways scrolling, the toolbar sticks", async () => {
    const page = await open(readOnly, { width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
    expect(await inViewport(page, "#search-input")).toBe(true);
    const height = await page.locator("#toolbar").evaluate((e) => e.getBoundingClientRect().height);
    expect(height).toBeLessThan(844 / 3);
    await page.context().close();
  });

  for (const [name, url, prepare] of [
    ["read-only", () => readOnly, (_page: Page) => Promise.resolve()],
    [
      "editable, editing on, a filter chosen and the outline open",
      () => editable,
      async (page: Page) => {
        await page.click("#edit-toggle");
        await page.locator(".line").first().focus();
        await page.locator(".chip").first().click();
        await page.click(".outline summary");
      },
    ],
  ] as const) {
    // axe reads all of Bed015's 1,257 lines: slower than the default 30 s on a shared machine.
    it(`has no serious or critical accessibility violations (${name})`, { timeout: 180_000 }, async () => {
      const page = await open(url());
      await prepare(page);
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });
  }
});

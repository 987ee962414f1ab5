// The analytics page (audio-summary links) in Chromium: the timeline, its table, seeking, trackers, the page
// without JavaScript, and axe.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLink, message, onServer } from "../helpers/factories.ts";
import {
  browserSuite,
  chromiumAvailable,
  seriousViolations,
  makeWav,
  serveMedia,
  playerState,
  SEEK,
} from "./browser.ts";

const available = chromiumAvailable();

describe.skipIf(!available)("the analytics page in Chromium", () => {
  const suite = browserSuite();
  let media: { url: string; close(): Promise<void> };
  let url: string;

  beforeAll(async () => {
    const { server } = suite;
    media = await serveMedia(makeWav(90));
    const { token } = await server.newApp();
    const created = await server.api(token, "/v1/manage/trackers", {
      method: "POST",
      body: [
        { name: "Budget", vocabulary: ["budget"] },
        { name: "Deadlines", vocabulary: ["by Friday"] },
        { name: "Hiring", vocabulary: ["new hire"] },
      ],
    });
    expect(created.status).toBe(201);
    // Ann speaks twice in a row (one stretch), then Bob, then Ann again, then Cy.
    const { conversationId } = await server.ingest(token, {
      name: "Budget review",
      messages: [
        message("Let us review the budget for next quarter.", "Ann Lee", [0, 6]),
        message("The budget grew by ten percent.", "Ann Lee", [6, 12]),
        message("Can you send the report by Friday?", "Bob Stone", [20, 26]),
        message("Yes, I will send it tomorrow morning.", "Ann Lee", [30, 36]),
        message("I can check the numbers before Friday.", "Cy Park", [50, 58]),
      ],
    });
    const link = await createLink(server, token, conversationId, {
      name: "audio-summary",
      audioUrl: media.url,
    });
    url = onServer(server, link.url);
  });
  afterAll(async () => {
    await media?.close();
  });

  async function open(javaScriptEnabled = true): Promise<Page> {
    const context = await suite.browser.newContext({
      viewport: { width: 1280, height: 900 },
      javaScriptEnabled,
    });
    const page = await context.newPage();
    await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    expect((await page.goto(url))?.status()).toBe(200);
    return page;
  }

  it("draws one lane per speaker, a stretch per run of their lines, and the same as a table", async () => {
    const page = await open();
    const labels = await page.locator(".timeline .tl-label").allInnerTexts();
    expect(labels.filter((label) => label !== "Chapters")).toEqual([
      "Ann Lee",
      "Bob Stone",
      "Cy Park",
      "Trackers",
      "",
    ]);
    const ann = page.getByRole("list", { name: "Ann Lee" });
    expect(await ann.getByRole("link").count()).toBe(2);
    expect(await ann.getByRole("link").first().innerText()).toBe("0:00 to 0:12");
    await page.getByText("The timeline as a table").click();
    const rows = page.locator(".tl-table tbody tr");
    expect(await rows.count()).toBe(4);
    expect(await rows.nth(2).innerText()).toMatch(/^Ann Lee\s+0:30\s+0:36$/);
    // Placed by the nonce'd rules: Bob's stretch starts 20 s into the 58 s meeting.
    const [track, segment] = await Promise.all(
      [".tl-track", ".tl-item"].map((selector) =>
        page.getByRole("list", { name: "Bob Stone" }).evaluate((list, s) => {
          const box = (s === ".tl-track" ? list : list.querySelector(s))!.getBoundingClientRect();
          return { left: box.left, width: box.width };
        }, selector),
      ),
    );
    expect(Math.round(((segment!.left - track!.left) / track!.width) * 58)).toBe(20);
    await page.context().close();
  });

  it("seeks the audio when a stretch of talk is chosen", async () => {
    const page = await open();
    const player = page.locator("#player");
    await expect.poll(() => player.evaluate((a: HTMLMediaElement) => a.readyState)).toBeGreaterThan(0);
    await page.getByRole("list", { name: "Cy Park" }).getByRole("link").click();
    await expect.poll(() => playerState(player), SEEK).toEqual({ time: 50, hidden: false, error: null });
    await page.getByRole("list", { name: "Bob Stone" }).getByRole("link").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => playerState(player), SEEK).toEqual({ time: 20, hidden: false, error: null });
    await page.context().close();
  });

  it("is one tab stop, moved along a lane and between lanes by the arrow keys", async () => {
    const page = await open();
    const focused = () =>
      page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        return {
          lane: active?.closest("ol")?.getAttribute("aria-labelledby") ?? null,
          seek: active?.dataset.seek ?? null,
          inTimeline: active?.closest(".timeline") !== null,
        };
      });
    const ann = page.getByRole("list", { name: "Ann Lee" }).getByRole("link");
    await ann.first().focus();
    const annLane = (await focused()).lane;
    await page.keyboard.press("ArrowRight");
    expect(await focused()).toMatchObject({ lane: annLane, seek: "30" });
    await page.keyboard.press("Home");
    expect(await focused()).toMatchObject({ lane: annLane, seek: "0" });
    await page.keyboard.press("ArrowDown");
    expect((await focused()).lane).not.toBe(annLane);
    expect((await focused()).inTimeline).toBe(true);
    // Tab leaves the timeline at once, whatever its number of stretches; Shift+Tab comes back where it was.
    const where = await focused();
    await page.keyboard.press("Tab");
    expect((await focused()).inTimeline).toBe(false);
    await page.keyboard.press("Shift+Tab");
    expect(await focused()).toEqual(where);
    await page.context().close();
  });

  it("lists the trackers mentioned, with their lines, and talk time per speaker", async () => {
    const page = await open();
    const trackers = page.locator(".analytics-trackers");
    expect(await trackers.locator("h3").allInnerTexts()).toEqual(["BUDGET (2 lines)", "DEADLINES (1 line)"]);
    expect(await trackers.getByRole("link").first().innerText()).toBe(
      "0:00 · Ann Lee: Let us review the budget for next quarter.",
    );
    expect(await page.getByRole("list", { name: "Trackers" }).getByRole("link").count()).toBe(3);
    const speakers = page.locator(".analytics-speakers tbody tr");
    // Ann talks 18 s of the 32 s in which anyone talks (56%), 21 words: 70 words per minute.
    expect(await speakers.nth(0).innerText()).toMatch(/^Ann Lee\s+18 s\s+56%\s+70\s+21$/);
    await page.context().close();
  });

  it("reads without JavaScript: the lanes, the table and the links to the lines", async () => {
    const page = await open(false);
    expect(await page.locator(".tl-segment").count()).toBe(4);
    expect(await page.locator(".tl-segment").first().isVisible()).toBe(true);
    expect(await page.locator(".tl-segment").first().getAttribute("href")).toMatch(/^#m-/);
    await page.locator(".tl-table summary").click();
    expect(await page.locator(".tl-table tbody tr").first().isVisible()).toBe(true);
    expect(await page.locator(".lines > li").count()).toBe(5);
    await page.context().close();
  });

  it("has no serious or critical accessibility violations", async () => {
    const page = await open();
    await page.locator(".tl-table summary").click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});

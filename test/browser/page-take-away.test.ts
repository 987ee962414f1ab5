// The page in Chromium as something to take away: links to a line, downloads, printing, and its web font
// served from its own origin.
import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLink as createLinkOn, message, onServer } from "../helpers/factories.ts";
import { startFontCatalogue, type FontCatalogue } from "../helpers/font-catalogue.ts";
import { barsVideo, browserSuite, chromiumAvailable, makeWav, serveMedia } from "./browser.ts";

const available = chromiumAvailable();

describe.skipIf(!available)("taking the page away, in Chromium", () => {
  let catalogue: FontCatalogue;
  beforeAll(async () => {
    catalogue = await startFontCatalogue();
  });
  afterAll(async () => {
    await catalogue?.close();
  });
  const suite = browserSuite(() => ({ env: catalogue.env }));
  let media: { url: string; close(): Promise<void> };
  let video: { url: string; close(): Promise<void> };
  let token: string;
  let longMeeting: string;

  beforeAll(async () => {
    const { server } = suite;
    media = await serveMedia(makeWav(90));
    video = await serveMedia(barsVideo(), "video/webm", "meeting.webm");
    ({ token } = await server.newApp());
    // 80 lines a second apart: far longer than the window, so opening at a line must scroll.
    const lines = Array.from({ length: 80 }, (_, i) =>
      message(`Line ${i}: we talk about item ${i} of the plan.`, i % 2 ? "Ann Lee" : "Bob Stone", [i, i + 1]),
    );
    ({ conversationId: longMeeting } = await server.ingest(token, { name: "Long review", messages: lines }));
  });
  afterAll(async () => {
    await media?.close();
    await video?.close();
  });

  const createLink = async (body: Record<string, unknown>) =>
    onServer(suite.server, (await createLinkOn(suite.server, token, longMeeting, body)).url);

  /** A fresh page that reaches only the test's own servers, with every URL it asked for. */
  async function open(url: string): Promise<{ page: Page; requested: string[] }> {
    const context = await suite.browser.newContext({
      viewport: { width: 1280, height: 800 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    await page.goto(url);
    return { page, requested };
  }

  const lineAt = (page: Page, index: number) => page.locator(".lines > li").nth(index);
  const inViewport = (page: Page, index: number) =>
    lineAt(page, index).evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    });
  const playerTime = (page: Page) =>
    page.locator("#player").evaluate((player: HTMLMediaElement) => player.currentTime);

  it("opens at #t=<seconds> on the line said then, and seeks the media there", async () => {
    const { page } = await open(`${await createLink({ name: "video-summary", videoUrl: video.url })}#t=61.5`);
    await expect.poll(() => playerTime(page)).toBe(61.5);
    expect(await lineAt(page, 61).getAttribute("class")).toContain("is-target");
    expect(await lineAt(page, 61).getAttribute("aria-current")).toBe("true");
    await expect.poll(() => inViewport(page, 61)).toBe(true);
    expect(await inViewport(page, 0)).toBe(false);
    await page.context().close();
  });

  it("opens at a line's own anchor, seeks there, and a line's time gives that anchor", async () => {
    const url = await createLink({ name: "audio-summary", audioUrl: media.url });
    const first = await open(url);
    const anchor = await lineAt(first.page, 70).locator("a.time").getAttribute("href");
    expect(anchor).toMatch(/^#m-/);
    await lineAt(first.page, 12).locator("a.time").click();
    await expect
      .poll(() => first.page.evaluate(() => location.hash))
      .toBe(await lineAt(first.page, 12).evaluate((line) => `#${line.id}`));
    await first.page.context().close();

    const { page } = await open(`${url}${anchor ?? ""}`);
    await expect.poll(() => playerTime(page)).toBe(70);
    await expect.poll(() => inViewport(page, 70)).toBe(true);
    expect(await lineAt(page, 70).getAttribute("class")).toContain("is-target");
    await page.context().close();
  });

  it("scrolls to the line at #t= on a page without media", async () => {
    const { page } = await open(`${await createLink({ name: "verbose-text-summary" })}#t=45`);
    await expect.poll(() => inViewport(page, 45)).toBe(true);
    expect(await lineAt(page, 45).getAttribute("class")).toContain("is-target");
    await page.context().close();
  });

  it("downloads captions from the page's link, named after the conversation", async () => {
    const { page } = await open(await createLink({ name: "verbose-text-summary", readOnly: true }));
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Captions (WebVTT)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("long-review.vtt");
    await page.context().close();
  });

  it("keeps the page free of serious accessibility violations with its downloads on a dark brand", async () => {
    const { page } = await open(
      await createLink({ name: "verbose-text-summary", readOnly: true, color: { background: "#10243e" } }),
    );
    await page.locator("#search-input").waitFor();
    const results = await new AxeBuilder({ page }).include(".page-footer").analyze();
    const serious = results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.length} (${v.nodes[0]?.target.join(" ")})`);
    expect(serious).toEqual([]);
    expect(await page.locator(".downloads a").allInnerTexts()).toEqual([
      "Markdown",
      "Plain text",
      "Captions (WebVTT)",
      "Captions (SRT)",
      "JSON",
    ]);
    await page.context().close();
  });

  it("prints a clean document: no controls, toolbar, player or downloads, dark text on white", async () => {
    const { page } = await open(
      await createLink({
        name: "video-summary",
        videoUrl: video.url,
        color: { background: "#10243e" },
      }),
    );
    await page.locator("#search-input").waitFor();
    await page.emulateMedia({ media: "print" });
    const style = (selector: string, property: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((e, p) => getComputedStyle(e).getPropertyValue(p), property);
    const shown = (selector: string) =>
      page
        .locator(selector)
        .evaluateAll(
          (elements) =>
            elements.filter(
              (element) =>
                getComputedStyle(element).display !== "none" && element.getClientRects().length > 0,
            ).length,
        );
    for (const selector of [
      ".search",
      ".filters",
      ".share",
      ".downloads",
      "#player",
      "button",
      "input",
      ".skip-link",
    ]) {
      expect(await shown(selector), selector).toBe(0);
    }
    expect(await shown(".lines > li")).toBe(80);
    // One column: the transcript follows the overview instead of standing beside it.
    const box = (selector: string) =>
      page.locator(selector).evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);
    expect((await box(".col-transcript")).top).toBeGreaterThanOrEqual((await box(".col-overview")).bottom);
    expect(await style(".card", "border-top-width")).toBe("0px");
    expect(await style("body", "background-color")).toBe("rgb(255, 255, 255)");
    expect(await style("body", "color")).toBe("rgb(0, 0, 0)");
    expect(await style(".line-text", "color")).toBe("rgb(0, 0, 0)");
    expect(await style("a.time", "color")).toBe("rgb(0, 0, 0)");
    await page.emulateMedia({ media: "screen" });
    expect(await shown(".search")).toBe(1);
    await page.context().close();
  });

  it("loads the brand's web font from the page's own origin, and nothing from elsewhere", async () => {
    const url = await createLink({ name: "verbose-text-summary", font: { family: "Source Sans 3" } });
    const { page, requested } = await open(url);
    const loaded = await page.evaluate(async () => {
      await document.fonts.ready;
      return (
        document.fonts.check('16px "Source Sans 3"', "Recap") &&
        [...document.fonts].some(
          (face) => face.family.replace(/"/g, "") === "Source Sans 3" && face.status === "loaded",
        )
      );
    });
    expect(loaded).toBe(true);
    const origin = new URL(url).origin;
    expect(requested.filter((address) => !address.startsWith(origin))).toEqual([]);
    expect(requested.some((address) => /\/assets\/fonts\/[0-9a-f]{32}\.woff2$/.test(address))).toBe(true);
    await page.context().close();
  });
});

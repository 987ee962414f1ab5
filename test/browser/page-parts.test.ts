// A very long meeting in Chromium: 3,200 lines of QMSum val meetings one after another, sent in four parts
// (docs/PAGES.md, A very long meeting). The page opens with the first part; the rest comes as it is read,
// jumped to, searched, filtered, played or copied, and reads without the script through each part's link.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readingText } from "../../src/pages/reading-text.ts";
import { apiClient } from "../helpers/api.ts";
import type * as Body from "../helpers/bodies.ts";
import { createLink as createLinkOn, onServer } from "../helpers/factories.ts";
import { joinedMeetings, wordOnlyIn } from "../helpers/qmsum.ts";
import {
  browserSuite,
  chromiumAvailable,
  barsVideo,
  playerState,
  seriousViolations,
  serveMedia,
  SEEK,
} from "./browser.ts";

const LINES = 3200;

describe.skipIf(!chromiumAvailable())("a very long meeting in parts, in Chromium", () => {
  const suite = browserSuite();
  let media: { url: string; close(): Promise<void> };
  let token: string;
  let meetingId: string;
  let messages: Body.MessageList["messages"];
  let readOnly: string;

  beforeAll(async () => {
    const { server } = suite;
    // A video as long as the meeting (5 s a line).
    media = await serveMedia(barsVideo(), "video/webm", "meeting.webm");
    ({ token } = await server.newApp());
    meetingId = (await server.ingest(token, joinedMeetings("val", LINES))).conversationId;
    messages = (
      await apiClient(server.url, token).get<Body.MessageList>(`/v1/conversations/${meetingId}/messages`)
    ).body.messages;
    readOnly = await createLink({ name: "verbose-text-summary", readOnly: true });
  }, 120_000);
  afterAll(async () => {
    await media?.close();
  });

  async function createLink(body: Record<string, unknown>): Promise<string> {
    return onServer(suite.server, (await createLinkOn(suite.server, token, meetingId, body)).url);
  }

  /** A fresh page at 1366×900 that reaches only the test's own servers. */
  async function open(url: string, { javaScriptEnabled = true } = {}): Promise<Page> {
    const context = await suite.browser.newContext({
      viewport: { width: 1366, height: 900 },
      javaScriptEnabled,
      reducedMotion: "reduce",
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const page = await context.newPage();
    await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    await page.goto(url);
    if (javaScriptEnabled) await page.locator("#search-input").waitFor();
    return page;
  }

  /** The ids of the lines on the page, in order. */
  const lineIds = (page: Page) =>
    page.evaluate(() => [...document.querySelectorAll(".line")].map((line) => line.id.slice(2)));
  const ids = (from: number, to: number) => messages.slice(from, to).map((m) => m.id);
  const inView = (page: Page, id: string) =>
    page.locator(`#m-${id}`).evaluate((line) => {
      const box = line.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight;
    });

  it("opens with the first part only, and the next part comes, in order, as the reader reaches it", async () => {
    const page = await open(readOnly);
    expect(await lineIds(page)).toEqual(ids(0, 1000));
    expect(await page.locator(".lines > li.part").count()).toBe(3);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.locator(`#m-${messages[990]?.id ?? ""}`).scrollIntoViewIfNeeded();
    await expect.poll(() => lineIds(page).then((on) => on.length)).toBe(2000);
    expect(await lineIds(page)).toEqual(ids(0, 2000));
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(height * 1.5);
    // Still one tab stop among the lines, the parts' links apart.
    const stops = await page.evaluate(
      () =>
        [...document.querySelectorAll<HTMLElement>(".lines .line, .lines .line *")].filter(
          (e) => e.tabIndex >= 0,
        ).length,
    );
    expect(stops).toBe(1);
    await page.context().close();
  });

  it("jumps to a chapter in a part not on the page, names it, and the address opens there again", async () => {
    const page = await open(readOnly);
    const links = page.locator(".outline a[data-goto]");
    const last = links.last();
    const id = (await last.getAttribute("data-goto")) ?? "";
    const index = messages.findIndex((m) => m.id === id);
    expect(index).toBeGreaterThanOrEqual(1000);
    await page.click(".outline summary");
    await last.click();
    await expect.poll(() => inView(page, id), SEEK).toBe(true);
    const chapters = await links.count();
    await expect
      .poll(() => page.locator(".outline-current").innerText())
      .toMatch(new RegExp(`^${chapters} of`));
    const address = new URL(page.url());
    expect([address.searchParams.get("part"), address.hash]).toEqual([
      String(Math.floor(index / 1000) + 1),
      `#m-${id}`,
    ]);
    await page.context().close();

    // That address opens at the line, with the script and without it.
    for (const javaScriptEnabled of [true, false]) {
      const again = await open(address.href, { javaScriptEnabled });
      await expect.poll(() => inView(again, id), SEEK).toBe(true);
      await again.context().close();
    }
  });

  it("opens at a line's anchor or a time in a part not on the page", async () => {
    const line = messages[2700];
    const page = await open(`${readOnly}#m-${line?.id ?? ""}`);
    await expect.poll(() => inView(page, line?.id ?? ""), SEEK).toBe(true);
    expect(await page.locator(`#m-${line?.id ?? ""}`).getAttribute("class")).toContain("is-target");
    // A time in the last part, said in a line the cleaned page shows (not marks only).
    const said = messages.findIndex((m, i) => i >= 3100 && readingText(m.text) !== "");
    await page.goto(`${readOnly}#t=${said * 5 + 2}`);
    await expect.poll(() => inView(page, messages[said]?.id ?? ""), SEEK).toBe(true);
    await page.context().close();
  });

  it("searches the whole transcript, loading only the parts that mention the words", async () => {
    const word = wordOnlyIn(messages, 2000, 3000);
    const page = await open(readOnly);
    await page.fill("#search-input", word ?? "");
    await page.press("#search-input", "Enter");
    await expect.poll(() => page.locator("#search-count").innerText(), SEEK).toMatch(/^1 of \d+$/);
    expect(
      await page.locator(".lines > li.part").evaluateAll((parts) => parts.map((p) => p.dataset.part)),
    ).toEqual(["2", "4"]);
    await expect
      .poll(() => page.locator("mark.is-current").evaluate((m) => m.getBoundingClientRect().top > 0))
      .toBe(true);
    await page.context().close();
  });

  it("highlights a filter's lines across parts, steps through them and shows only them", async () => {
    const page = await open(readOnly);
    const chip = page.locator(".chip[data-parts*=' ']").first();
    const count = Number(await chip.getAttribute("data-count"));
    const parts = ((await chip.getAttribute("data-parts")) ?? "").split(" ");
    expect(parts.length).toBeGreaterThan(1);
    await chip.click();
    await expect
      .poll(() => page.locator(".filter-count").innerText(), SEEK)
      .toBe(`${count} lines highlighted · 1 of ${count}`);
    await page.click("[data-action=filter-prev]");
    expect(await page.locator(".filter-count").innerText()).toBe(
      `${count} lines highlighted · ${count} of ${count}`,
    );
    await page.check("#only-matching");
    expect(
      await page.evaluate(
        () => [...document.querySelectorAll<HTMLElement>(".lines > li")].filter((l) => l.offsetParent).length,
      ),
    ).toBe(count);
    await page.context().close();
  });

  it("follows playback into a part not on the page", async () => {
    const page = await open(await createLink({ name: "video-summary", videoUrl: media.url }));
    const player = page.locator("#player");
    await expect.poll(() => player.evaluate((p: HTMLMediaElement) => p.readyState)).toBeGreaterThan(0);
    await player.evaluate((p: HTMLMediaElement) => (p.currentTime = 2600 * 5 + 1));
    await expect.poll(() => playerState(player), SEEK).toMatchObject({ time: 13001 });
    const current = page.locator(".line[aria-current=true]");
    await expect.poll(() => current.getAttribute("id"), SEEK).toBe(`m-${messages[2600]?.id ?? ""}`);
    await page.context().close();
  });

  it("copies the whole transcript, the parts not on the page included", async () => {
    const page = await open(await createLink({ name: "verbose-text-summary" }));
    await page.click("[data-action=copy-transcript]");
    await expect.poll(() => page.locator("#status").innerText(), SEEK).toBe("Transcript copied.");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split("\n")).toHaveLength(LINES);
    // The last line: its speaker and time, as on the page.
    const last = messages[LINES - 1];
    expect(copied.split("\n").at(-1)).toMatch(new RegExp(`^${last?.from.name ?? "?"} \\[4:26:35\\]: `));
    expect(await lineIds(page)).toEqual(ids(0, LINES));
    await page.context().close();
  });

  it("reads without the script through each part's link, the text switch keeping the part", async () => {
    const page = await open(readOnly, { javaScriptEnabled: false });
    await page.getByRole("link", { name: /^Part 3 of 4: lines 2,001–3,000/ }).click();
    await page.waitForURL(/part=3/);
    expect(await lineIds(page)).toEqual(ids(2000, 3000));
    await page.click("[data-text-mode=verbatim]");
    await page.waitForURL(/text=verbatim/);
    expect(new URL(page.url()).searchParams.get("part")).toBe("3");
    expect(await lineIds(page)).toEqual(ids(2000, 3000));
    await page.getByRole("link", { name: /^Part 1 of 4/ }).click();
    // The first part's link carries no part=: wait until the address has lost it.
    await page.waitForURL((url) => !url.searchParams.has("part"));
    expect(await lineIds(page)).toEqual(ids(0, 1000));
    await page.context().close();
  });

  it(
    "has no serious or critical accessibility violations with its parts' links",
    { timeout: 180_000 },
    async () => {
      const page = await open(readOnly);
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    },
  );
});

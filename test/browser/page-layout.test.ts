// The page fitted to a long meeting (QMSum Bed015, 1,257 lines): phones, insights, the header, the brand
// colours and axe. Over 300 lines: one file, so that Chromium and the analysed meetings are set up once.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contrastRatio } from "../../src/pages/colour.ts";
import { apiClient } from "../helpers/api.ts";
import { TestClock } from "../helpers/app.ts";
import { createLink as createLinkOn, ingestMeeting, message, onServer } from "../helpers/factories.ts";
import { until } from "../helpers/wait.ts";
import {
  barsVideo,
  browserSuite,
  chromiumAvailable,
  makeWav,
  seriousViolations,
  serveMedia,
} from "./browser.ts";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

/** "rgb(1, 2, 3)" (as getComputedStyle answers) as "#010203", for the contrast arithmetic. */
function hex(rgb: string): string {
  const channels = /rgba?\((\d+), (\d+), (\d+)/.exec(rgb)?.slice(1) ?? [];
  expect(channels, rgb).toHaveLength(3);
  return `#${channels.map((c) => Number(c).toString(16).padStart(2, "0")).join("")}`;
}

describe.skipIf(!chromiumAvailable())("the summary page fitted to a long meeting", () => {
  const suite = browserSuite({ clock: new TestClock() });
  let media: { url: string; close(): Promise<void> };
  let video: { url: string; close(): Promise<void> };
  let token: string;
  let bed015: string;
  let es2006a: string;

  beforeAll(async () => {
    const { server } = suite;
    media = await serveMedia(makeWav(90));
    video = await serveMedia(barsVideo(), "video/webm", "meeting.webm");
    ({ token } = await server.newApp());
    bed015 = (await ingestMeeting(server, token, "Bed015.json")).conversationId;
    es2006a = (await ingestMeeting(server, token, "ES2006a.json")).conversationId;
  }, 120_000);
  afterAll(async () => {
    await media?.close();
    await video?.close();
  });

  const createLink = async (conversationId: string, body: Record<string, unknown>) =>
    onServer(suite.server, (await createLinkOn(suite.server, token, conversationId, body)).url);

  /** A fresh page that reaches only the test's own servers. */
  async function open(url: string, { viewport = DESKTOP, javaScript = true } = {}): Promise<Page> {
    const context = await suite.browser.newContext({ viewport, javaScriptEnabled: javaScript });
    const page = await context.newPage();
    await page.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort());
    await page.goto(url);
    return page;
  }

  const box = (page: Page, selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((e) => {
        const { top, bottom } = e.getBoundingClientRect();
        return { top, bottom, height: window.innerHeight };
      });

  it("on a phone, without the script, keeps the section links at the top, each a tap from its section", async () => {
    const page = await open(await createLink(bed015, { name: "verbose-text-summary", readOnly: true }), {
      viewport: PHONE,
      javaScript: false,
    });
    const nav = page.getByRole("navigation", { name: "Sections" });
    expect(await nav.getByRole("link").allInnerTexts()).toEqual([
      "Summary",
      "Action items",
      "Chapters",
      "Transcript",
    ]);
    for (const [label, target] of [
      ["Transcript", "#transcript-heading"],
      ["Action items", "#insights-heading"],
      ["Chapters", "#topics-heading"],
      ["Summary", "#summary-heading"],
    ] as const) {
      await nav.getByRole("link", { name: label }).click();
      // Once the (smooth) scroll ends, the section starts just under the bar, which stays at the top.
      await expect
        .poll(async () => {
          const [bar, heading] = [await box(page, "nav.jumps"), await box(page, target)];
          return bar.top === 0 && heading.top >= bar.bottom && heading.bottom < heading.height / 2;
        })
        .toBe(true);
    }
    await page.context().close();

    const desktop = await open(await createLink(bed015, { name: "verbose-text-summary" }));
    expect(await desktop.locator("nav.jumps").isVisible()).toBe(false);
    await desktop.context().close();
  });

  for (const kind of ["video-summary", "audio-summary"] as const) {
    it(`holds the ${kind === "video-summary" ? "video" : "audio"} player in view on a phone while the transcript follows playback, and on a wide screen`, async () => {
      const url = await createLink(bed015, {
        name: kind,
        ...(kind === "video-summary" ? { videoUrl: video.url } : { audioUrl: media.url }),
      });
      const page = await open(url, { viewport: PHONE });
      const player = page.locator("#player");
      await expect.poll(() => player.evaluate((p: HTMLMediaElement) => p.readyState)).toBeGreaterThan(0);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight * 0.6));
      const held = await box(page, ".media");
      expect(held.top).toBeGreaterThanOrEqual((await box(page, "nav.jumps")).bottom - 1);
      expect(held.bottom).toBeLessThan(held.height / 2);

      // Playing from 61 s: the line said then comes into view below the player, not under it.
      await player.evaluate((p: HTMLMediaElement) => (p.currentTime = 61));
      const current = page.locator(".line[aria-current=true]");
      await expect.poll(() => current.count()).toBe(1);
      await expect
        .poll(
          async () => {
            const line = await box(page, ".line[aria-current=true]");
            const media = await box(page, ".media");
            return line.top >= media.bottom && line.bottom <= line.height;
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      await page.context().close();

      // On a wide screen the player stays at the top of the left column, all the way down the transcript.
      const desktop = await open(url);
      await desktop.evaluate(() => window.scrollTo(0, document.body.scrollHeight * 0.6));
      await expect
        .poll(() => box(desktop, ".media").then((b) => b.top >= 0 && b.bottom <= b.height))
        .toBe(true);
      await desktop.context().close();
    });
  }

  /** The bars that can stick (the phone's section links, a held player, the toolbar) that are in view, as boxes. */
  const stuckBoxes = (page: Page) =>
    page.evaluate(() =>
      ["nav.jumps", ".media", "#toolbar"].flatMap((selector) => {
        const element = document.querySelector<HTMLElement>(selector);
        if (!element || element.offsetParent === null) return [];
        const { left, right, top, bottom } = element.getBoundingClientRect();
        return bottom > 0 && top < window.innerHeight ? [{ selector, left, right, top, bottom }] : [];
      }),
    );

  for (const kind of ["verbose-text-summary", "video-summary", "audio-summary"] as const) {
    for (const [device, viewport] of [
      ["a phone", PHONE],
      ["a wide screen", DESKTOP],
    ] as const) {
      it(`stacks the sticky bars of the ${kind} page on ${device}, scrolled into the transcript: none covers another`, async () => {
        const url = await createLink(bed015, {
          name: kind,
          readOnly: true,
          ...(kind === "video-summary" && { videoUrl: video.url }),
          ...(kind === "audio-summary" && { audioUrl: media.url }),
        });
        for (const javaScript of [true, false]) {
          const page = await open(url, { viewport, javaScript });
          if (javaScript) await page.locator("#search-input").waitFor();
          for (const share of [0.4, 0.8]) {
            await page.evaluate(
              (at) =>
                window.scrollTo({ top: document.documentElement.scrollHeight * at, behavior: "instant" }),
              share,
            );
            const boxes = await stuckBoxes(page);
            const where = `${javaScript ? "" : "without the script, "}${share * 100}% down`;
            // With the script the toolbar is always held in view (its search, filters and chapters at hand).
            if (javaScript)
              expect(
                boxes.map((b) => b.selector),
                where,
              ).toContain("#toolbar");
            for (const [i, a] of boxes.entries()) {
              for (const b of boxes.slice(i + 1)) {
                const apart =
                  a.bottom <= b.top + 1 ||
                  b.bottom <= a.top + 1 ||
                  a.right <= b.left + 1 ||
                  b.right <= a.left + 1;
                expect(
                  apart,
                  `${a.selector} and ${b.selector} overlap ${where}: ${JSON.stringify([a, b])}`,
                ).toBe(true);
              }
            }
          }
          if (javaScript) {
            // Each chapter chosen in the outline lands below all of them, and the outline names it (a long
            // smooth scroll takes a while).
            const links = page.locator(".outline a[data-goto]");
            const chapters = await links.count();
            const outline = page.locator("details.outline");
            for (let k = 0; k < chapters; k++) {
              // Opened as a reader opens it (a click on an outline still open would close it), again if the
              // opening click was lost while the page still moved (seen once under the full suite).
              await until(
                async () => {
                  if (!(await outline.evaluate((d) => (d as HTMLDetailsElement).open)))
                    await page.locator(".outline summary").click();
                  return links
                    .nth(k)
                    .click({ timeout: 2_000 })
                    .then(
                      () => true,
                      () => false,
                    );
                },
                `chapter ${k + 1} chosen in the outline`,
                { tries: 10, everyMs: 100 },
              );
              const line = page.locator(`#m-${await links.nth(k).getAttribute("data-goto")}`);
              await expect
                .poll(
                  async () => {
                    const at = await line.evaluate((l) => l.getBoundingClientRect().toJSON() as DOMRect);
                    const over = (await stuckBoxes(page)).filter(
                      (b) => b.right > at.left && b.left < at.right,
                    );
                    return at.top >= Math.max(0, ...over.map((b) => b.bottom)) - 1;
                  },
                  { timeout: 10_000 },
                )
                .toBe(true);
              await expect
                .poll(() => page.locator(".outline-current").innerText(), { timeout: 10_000 })
                .toMatch(new RegExp(`^${k + 1} of ${chapters}: `));
            }
          }
          await page.context().close();
        }
      }, 60_000);
    }
  }

  it("shows each insight type's top five, and all of them behind Show all without the script", async () => {
    const page = await open(await createLink(bed015, { name: "verbose-text-summary", readOnly: true }), {
      javaScript: false,
    });
    const groups = page.locator(".insight-group");
    let folded = 0;
    for (let i = 0; i < (await groups.count()); i++) {
      const group = groups.nth(i);
      const top = group.locator(":scope > ul.items > li");
      expect(await top.count()).toBeLessThanOrEqual(5);
      const more = group.locator(":scope > details.more");
      if ((await more.count()) === 0) continue;
      folded++;
      const total = Number(/^Show all \((\d+)\)$/.exec(await more.locator("summary").innerText())?.[1]);
      expect(await top.count()).toBe(5);
      expect(await group.locator("li.insight:visible").count()).toBe(5);
      await more.locator("summary").click();
      expect(await group.locator("li.insight:visible").count()).toBe(total);
    }
    expect(folded).toBeGreaterThan(0);
    await page.context().close();
  });

  it("dismisses an insight on an editable link and restores it from the dismissed list", async () => {
    const page = await open(await createLink(bed015, { name: "verbose-text-summary" }));
    const group = page.locator("#action-items");
    const first = group.locator(":scope > ul.items > li").first();
    const id = await first.getAttribute("data-insight-id");
    await page.locator("#edit-toggle").click();
    const listed = async () =>
      (
        await apiClient(suite.server.url, token).get<{ actionItems: { id: string }[] }>(
          `/v1/conversations/${bed015}/action-items`,
        )
      ).body.actionItems.some((item) => item.id === id);
    expect(await listed()).toBe(true);

    await first.hover();
    await first.getByRole("button", { name: "Dismiss this insight" }).click();
    const dismissed = group.locator("details.dismissed");
    await expect.poll(() => dismissed.locator("summary").innerText()).toBe("Dismissed (1)");
    expect(await listed()).toBe(false);
    await page.reload();
    expect(await dismissed.isVisible()).toBe(false);
    await page.locator("#edit-toggle").click();
    await dismissed.locator("summary").click();
    const item = dismissed.locator(`[data-insight-id="${id}"]`);
    await item.hover();
    await item.getByRole("button", { name: "Restore this insight" }).click();
    await expect.poll(() => dismissed.isVisible()).toBe(false);
    expect(await group.locator(`:scope > ul.items > [data-insight-id="${id}"]`).count()).toBe(1);
    expect(await listed()).toBe(true);
    await page.context().close();
  });

  it("shows a date and length only when the meeting's times give them, and shares talk by time or words", async () => {
    const untimed = await suite.server.ingest(token, {
      name: "Untimed notes",
      messages: [message("Let us plan the week ahead now.", "Ann Lee"), message("Fine.", "Bob Stone")],
    });
    const page = await open(await createLink(untimed.conversationId, { name: "verbose-text-summary" }));
    expect(await page.locator("header time, header .duration, header .meta").count()).toBe(0);
    expect(await page.locator("header").innerText()).not.toMatch(/\b0 s\b/);
    expect(await page.locator(".talk-note").innerText()).toBe("Share of the talk, by words");
    expect(await page.locator(".talk-share").allInnerTexts()).toEqual(["88%", "13%"]);
    await page.context().close();

    const timed = await suite.server.ingest(token, {
      name: "Timed call",
      messages: [message("Hello there.", "Ann Lee", [0, 30]), message("Hi.", "Bob Stone", [30, 40])],
    });
    const timedPage = await open(await createLink(timed.conversationId, { name: "verbose-text-summary" }));
    expect(await timedPage.locator("header time.date").getAttribute("datetime")).toBe(
      "2026-11-02T15:00:00.000Z",
    );
    expect(await timedPage.locator("header .duration").innerText()).toBe("40 s");
    expect(await timedPage.locator(".talk-note").innerText()).toBe("Share of the talk, by speaking time");
    expect(await timedPage.locator(".talk-share").allInnerTexts()).toEqual(["75%", "25%"]);
    await timedPage.context().close();
  });

  it("gives each attendee a distinct colour, the same beside each of their lines", async () => {
    const page = await open(await createLink(bed015, { name: "verbose-text-summary", readOnly: true }));
    const colours = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>(".attendee")].map((attendee) => {
        const id = attendee.dataset.memberId ?? "";
        const avatar = getComputedStyle(attendee.querySelector(".avatar")!).backgroundColor;
        const lines = [...document.querySelectorAll(`.speaker[data-member-name="${CSS.escape(id)}"]`)];
        const beside = new Set(lines.map((l) => getComputedStyle(l).borderLeftColor));
        return { avatar, beside: [...beside], lines: lines.length };
      }),
    );
    expect(colours.length).toBeGreaterThan(3);
    expect(new Set(colours.map((c) => c.avatar)).size).toBe(colours.length);
    for (const c of colours) if (c.lines > 0) expect(c.beside).toEqual([c.avatar]);
    const surface = hex(
      await page
        .locator(".card")
        .first()
        .evaluate((e) => getComputedStyle(e).backgroundColor),
    );
    for (const c of colours) expect(contrastRatio(hex(c.avatar), surface)).toBeGreaterThanOrEqual(3);
    await page.context().close();
  });

  for (const [brand, background, topicsFilter, insightsFilter] of [
    ["a light", "#f5f0e1", "#ffffff", "#fff8dc"],
    ["a dark", "#1a1a2e", "#1a1a2e", "#0d0d17"],
  ] as const) {
    it(`keeps chips and controls at 3:1 and their text at 4.5:1 on ${brand} brand`, async () => {
      const url = await createLink(bed015, {
        name: "verbose-text-summary",
        color: { background, topicsFilter, insightsFilter },
      });
      for (const viewport of [DESKTOP, PHONE]) {
        const page = await open(url, { viewport });
        await page.locator(".chip").first().waitFor();
        const measured = await page.evaluate(() => {
          const pick = (selector: string) => {
            const all = [...document.querySelectorAll<HTMLElement>(selector)];
            const element = all.find((e) => e.offsetParent !== null) ?? all[0]!;
            const style = getComputedStyle(element);
            let around: Element | null = element.parentElement;
            while (around && getComputedStyle(around).backgroundColor === "rgba(0, 0, 0, 0)")
              around = around.parentElement;
            const behind = getComputedStyle(around ?? document.body).backgroundColor;
            const own = style.backgroundColor === "rgba(0, 0, 0, 0)" ? behind : style.backgroundColor;
            return {
              selector,
              // A transparent or absent edge is no edge: the fill alone must then show.
              edge:
                style.borderTopWidth === "0px" || style.borderTopColor === "rgba(0, 0, 0, 0)"
                  ? own
                  : style.borderTopColor,
              fill: own,
              text: style.color,
              behind,
              visible: element.offsetParent !== null,
            };
          };
          return [
            ".chip-topic",
            ".chip-insight",
            ".card .control",
            "#search-input",
            ".more > summary",
            "nav.jumps a",
          ].map(pick);
        });
        for (const m of measured.filter((x) => x.visible)) {
          const behind = hex(m.behind);
          // The control shows against what is around it by its fill or by its edge.
          const shape = Math.max(contrastRatio(hex(m.fill), behind), contrastRatio(hex(m.edge), behind));
          expect(shape, `${m.selector} on ${behind}`).toBeGreaterThanOrEqual(3);
          expect(contrastRatio(hex(m.text), hex(m.fill)), `${m.selector} text`).toBeGreaterThanOrEqual(4.5);
        }
        expect(measured.filter((x) => x.visible).length).toBe(viewport === PHONE ? 6 : 5);
        await page.context().close();
      }
    });
  }

  for (const kind of ["verbose-text-summary", "video-summary", "audio-summary"] as const) {
    for (const readOnly of [false, true]) {
      it(`has no serious or critical accessibility violations on the ${readOnly ? "read-only" : "editable"} ${kind} page`, async () => {
        const page = await open(
          // A shorter meeting than Bed015, which axe takes minutes over.
          await createLink(es2006a, {
            name: kind,
            readOnly,
            ...(kind === "video-summary" && { videoUrl: video.url }),
            ...(kind === "audio-summary" && { audioUrl: media.url }),
            color: { background: "#f5f0e1", topicsFilter: "#ffffff", insightsFilter: "#1a1a2e" },
          }),
          { viewport: readOnly ? PHONE : DESKTOP },
        );
        await page.locator("#search-input").waitFor();
        for (const more of await page.locator("details.more summary").all()) await more.click();
        expect(await seriousViolations(page)).toEqual([]);
        await page.context().close();
      }, 120_000);
    }
  }
});

/**
 * Writes docs/page-text.png, docs/page-phone.png, docs/page-video.png and docs/page-phone-video.png: a long
 * QMSum meeting (Bed015) on a branded text page at 1366×900 and, scrolled into the transcript, at 390×844;
 * on a video page; and on a video page on a phone following playback.
 * Also docs/console.png: the console's list of conversations; docs/console-link.png and
 * docs/console-link-phone.png: creating a branded link with its preview; docs/console-links.png: the links;
 * docs/console-settings.png and docs/console-settings-phone.png: its settings page at 1280×860 and 390×844.
 * Run with `npm run build:client && node --import tsx test/browser/screenshots.ts`.
 */
import { join } from "node:path";
import { startTestServer } from "../helpers/app.ts";
import { startFontCatalogue } from "../helpers/font-catalogue.ts";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { barsVideo, launchChromium, serveMedia } from "./browser.ts";

const DOCS = join(import.meta.dirname, "..", "..", "docs");
const MEETING = process.argv[2] ?? "Bed015.json";

// The brand font comes from the local stand-in for the catalogue (the real font file), as in the tests.
const catalogue = await startFontCatalogue();
const server = await startTestServer("sqlite", { env: catalogue.env });
const media = await serveMedia(barsVideo(), "video/webm", "meeting.webm");
const browser = await launchChromium();
try {
  const { appId, appSecret, token } = await server.newApp();
  await server.ingest(token, toProcessTextBody(loadMeeting("val", "IS1006a.json")));
  const { conversationId } = await server.ingest(token, toProcessTextBody(loadMeeting("val", MEETING)));
  const branding = {
    color: { background: "#10243e", topicsFilter: "#2f9e8f", insightsFilter: "#f2a541" },
    font: { family: "Source Sans 3" },
  };
  const create = async (body: Record<string, unknown>) => {
    const response = await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
      method: "POST",
      body: { ...branding, ...body },
    });
    return ((await response.json()) as { url: string }).url;
  };
  const video = await create({ name: "video-summary", videoUrl: media.url });
  const text = await create({ name: "verbose-text-summary", readOnly: true });
  const shots: [string, string, { width: number; height: number }][] = [
    ["page-text.png", text, { width: 1366, height: 900 }],
    ["page-phone.png", text, { width: 390, height: 844 }],
    ["page-video.png", video, { width: 1280, height: 860 }],
    ["page-phone-video.png", video, { width: 390, height: 844 }],
  ];
  for (const [file, url, viewport] of shots) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1, reducedMotion: "reduce" });
    const path = new URL(url);
    await page.goto(server.url + path.pathname + path.search);
    await page.waitForLoadState("networkidle").catch(() => undefined);
    if (file === "page-video.png") await page.locator(".chip-topic").first().click();
    if (file === "page-phone.png") {
      // Into the transcript, at its second chapter: the toolbar has stuck to the top.
      await page.locator(".outline summary").click();
      await page.locator(".outline a[data-goto]").nth(1).click();
      await page.waitForFunction(() => document.querySelector(".outline [aria-current]") !== null);
    }
    if (file === "page-phone-video.png") {
      // Playing from 1:40 on a phone: the transcript follows under the held player.
      await page.locator("#player").evaluate((p: HTMLMediaElement) => (p.currentTime = 100));
      await page.locator(".line[aria-current=true]").waitFor();
    }
    await page.screenshot({ path: join(DOCS, file) });
    await page.close();
    console.log(`wrote docs/${file}`);
  }
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
  await page.goto(`${server.url}/console/sign-in`);
  await page.getByLabel("App id").fill(appId);
  await page.getByLabel("App secret").fill(appSecret);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Conversations" }).waitFor();
  await page.screenshot({ path: join(DOCS, "console.png") });
  console.log("wrote docs/console.png");

  await page.goto(`${server.url}/console/conversations/${conversationId}/links/new`);
  await page.getByLabel("Label (only you see it)").fill("Board review");
  await page.getByLabel("Background colour").fill(branding.color.background);
  await page.getByLabel("Topics colour").fill(branding.color.topicsFilter);
  await page.getByLabel("Insights colour").fill(branding.color.insightsFilter);
  await page.getByLabel("Font family").fill(branding.font.family);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(DOCS, "console-link.png") });
  console.log("wrote docs/console-link.png");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(DOCS, "console-link-phone.png") });
  console.log("wrote docs/console-link-phone.png");
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.getByRole("button", { name: "Create link" }).click();
  await page.getByRole("heading", { name: "Link created" }).waitFor();
  await server.services.linkViews.flush();
  await page.goto(`${server.url}/console/links`);
  await page.screenshot({ path: join(DOCS, "console-links.png") });
  console.log("wrote docs/console-links.png");
  await server.services.apps.updateApp(appId, {
    name: "Acme meeting recaps",
    customDomain: "recaps.acme.example",
    frameAncestors: ["https://intranet.acme.example", "https://wiki.acme.example"],
  });
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("heading", { name: "Settings", exact: true }).waitFor();
  await page.screenshot({ path: join(DOCS, "console-settings.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(DOCS, "console-settings-phone.png"), fullPage: true });
  console.log("wrote docs/console-settings.png and docs/console-settings-phone.png");
} finally {
  await browser.close();
  await media.close();
  await server.close();
  await catalogue.close();
}

/**
 * Writes docs/page-text.png, docs/page-phone.png and docs/page-video.png: a long QMSum meeting (Bed015,
 * 1,257 lines) on a branded text page at 1366×900 and, scrolled into the transcript, at 390×844, and on a
 * video page. Run with `npm run build:client && node --import tsx test/browser/screenshots.ts`.
 */
import { join } from "node:path";
import { startTestServer } from "../helpers/app.ts";
import { startFontCatalogue } from "../helpers/font-catalogue.ts";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { launchChromium, makeWav, serveMedia } from "./browser.ts";

const DOCS = join(import.meta.dirname, "..", "..", "docs");
const MEETING = process.argv[2] ?? "Bed015.json";

// The brand font comes from the local stand-in for the catalogue (the real font file), as in the tests.
const catalogue = await startFontCatalogue();
const server = await startTestServer("sqlite", { env: catalogue.env });
const media = await serveMedia(makeWav(120));
const browser = await launchChromium();
try {
  const { token } = await server.newApp();
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
  const text = await create({ name: "verbose-text-summary", readOnly: true });
  const shots: { file: string; url: string; width: number; height: number }[] = [
    { file: "page-text.png", url: text, width: 1366, height: 900 },
    { file: "page-phone.png", url: text, width: 390, height: 844 },
    {
      file: "page-video.png",
      url: await create({ name: "video-summary", videoUrl: media.url }),
      width: 1280,
      height: 860,
    },
  ];
  for (const { file, url, width, height } of shots) {
    const page = await browser.newPage({
      viewport: { width, height },
      deviceScaleFactor: 1,
      reducedMotion: "reduce",
    });
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
    await page.screenshot({ path: join(DOCS, file) });
    await page.close();
    console.log(`wrote docs/${file}`);
  }
} finally {
  await browser.close();
  await media.close();
  await server.close();
  await catalogue.close();
}

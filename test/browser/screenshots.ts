/**
 * Writes docs/page-text.png and docs/page-video.png: a QMSum meeting on a branded text page and on a
 * video page; and docs/console.png: the console's list of conversations. Run with `npm run build:client && node --import tsx test/browser/screenshots.ts`.
 */
import { join } from "node:path";
import { startTestServer } from "../helpers/app.ts";
import { startFontCatalogue } from "../helpers/font-catalogue.ts";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { launchChromium, makeWav, serveMedia } from "./browser.ts";

const DOCS = join(import.meta.dirname, "..", "..", "docs");
const MEETING = process.argv[2] ?? "ES2006a.json";

// The brand font comes from the local stand-in for the catalogue (the real font file), as in the tests.
const catalogue = await startFontCatalogue();
const server = await startTestServer("sqlite", { env: catalogue.env });
const media = await serveMedia(makeWav(120));
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
  const shots: [string, string][] = [
    ["page-text.png", await create({ name: "verbose-text-summary", readOnly: true })],
    ["page-video.png", await create({ name: "video-summary", videoUrl: media.url })],
  ];
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, deviceScaleFactor: 1 });
  for (const [file, url] of shots) {
    const path = new URL(url);
    await page.goto(server.url + path.pathname + path.search);
    await page.waitForLoadState("networkidle").catch(() => undefined);
    const chip = page.locator(".chip-topic").first();
    if (file === "page-video.png" && (await chip.count()) > 0) await chip.click();
    await page.screenshot({ path: join(DOCS, file) });
    console.log(`wrote docs/${file}`);
  }
  await page.goto(`${server.url}/console/sign-in`);
  await page.getByLabel("App id").fill(appId);
  await page.getByLabel("App secret").fill(appSecret);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Conversations" }).waitFor();
  await page.screenshot({ path: join(DOCS, "console.png") });
  console.log("wrote docs/console.png");
} finally {
  await browser.close();
  await media.close();
  await server.close();
  await catalogue.close();
}

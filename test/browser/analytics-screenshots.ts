/**
 * Writes docs/page-analytics.png and docs/page-analytics-phone.png: a QMSum meeting on an audio-summary
 * link (the analytics page) with two trackers. Run with
 * `npm run build:client && node --import tsx test/browser/analytics-screenshots.ts`.
 */
import { startTestServer } from "../helpers/app.ts";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { launchChromium, makeWav, saveScreenshot, serveMedia } from "./browser.ts";

const server = await startTestServer("sqlite");
const media = await serveMedia(makeWav(120));
const browser = await launchChromium();
try {
  const { token } = await server.newApp();
  const { conversationId } = await server.ingest(
    token,
    toProcessTextBody(loadMeeting("val", "ES2006a.json")),
  );
  await server.api(token, "/v1/manage/trackers", {
    method: "POST",
    body: [
      { name: "Budget", vocabulary: ["budget", "cost", "price"] },
      { name: "Remote control", vocabulary: ["remote control"] },
    ],
  });
  const response = await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
    method: "POST",
    body: { name: "audio-summary", audioUrl: media.url },
  });
  const path = new URL(((await response.json()) as { url: string }).url);
  for (const [file, viewport] of [
    ["page-analytics.png", { width: 1280, height: 1000 }],
    ["page-analytics-phone.png", { width: 390, height: 1600 }],
  ] as const) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
    await page.goto(server.url + path.pathname + path.search);
    await page.waitForLoadState("networkidle").catch(() => undefined);
    await saveScreenshot(page, file);
  }
} finally {
  await browser.close();
  await media.close();
  await server.close();
}

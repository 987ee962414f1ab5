/**
 * Writes docs/console-search.png (1280×800) and docs/console-search-phone.png (390×844): the console's search
 * for `meeting` over two QMSum meetings (IS1006a, a remote control's design, and Bed015, 1,257 lines), the hits
 * grouped by conversation, each with its marked snippet.
 * Run with `npm run build:client && node --import tsx test/browser/console-search-screenshots.ts`.
 */
import { join } from "node:path";
import { startTestServer } from "../helpers/app.ts";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { DOCS, launchChromium, signInToConsole } from "./browser.ts";

const server = await startTestServer("sqlite");
const browser = await launchChromium();
try {
  const { appId, appSecret, token } = await server.newApp();
  for (const file of ["Bed015.json", "IS1006a.json"]) {
    await server.ingest(token, toProcessTextBody(loadMeeting("val", file)));
  }
  for (const [viewport, suffix] of [
    [{ width: 1280, height: 800 }, ""],
    [{ width: 390, height: 844 }, "-phone"],
  ] as const) {
    const page = await browser.newPage({ viewport });
    await signInToConsole(page, server.url, appId, appSecret);
    await page.goto(`${server.url}/console/search?q=${encodeURIComponent("meeting")}`);
    await page.locator(".search-group").first().waitFor();
    await page.screenshot({ path: join(DOCS, `console-search${suffix}.png`) });
    console.log(`wrote docs/console-search${suffix}.png`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}

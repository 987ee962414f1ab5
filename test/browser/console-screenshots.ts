/**
 * Writes the console's screenshots into docs/, each at 1280×860 and (`-phone`) 390×844, of an app with two
 * QMSum meetings (Bed015, 1,257 lines, and IS1006a) and a brand: console.png (the conversations),
 * console-conversation.png (one conversation's page with its links), console-link.png (creating a link,
 * with its preview of the meeting's own lines), console-link-created.png, console-links.png and
 * console-settings.png (full page, the brand form included).
 * Run with `npm run build:client && node --import tsx test/browser/console-screenshots.ts`.
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startTestServer } from "../helpers/app.ts";
import { startFontCatalogue } from "../helpers/font-catalogue.ts";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { DOCS, launchChromium, signInToConsole } from "./browser.ts";

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

const catalogue = await startFontCatalogue();
// Links as a deployment shows them (nothing here opens one).
const server = await startTestServer("sqlite", {
  env: { ...catalogue.env, RECAP_PUBLIC_URL: "https://recap.example.com" },
});
const browser = await launchChromium();

/** Both sizes of the page as it is now, from its top. */
async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  for (const [viewport, suffix] of [
    [DESKTOP, ""],
    [PHONE, "-phone"],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(DOCS, `${name}${suffix}.png`), fullPage });
    console.log(`wrote docs/${name}${suffix}.png`);
  }
  await page.setViewportSize(DESKTOP);
}

try {
  const { appId, appSecret, token } = await server.newApp();
  await server.services.apps.updateApp(appId, {
    name: "Acme meeting recaps",
    customDomain: "recaps.acme.example",
    frameAncestors: ["https://intranet.acme.example"],
    brand: {
      color: { background: "#10243e", topicsFilter: "#2f9e8f", insightsFilter: "#f2a541" },
      font: { family: "Source Sans 3" },
    },
  });
  await server.ingest(token, toProcessTextBody(loadMeeting("val", "IS1006a.json")));
  const { conversationId } = await server.ingest(token, toProcessTextBody(loadMeeting("val", "Bed015.json")));
  for (const label of ["Board review", "Team wiki"]) {
    await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
      method: "POST",
      body: { name: "verbose-text-summary", label },
    });
  }

  const page = await browser.newPage({ viewport: DESKTOP, deviceScaleFactor: 1 });
  await signInToConsole(page, server.url, appId, appSecret);
  await shoot(page, "console");

  await page.goto(`${server.url}/console/conversations/${conversationId}`);
  await shoot(page, "console-conversation", true);

  await page.goto(`${server.url}/console/conversations/${conversationId}/links/new`);
  await page.getByLabel("Label (only you see it)").fill("Customer call notes");
  await page.getByLabel("Topics colour", { exact: true }).fill("#c2410c");
  await shoot(page, "console-link");

  await page.getByRole("button", { name: "Create link" }).click();
  await page.getByRole("heading", { name: "Link created" }).waitFor();
  await shoot(page, "console-link-created");

  await page.goto(`${server.url}/console/links`);
  await shoot(page, "console-links");

  await page.goto(`${server.url}/console/settings`);
  await shoot(page, "console-settings", true);
} finally {
  await browser.close();
  await server.close();
  await catalogue.close();
}

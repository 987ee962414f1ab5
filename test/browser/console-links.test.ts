import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { chromiumAvailable, launchChromium, ensureClientBuilt, accessible } from "./browser.ts";

const available = chromiumAvailable();

describe.skipIf(!available)("the console's summary links in Chromium", () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    ensureClientBuilt();
    server = await startTestServer("sqlite");
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("creates a branded link from an imported meeting, opens it, sees its view, relabels and revokes it", async () => {
    const { appId, appSecret } = await server.newApp();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));

    await page.goto(`${server.url}/console/sign-in`);
    await page.getByLabel("App id").fill(appId);
    await page.getByLabel("App secret").fill(appSecret);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Conversations" }).waitFor();

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Import" }).click();
    await page.getByLabel("Name").fill("Remote control design");
    await page.getByLabel(/Transcript file/).setInputFiles({
      name: "ES2006a.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(toProcessTextBody(loadMeeting("val", "ES2006a.json")))),
    });
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByText("Completed: the conversation is analysed.").waitFor({ timeout: 60_000 });
    await page.getByRole("link", { name: "See it in your conversations" }).click();
    await page.getByRole("link", { name: "Create link to Remote control design" }).click();
    await page.getByRole("heading", { name: "Create a link" }).waitFor();
    await accessible(page);

    // The preview follows the brand as it is typed, before anything is sent.
    const preview = page.locator("[data-link-preview]");
    const background = () => preview.evaluate((element) => getComputedStyle(element).backgroundColor);
    const topic = () =>
      preview
        .locator(".preview-topic")
        .first()
        .evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await background()).toBe("rgb(245, 246, 248)");
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.getByLabel("Background colour").fill("#10243e");
    await page.getByLabel("Topics colour").fill("#2f9e8f");
    await expect.poll(background).toBe("rgb(16, 36, 62)");
    await expect.poll(topic).toBe("rgb(47, 158, 143)");
    expect(await preview.locator(".preview-title").evaluate((e) => getComputedStyle(e).color)).toBe(
      "rgb(255, 255, 255)",
    );
    expect(requests).toEqual([]);

    // A refused value comes back next to its field, the rest kept as typed.
    await page.getByLabel("Insights colour").fill("orange");
    await page.getByLabel("Label (only you see it)").fill("For the board");
    await page.getByRole("button", { name: "Create link" }).click();
    await page.locator("#field-insightsFilter-error").waitFor();
    expect(await page.locator("#field-insightsFilter-error").textContent()).toBe(
      "color.insightsFilter must be a colour written exactly as #RRGGBB, such as #1A2B3C",
    );
    expect(await page.getByLabel("Insights colour").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Background colour").inputValue()).toBe("#10243e");
    expect(await background()).toBe("rgb(16, 36, 62)");
    await accessible(page);

    await page.getByLabel("Insights colour").fill("#f2a541");
    await page.getByRole("button", { name: "Create link" }).click();
    await page.getByRole("heading", { name: "Link created" }).waitFor();
    await accessible(page);
    const url = await page.getByLabel("Link").inputValue();
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // The link opens the summary page in the brand (the test server answers the link's path).
    const { pathname } = new URL(url);
    const viewer = await context.newPage();
    const opened = await viewer.goto(server.url + pathname);
    expect(opened?.status()).toBe(200);
    await viewer.getByRole("heading", { name: "Remote control design" }).waitFor();
    expect(await viewer.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      "rgb(16, 36, 62)",
    );
    await server.services.linkViews.flush();

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Links" }).click();
    await page.getByRole("heading", { name: "Links" }).waitFor();
    const row = page.getByRole("row", { name: /For the board/ });
    const cells = row.getByRole("cell");
    expect(await cells.nth(0).textContent()).toBe("Active");
    expect(await cells.nth(1).textContent()).toBe("Remote control design");
    expect(Number(await cells.nth(4).textContent())).toBeGreaterThanOrEqual(1);
    expect(await cells.nth(6).locator("time").count()).toBe(1);
    await accessible(page);

    await row.getByRole("link", { name: "Manage For the board" }).click();
    await page.getByLabel("Label (empty: no label)").fill("Board, March");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: "Board, March" }).waitFor();
    await accessible(page);
    await page.getByRole("link", { name: "Revoke this link…" }).click();
    await page.getByRole("heading", { name: "Revoke this link?" }).waitFor();
    await accessible(page);
    await page.getByRole("button", { name: "Revoke" }).click();
    await page.getByText("This link was revoked").waitFor();

    const gone = await viewer.goto(server.url + pathname);
    expect(gone?.status()).toBe(410);

    const unknown = await page.goto(`${server.url}/console/no-such-page`);
    expect(unknown?.status()).toBe(404);
    await page.getByText("There is no such page in the console.").waitFor();
    await accessible(page);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});

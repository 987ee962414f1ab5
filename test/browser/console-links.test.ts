import { describe, expect, it } from "vitest";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { accessible, browserSuite, chromiumAvailable, recordPageErrors, signInToConsole } from "./browser.ts";

const available = chromiumAvailable();

describe.skipIf(!available)("the console's summary links in Chromium", () => {
  const suite = browserSuite();

  it("creates a branded link from an imported meeting, opens it, sees its view, relabels and revokes it", async () => {
    const { server, browser } = suite;
    const { appId, appSecret } = await server.newApp();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    const page = await context.newPage();
    const errors = recordPageErrors(page);

    await signInToConsole(page, server.url, appId, appSecret);

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Import" }).click();
    await page.getByLabel("Name").fill("Remote control design");
    await page.getByLabel(/^File \(/).setInputFiles({
      name: "ES2006a.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(toProcessTextBody(loadMeeting("val", "ES2006a.json")))),
    });
    await page.getByRole("button", { name: "Import" }).click();
    await page.getByText("Completed: the conversation is analysed.").waitFor({ timeout: 60_000 });
    await page.getByRole("link", { name: "Create a link" }).click();
    await page.getByRole("heading", { name: "Create a link" }).waitFor();
    await accessible(page);
    // The preview shows the meeting's own first line (its speaker), and each colour has a picker beside its text.
    const [first] = toProcessTextBody(loadMeeting("val", "ES2006a.json")).messages;
    expect(await page.locator(".preview-line .preview-speaker").first().textContent()).toBe(first?.from.name);

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
    await page.getByLabel("Background colour", { exact: true }).fill("#10243e");
    expect(await page.getByLabel("Background colour: pick").inputValue()).toBe("#10243e");
    await page.getByLabel("Topics colour: pick").fill("#2f9e8f");
    expect(await page.getByLabel("Topics colour", { exact: true }).inputValue()).toBe("#2f9e8f");
    await expect.poll(background).toBe("rgb(16, 36, 62)");
    await expect.poll(topic).toBe("rgb(47, 158, 143)");
    expect(await preview.locator(".preview-title").evaluate((e) => getComputedStyle(e).color)).toBe(
      "rgb(255, 255, 255)",
    );
    expect(requests).toEqual([]);

    // A refused value comes back next to its field, the rest kept as typed.
    await page.getByLabel("Insights colour", { exact: true }).fill("orange");
    await page.getByLabel("Label (only you see it)").fill("For the board");
    await page.getByRole("button", { name: "Create link" }).click();
    await page.locator("#field-insightsFilter-error").waitFor();
    expect(await page.locator("#field-insightsFilter-error").textContent()).toBe(
      "Insights colour must be a colour written exactly as #RRGGBB, such as #1A2B3C",
    );
    expect(await page.getByLabel("Insights colour", { exact: true }).getAttribute("aria-invalid")).toBe(
      "true",
    );
    expect(await page.getByLabel("Background colour", { exact: true }).inputValue()).toBe("#10243e");
    expect(await background()).toBe("rgb(16, 36, 62)");
    await accessible(page);

    await page.getByLabel("Insights colour", { exact: true }).fill("#f2a541");
    await page.getByRole("button", { name: "Create link" }).click();
    await page.getByRole("heading", { name: "Link created" }).waitFor();
    await page.getByText("this page is the only time it can be shown").waitFor();
    await accessible(page);
    const url = await page.getByLabel("Link").inputValue();
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByText("Copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    expect(await page.getByRole("link", { name: "Open the page" }).getAttribute("href")).toBe(url);

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
    // The row is named by its conversation, then its label.
    expect(await row.getByRole("rowheader").innerText()).toBe("Remote control design\nFor the board");
    expect(await cells.nth(0).textContent()).toBe("Active");
    expect(Number(await cells.nth(3).textContent())).toBeGreaterThanOrEqual(1);
    expect(await cells.nth(5).locator("time").count()).toBe(1);
    await accessible(page, ["label-content-name-mismatch"]);

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
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await accessible(page);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it("fits the lists on a phone, each row's actions on the screen", async () => {
    const { server, browser } = suite;
    const { appId, appSecret, token } = await server.newApp();
    let conversationId = "";
    for (const name of ["Quarterly planning with the regional sales leads", "Design review"]) {
      ({ conversationId } = await server.ingest(token, {
        name,
        messages: [
          { payload: { content: "We agreed on the plan for the spring." }, from: { name: "Ana Lopez" } },
          { payload: { content: "I will send the notes tomorrow." }, from: { name: "Benjamin Okafor" } },
        ],
      }));
      await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
        method: "POST",
        body: { name: "verbose-text-summary", label: `Notes of ${name}` },
      });
    }
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signInToConsole(page, server.url, appId, appSecret);
    // The last page is one conversation's own, with its links.
    for (const path of [
      "/console/conversations",
      "/console/links",
      `/console/conversations/${conversationId}`,
    ]) {
      await page.goto(server.url + path);
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        table: document.querySelector("table")?.getBoundingClientRect().width ?? 0,
        actions: [...document.querySelectorAll(".row-actions a")].map((a) => a.getBoundingClientRect().right),
      }));
      expect(widths.page, path).toBeLessThanOrEqual(390);
      expect(widths.table, path).toBeLessThanOrEqual(390);
      expect(widths.actions.length, path).toBeGreaterThan(0);
      for (const right of widths.actions) expect(right, path).toBeLessThanOrEqual(390);
      await accessible(page, ["label-content-name-mismatch"]);
    }
    await context.close();
  });
});

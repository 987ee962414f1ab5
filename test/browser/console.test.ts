import { describe, expect, it } from "vitest";
import { createLink, planningMeeting } from "../helpers/factories.ts";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { accessible, browserSuite, chromiumAvailable, recordPageErrors, signInToConsole } from "./browser.ts";

const available = chromiumAvailable();

describe.skipIf(!available)("the console in Chromium", () => {
  const suite = browserSuite();

  it("signs in, imports a QMSum meeting, follows it to completed, lists it and deletes it", async () => {
    const { server, browser } = suite;
    const { appId, appSecret } = await server.newApp();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = recordPageErrors(page);

    await page.goto(server.url);
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
    await accessible(page);

    await page.getByLabel("App id").fill(appId);
    await page.getByLabel("App secret").fill("not-the-secret");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.locator(".field-error").textContent()).toBe("appId or appSecret is wrong");
    await accessible(page);

    await page.getByLabel("App secret").fill(appSecret);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Conversations" }).waitFor();
    await accessible(page);

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Import" }).click();
    await page.getByLabel("Name").fill("Remote control design");
    await page.getByLabel(/^File \(/).setInputFiles({
      name: "broken.json",
      mimeType: "application/json",
      buffer: Buffer.from('{"messages": []}'),
    });
    await page.getByRole("button", { name: "Import" }).click();
    await expect
      .poll(() => page.locator("#field-file-error").textContent())
      .toBe("messages must NOT have fewer than 1 items");
    await accessible(page);

    const meeting = toProcessTextBody(loadMeeting("val", "ES2006a.json"));
    await page.getByLabel(/^File \(/).setInputFiles({
      name: "ES2006a.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(meeting)),
    });
    await page.getByRole("button", { name: "Import" }).click();
    // The script polls the job's page and swaps in its status, without a reload.
    await page.getByText("Completed: the conversation is analysed.").waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).pathname).toMatch(/^\/console\/jobs\//);
    await accessible(page);

    // The ways on: the conversation's own page, then the list.
    await page.getByRole("link", { name: "Open the conversation" }).click();
    await page.getByRole("heading", { name: "Remote control design", level: 1 }).waitFor();
    expect(await page.locator(".facts").textContent()).toMatch(/Completed/);
    await accessible(page);

    // Search across the conversations: hits grouped by conversation, each opening its page at the line.
    const nav = page.getByRole("navigation", { name: "Console" });
    await nav.getByRole("link", { name: "Search" }).click();
    await page.getByLabel("Search all conversations").fill("-remote");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => page.locator("#search-error").textContent()).toMatch(/excluded/);
    await page.getByLabel("Search all conversations").fill("remote");
    await page.getByRole("button", { name: "Search" }).click();
    const group = page.getByRole("region", { name: "Remote control design" });
    await expect.poll(() => group.locator(".hits mark").first().textContent()).toMatch(/^remote$/i);
    await accessible(page);
    const hit = group.locator(".hits a").first();
    const said = (await hit.locator(".snippet").textContent()) ?? "";
    await hit.click();
    await page.getByRole("heading", { name: "From the transcript" }).waitFor();
    const current = page.locator('.excerpt [aria-current="true"]');
    expect(said.replace(/…/g, "").trim().length).toBeGreaterThan(0);
    expect(await current.textContent()).toContain(said.replace(/…/g, "").trim().slice(0, 20));
    expect(new URL(page.url()).hash).toBe(`#${await current.getAttribute("id")}`);
    await page.goBack();
    await page
      .getByRole("navigation", { name: "Console" })
      .getByRole("link", { name: "Conversations" })
      .click();
    const row = page.getByRole("row", { name: /Remote control design/ });
    await expect.poll(() => row.textContent()).toMatch(/Completed/);
    expect(await row.textContent()).toMatch(/Analysed/);
    // A row's actions are named by their visible text, then the conversation (voice control users say what they see).
    await accessible(page, ["label-content-name-mismatch"]);
    await page.getByLabel("Search by name").fill("remote CONTROL");
    await page.getByRole("button", { name: "Search" }).click();
    await row.waitFor();

    await row.getByRole("link", { name: "Delete Remote control design", exact: true }).click();
    await page.getByRole("heading", { name: "Delete this conversation?" }).waitFor();
    await accessible(page);
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByText("No conversations yet").waitFor();

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it("writes times in the viewer's time zone, naming it; in UTC, saying so, without the script", async () => {
    const { server, browser } = suite;
    const { appId, appSecret, token } = await server.newApp();
    const conversationId = await planningMeeting(server, token, "Planning in New York");
    await createLink(server, token, conversationId, {
      name: "verbose-text-summary",
      summaryURLExpiresIn: 86_400,
    });
    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({
        timezoneId: "America/New_York",
        locale: "en-US",
        javaScriptEnabled,
      });
      const page = await context.newPage();
      await signInToConsole(page, server.url, appId, appSecret);
      const row = page.getByRole("row", { name: /Planning in New York/ });
      // The meeting started at 15:00 UTC on 2 November 2026 (the factories' Monday afternoon).
      expect(await row.locator("time").innerText()).toBe(
        javaScriptEnabled ? "Nov 2, 2026, 10:00 AM EST" : "2 Nov 2026, 15:00 UTC",
      );
      await page.goto(`${server.url}/console/links`);
      // The link's expiry, a day from now.
      const expires = page.getByRole("row", { name: /Planning in New York/ }).locator("time");
      expect(await expires.innerText()).toMatch(javaScriptEnabled ? / (?:AM|PM) EST$/ : / UTC$/);
      await context.close();
    }
  });
});

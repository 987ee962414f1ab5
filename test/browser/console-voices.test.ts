import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { TestServer } from "../helpers/app.ts";
import { VoicesRepository } from "../../src/modules/voices/voices.repository.ts";
import { accessible, browserSuite, chromiumAvailable, recordPageErrors, signInToConsole } from "./browser.ts";

const available = chromiumAvailable();

/**
 * A voice profile as an enrolment leaves it, heard in the conversation (enrolment itself, with the embedding
 * model, is console-voices.test.ts's).
 */
async function voiceOf(server: TestServer, appId: string, name: string, conversationId: string) {
  const voices = new VoicesRepository(server.database.db);
  const id = randomUUID();
  const at = "2026-11-28T09:30:00.000Z";
  await voices.insertProfile({
    ...{ id, app_id: appId, name, email: null, email_key: null, model: "campplus-en-voxceleb", dimension: 2 },
    ...{ created_at: at, updated_at: at },
  });
  await voices.insertReference({
    ...{ id: randomUUID(), profile_id: id, conversation_id: conversationId, member_id: randomUUID() },
    ...{ vector: Buffer.alloc(8), speech_seconds: 12.5, created_at: at },
  });
  return id;
}

describe.skipIf(!available)("the console's voices in Chromium", () => {
  const suite = browserSuite();

  it("lists a voice with where it was heard, says while voices are off, renames and deletes it", async () => {
    const { server, browser } = suite;
    const { appId, appSecret, token } = await server.newApp();
    const { conversationId } = await server.ingest(token, {
      name: "Quarterly planning",
      messages: [{ payload: { content: "We agreed on the plan." }, from: { name: "Ada Lovelace" } }],
    });
    await voiceOf(server, appId, "Ada Lovelace", conversationId);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = recordPageErrors(page);
    await signInToConsole(page, server.url, appId, appSecret);

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Voices" }).click();
    await page.getByRole("heading", { name: "Voices", level: 1 }).waitFor();
    await page.getByText("Voice profiles are off for this app").waitFor();
    expect(
      await page.getByRole("link", { name: "Turn voice profiles on in the settings" }).getAttribute("href"),
    ).toBe("/console/settings#field-voiceProfiles");
    const row = page.getByRole("row", { name: /Ada Lovelace/ });
    expect(await row.getByRole("link", { name: "Quarterly planning" }).getAttribute("href")).toBe(
      `/console/conversations/${conversationId}`,
    );
    // A row's actions are named by their visible text, then the voice (voice control users say what they see).
    await accessible(page, ["label-content-name-mismatch"]);

    await row.getByRole("link", { name: "Rename Ada Lovelace", exact: true }).click();
    await page.getByRole("heading", { name: "Ada Lovelace", level: 1 }).waitFor();
    await accessible(page);
    await page.getByLabel("E-mail (empty: none)").fill("not an e-mail");
    await page.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(() => page.locator("#field-email-error").textContent())
      .toBe('E-mail must match format "email"');
    await accessible(page);
    await page.getByLabel("Name").fill("Ada King");
    await page.getByLabel("E-mail (empty: none)").fill("ada@example.org");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Voice renamed.").waitFor();
    await page.getByRole("heading", { name: "Ada King", level: 1 }).waitFor();

    await page.getByRole("link", { name: "Delete this voice…" }).click();
    await page.getByRole("heading", { name: "Delete this voice?" }).waitFor();
    await accessible(page);
    await page.getByRole("button", { name: "Delete the voice" }).click();
    await page.getByText("No voices saved yet.").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits the list on a phone, each row's actions on the screen", async () => {
    const { server, browser } = suite;
    const { appId, appSecret, token } = await server.newApp();
    await server.services.apps.updateApp(appId, { voiceProfiles: true });
    const { conversationId } = await server.ingest(token, {
      name: "Quarterly planning with the regional sales leads",
      messages: [{ payload: { content: "We agreed on the plan." }, from: { name: "Benjamin Okafor" } }],
    });
    for (const name of ["Benjamin Okafor-Whitfield", "Benjamin Okafor-Whitfield"]) {
      await voiceOf(server, appId, name, conversationId);
    }
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signInToConsole(page, server.url, appId, appSecret);
    await page.goto(`${server.url}/console/voices`);
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      table: document.querySelector("table")?.getBoundingClientRect().width ?? 0,
      actions: [...document.querySelectorAll(".row-actions a")].map((a) => a.getBoundingClientRect().right),
    }));
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.table).toBeLessThanOrEqual(390);
    expect(widths.actions).toHaveLength(4);
    for (const right of widths.actions) expect(right).toBeLessThanOrEqual(390);
    await accessible(page, ["label-content-name-mismatch"]);
    await context.close();
  });
});

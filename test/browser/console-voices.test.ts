import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { waitForJob, type TestServer } from "../helpers/app.ts";
import { writeRecording } from "../helpers/audio.ts";
import type * as Body from "../helpers/bodies.ts";
import { MediaKit } from "../helpers/media.ts";
import { VoicesRepository } from "../../src/modules/voices/voices.repository.ts";
import { installToneDiarization, installToneEngine, VOICES } from "../../scripts/speech-models/models.ts";
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
  // The local engine on generated models, which diarize two tones as two voices (as voices.test.ts's).
  const kit = new MediaKit();
  const suite = browserSuite(() => {
    const modelsDir = join(kit.dir, "models");
    installToneDiarization(modelsDir);
    return { env: { ...installToneEngine(modelsDir), RECAP_MEDIA_DIR: join(kit.dir, "store") } };
  });
  afterAll(() => kit.close());

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

  it("saves a named member's voice from a recorded conversation's page", async () => {
    const { server, browser } = suite;
    const { appId, appSecret, token } = await server.newApp();
    await server.services.apps.updateApp(appId, { voiceProfiles: true });
    const file = join(kit.dir, "meeting.flac");
    const [low, high] = VOICES;
    writeRecording(file, [
      { silence: 0.5 },
      { tone: low, seconds: 2 },
      { silence: 1 },
      { tone: high, seconds: 1.5 },
      { silence: 1 },
      { tone: low, seconds: 2 },
      { silence: 1 },
    ]);
    const uploaded = await fetch(
      `${server.url}/v1/process/audio?name=Weekly%20sync&enableSpeakerDiarization=true&diarizationSpeakerCount=2`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "audio/flac" },
        body: readFileSync(file),
      },
    );
    const { conversationId, jobId } = (await uploaded.json()) as Body.Accepted;
    expect(await waitForJob(server, token, jobId)).toBe("completed");
    const members = await server.api(token, `/v1/conversations/${conversationId}/members`);
    const [ada] = ((await members.json()) as Body.MemberList).members;
    await server.api(token, `/v1/conversations/${conversationId}/members/${ada!.id}`, {
      method: "PUT",
      body: { id: ada!.id, name: "Ada Lovelace" },
    });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = recordPageErrors(page);
    await signInToConsole(page, server.url, appId, appSecret);
    await page.goto(`${server.url}/console/conversations/${conversationId}`);
    await page.getByRole("heading", { name: "Weekly sync", level: 1 }).waitFor();
    await accessible(page);
    await page.getByRole("button", { name: "Save this voice of Ada Lovelace" }).click();
    await page.getByText("Saved the voice of Ada Lovelace.").waitFor();
    await accessible(page);
    await page.getByRole("link", { name: "See the voice" }).click();
    await page.getByRole("heading", { name: "Ada Lovelace", level: 1 }).waitFor();
    expect(await page.getByRole("link", { name: "Weekly sync" }).getAttribute("href")).toBe(
      `/console/conversations/${conversationId}`,
    );
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);
});

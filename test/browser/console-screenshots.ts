/**
 * Writes the console's screenshots into docs/, each at 1280×860 and (`-phone`) 390×844, of an app with two
 * QMSum meetings (Bed015, 1,257 lines, and IS1006a), a voice memo transcribed without speaker names (espeak-ng,
 * through the test's stand-in transcription server) and a brand: console.png (the conversations),
 * console-conversation.png (one conversation's page with its links), console-link.png (creating a link,
 * with its preview of the meeting's own lines), console-link-created.png, console-links.png (links of three
 * conversations, some unlabelled), console-import.png (a recording's options), console-settings.png (full
 * page, the brand form included), console-voices.png (three voice profiles, two of one name, each with the
 * conversations it was heard in) and console-conversation-voices.png (the long meeting's page with one speaker
 * named by voice and one voice suggested).
 * Run with `npm run build:client && node --import tsx test/browser/console-screenshots.ts`.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { readFileSync } from "node:fs";
import { startTestServer, waitForJob } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { MediaKit } from "../helpers/media.ts";
import { startSpeechServer } from "../helpers/speech-server.ts";
import { startFontCatalogue } from "../helpers/font-catalogue.ts";
import { loadMeeting, toProcessTextBody } from "../helpers/qmsum.ts";
import { VoicesRepository } from "../../src/modules/voices/voices.repository.ts";
import { DOCS, launchChromium, signInToConsole } from "./browser.ts";

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

const catalogue = await startFontCatalogue();
const MEMO = [
  { text: "Site visit at the north entrance", atSeconds: 0.3 },
  { text: "The ramp needs a handrail before the opening", atSeconds: 4 },
];
const speech = await startSpeechServer("openai", (seconds) => (seconds < 2 ? MEMO[0]!.text : MEMO[1]!.text));
const kit = new MediaKit();
// Links as a deployment shows them (nothing here opens one).
const server = await startTestServer("sqlite", {
  env: {
    ...catalogue.env,
    RECAP_PUBLIC_URL: "https://recap.example.com",
    RECAP_ASR_URL: speech.url,
    RECAP_MEDIA_DIR: join(kit.dir, "store"),
  },
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
  const memo = await fetch(`${server.url}/v1/process/audio?name=Site%20visit%20voice%20memo`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
    body: readFileSync(await kit.speech(MEMO, 8)),
  });
  const recorded = (await memo.json()) as Body.Accepted;
  if ((await waitForJob(server, token, recorded.jobId)) !== "completed") throw new Error("the memo failed");
  const design = await server.ingest(token, toProcessTextBody(loadMeeting("val", "IS1006a.json")));
  const { conversationId } = await server.ingest(token, toProcessTextBody(loadMeeting("val", "Bed015.json")));
  // Unlabelled links of the other two: on a phone each row still says which conversation it opens.
  for (const other of [recorded.conversationId, design.conversationId, design.conversationId]) {
    await server.api(token, `/v1/conversations/${other}/experiences`, {
      method: "POST",
      body: { name: other === recorded.conversationId ? "audio-summary" : "verbose-text-summary" },
    });
  }
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

  await page.goto(`${server.url}/console/import`);
  await page.getByLabel("Speaker on channel 1").fill("Support agent");
  await page.getByLabel("Speaker on channel 2").fill("Customer");
  await shoot(page, "console-import", true);

  await page.goto(`${server.url}/console/conversations/${recorded.conversationId}`);
  await shoot(page, "console-recording");

  await page.goto(`${server.url}/console/settings`);
  await shoot(page, "console-settings", true);

  // Voice profiles as enrolments leave them (the screenshot needs no embedding model): the rows and the
  // references naming where each was heard, two people called Sam Patel among them.
  await server.services.apps.updateApp(appId, { voiceProfiles: true });
  const voices = new VoicesRepository(server.database.db);
  const voiceProfiles = [
    { name: "Ada Lovelace", email: "ada@acme.example", heardIn: [recorded.conversationId, conversationId] },
    { name: "Sam Patel", email: "sam.patel@acme.example", heardIn: [design.conversationId] },
    { name: "Sam Patel", email: null, heardIn: [conversationId] },
  ];
  const profileIds: string[] = [];
  for (const [index, voice] of voiceProfiles.entries()) {
    const profileId = randomUUID();
    profileIds.push(profileId);
    const at = `2026-11-2${index + 1}T09:30:00.000Z`;
    await voices.insertProfile({
      id: profileId,
      app_id: appId,
      name: voice.name,
      email: voice.email,
      email_key: voice.email,
      model: "campplus-en-voxceleb",
      dimension: 192,
      created_at: at,
      updated_at: voice.heardIn.length > 1 ? "2026-11-28T16:05:00.000Z" : at,
    });
    for (const [heard, heardInId] of voice.heardIn.entries()) {
      await voices.insertReference({
        id: randomUUID(),
        profile_id: profileId,
        conversation_id: heardInId,
        member_id: randomUUID(),
        vector: Buffer.alloc(4 * 192),
        speech_seconds: 42.5 - 11 * heard - 7 * index,
        created_at: at,
      });
    }
  }
  await page.goto(`${server.url}/console/voices`);
  await shoot(page, "console-voices");

  // The long meeting's speakers as matching leaves them: one named by Ada's voice, one Sam Patel's voice is suggested for.
  const { members } = await server.services.conversations.getConversation(appId, conversationId);
  const [named, suggested] = members;
  if (!named || !suggested) throw new Error("Bed015 has fewer than two members");
  await server.services.conversations.updateMember(appId, conversationId, named.id, {
    id: named.id,
    name: "Ada Lovelace",
    email: "ada@acme.example",
  });
  await server.services.conversations.markVoice(conversationId, named.id, {
    voice_id: profileIds[0] ?? null,
    voice_score: 0.912,
    diarized_name: named.name,
  });
  await server.services.conversations.markVoice(conversationId, suggested.id, {
    suggested_voice_id: profileIds[1] ?? null,
    suggested_voice_name: "Sam Patel",
    suggested_voice_score: 0.534,
  });
  await page.goto(`${server.url}/console/conversations/${conversationId}`);
  await shoot(page, "console-conversation-voices");
} finally {
  await browser.close();
  await server.close();
  await catalogue.close();
  await speech.close();
  kit.close();
}

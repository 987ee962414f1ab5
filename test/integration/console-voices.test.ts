// The console's voice profiles, as their owner uses them: "Save this voice" beside a named member of a diarized
// recording (generated models: two tones the embedding model tells apart), the Voices page listing each voice with
// the conversations it was heard in, renaming, deleting after a confirmation, and the page while voices are off.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { dialects } from "../helpers/databases.ts";
import { MediaKit } from "../helpers/media.ts";
import { MEETING, recordingOf, voiceEngine } from "../helpers/voices.ts";

/** A page's text as the browser shows it: its quotes and apostrophes unescaped. */
const shown = async (response: Response) =>
  (await response.text()).replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");

/** The text of a page's error under a field, as the console shows it. */
const fieldError = (html: string, field: string) =>
  new RegExp(`id="field-${field}-error">([^<]*)<`).exec(html)?.[1] ?? null;

describe.each(await dialects())("the console's voices on %s", (dialect) => {
  const kit = new MediaKit();
  let server: TestServer;
  let recording: Buffer<ArrayBuffer>;

  beforeAll(async () => {
    server = await startTestServer(dialect, { env: voiceEngine(kit), runJobs: false });
    recording = recordingOf(kit, "meeting", MEETING);
  });
  afterAll(async () => {
    await server.close();
    kit.close();
  });

  async function signedIn() {
    const app = await server.newApp();
    const client = new ConsoleClient(server);
    expect((await client.signIn(app.appId, app.appSecret)).status).toBe(303);
    return { client, token: app.token, api: apiClient(server.url, app.token) };
  }

  /** Uploads the meeting, diarized, named `name`, and runs its job: the conversation and its two members. */
  async function recorded(token: string, name: string) {
    const response = await fetch(
      `${server.url}/v1/process/audio?name=${encodeURIComponent(name)}&enableSpeakerDiarization=true&diarizationSpeakerCount=2`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "audio/flac" },
        body: recording,
      },
    );
    expect(response.status, await response.clone().text()).toBe(201);
    const { conversationId, jobId } = (await response.json()) as Body.Accepted;
    expect(await waitForJob(server, token, jobId)).toBe("completed");
    const members = await apiClient(server.url, token).get<Body.MemberList>(
      `/v1/conversations/${conversationId}/members`,
    );
    const [low, high] = members.body.members;
    return { conversationId, low: low!, high: high! };
  }

  async function rename(
    token: string,
    conversationId: string,
    memberId: string,
    name: string,
    email?: string,
  ) {
    const renamed = await apiClient(server.url, token).put(
      `/v1/conversations/${conversationId}/members/${memberId}`,
      { id: memberId, name, ...(email !== undefined && { email }) },
    );
    expect(renamed.status, renamed.text).toBe(200);
  }

  const saveVoice = (client: ConsoleClient, conversationId: string, memberId: string) =>
    client.request(`/console/conversations/${conversationId}/voices`, {
      method: "POST",
      body: new URLSearchParams({ memberId }),
    });

  it('says when the app keeps no voices, links to the switch, and offers no "Save this voice"', async () => {
    const { client, token } = await signedIn();
    const { conversationId, low } = await recorded(token, "Weekly sync");
    await rename(token, conversationId, low.id, "Ada");

    const voices = await client.request("/console/voices");
    expect(voices.status).toBe(200);
    const page = await shown(voices);
    expect(page).toContain('<a href="/console/voices">Voices</a>');
    expect(page).toContain("Voice profiles are off for this app");
    expect(page).toContain('href="/console/settings#field-voiceProfiles"');
    expect(page).toContain("No voices saved yet.");
    expect(await shown(await client.request(`/console/conversations/${conversationId}`))).not.toContain(
      "Save this voice",
    );

    // Posted all the same (a page shown before the switch went off): the API's refusal, on the conversation's page.
    const refused = await saveVoice(client, conversationId, low.id);
    expect(refused.status).toBe(403);
    expect(await shown(refused)).toContain(
      'The voice of Ada was not changed: voice profiles are off for this app: turn them on with PATCH /v1/app {"voiceProfiles": true}',
    );
  }, 60_000);

  it("saves a named member's voice from its conversation, lists it where it was heard, renames and deletes it", async () => {
    const { client, token, api } = await signedIn();
    expect((await api.patch("/v1/app", { voiceProfiles: true })).status).toBe(200);
    const first = await recorded(token, "Budget review");
    await rename(token, first.conversationId, first.low.id, "Ada Lovelace", "ada@example.org");

    const conversation = await shown(await client.request(`/console/conversations/${first.conversationId}`));
    // Beside the named member only: "Speaker 2" is still unnamed.
    expect(conversation.match(/Save this voice/g)).toHaveLength(1);
    expect(conversation).toContain(`name="memberId" value="${first.low.id}"`);
    expect(conversation).toContain('Save this voice<span class="visually-hidden"> of Ada Lovelace</span>');

    const saved = await saveVoice(client, first.conversationId, first.low.id);
    expect(saved.status).toBe(201);
    const savedPage = await shown(saved);
    expect(savedPage).toContain("Saved the voice of Ada Lovelace.");
    const [voice] = (await api.get<Body.VoiceList>("/v1/voices")).body.voices;
    expect(voice).toMatchObject({ name: "Ada Lovelace", conversations: [first.conversationId] });
    expect(savedPage).toContain(`href="/console/voices/${voice!.id}"`);

    const refined = await saveVoice(client, first.conversationId, first.low.id);
    expect(refined.status).toBe(200);
    expect(await shown(refined)).toContain("Refined the voice of Ada Lovelace.");

    // The API's refusals, in its words: an unnamed member, then too little speech.
    const unnamed = await saveVoice(client, first.conversationId, first.high.id);
    expect(unnamed.status).toBe(422);
    expect(await shown(unnamed)).toContain(
      `member ${first.high.id} is still "Speaker 2": name the member first`,
    );
    await rename(token, first.conversationId, first.high.id, "Grace");
    const short = await saveVoice(client, first.conversationId, first.high.id);
    expect(short.status).toBe(422);
    expect(await shown(short)).toMatch(
      new RegExp(
        `The voice of Grace was not changed: member ${first.high.id} has 1\\.[3-7] seconds of speech`,
      ),
    );

    // Another Ada Lovelace, with another e-mail: a voice of her own, each listed with where it was heard.
    const second = await recorded(token, "Design critique");
    await rename(token, second.conversationId, second.low.id, "Ada Lovelace", "ada.lovelace@example.com");
    expect((await saveVoice(client, second.conversationId, second.low.id)).status).toBe(201);
    const list = await client.request("/console/voices");
    expect(list.status).toBe(200);
    const listed = await shown(list);
    expect(listed).not.toContain("Voice profiles are off");
    const rows = listed.split("<tr>").slice(2);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(`href="/console/voices/${voice!.id}">Ada Lovelace</a>`);
    expect(rows[0]).toContain("ada@example.org");
    expect(rows[0]).toContain(`<a href="/console/conversations/${first.conversationId}">Budget review</a>`);
    expect(rows[0]).not.toContain("Design critique");
    expect(rows[1]).toContain(">Ada Lovelace</a>");
    expect(rows[1]).toContain("ada.lovelace@example.com");
    expect(rows[1]).toContain(
      `<a href="/console/conversations/${second.conversationId}">Design critique</a>`,
    );
    expect(rows[1]).not.toContain("Budget review");
    expect(listed).toMatch(/\d+(\.\d)? s of speech/);

    // Renamed, its e-mail removed: through PATCH /v1/voices/{id}'s rules.
    const voicePage = await client.request(`/console/voices/${voice!.id}`);
    expect(voicePage.status).toBe(200);
    expect(await voicePage.text()).toContain('id="field-email" name="email"');
    const renamed = await client.request(`/console/voices/${voice!.id}`, {
      method: "POST",
      body: new URLSearchParams({ name: " Ada King ", email: "" }),
    });
    expect(renamed.status).toBe(303);
    expect(renamed.headers.get("location")).toBe(`/console/voices/${voice!.id}?saved=1`);
    expect(await shown(await client.request(`/console/voices/${voice!.id}?saved=1`))).toContain(
      "Voice renamed.",
    );
    expect((await api.get<Body.Voice>(`/v1/voices/${voice!.id}`)).body).toMatchObject({
      name: "Ada King",
      email: null,
    });

    // Refused, each under its field and nothing stored: a bad e-mail, a blank name, another voice's e-mail.
    const otherId = (await api.get<Body.VoiceList>("/v1/voices")).body.voices[1]!.id;
    expect((await api.patch(`/v1/voices/${otherId}`, { email: "grace@example.org" })).status).toBe(200);
    for (const [form, status, field, message] of [
      [{ name: "Ada", email: "not an e-mail" }, 400, "email", /^E-mail must match format "email"$/],
      [{ name: "   ", email: "" }, 400, "name", /^Name must not be blank$/],
      [
        { name: "Ada", email: "Grace@example.org" },
        409,
        "email",
        /^E-mail Grace@example.org is already voice /,
      ],
    ] as const) {
      const refused = await client.request(`/console/voices/${voice!.id}`, {
        method: "POST",
        body: new URLSearchParams(form),
      });
      expect(refused.status, JSON.stringify(form)).toBe(status);
      const page = await shown(refused);
      expect(fieldError(page, field)).toMatch(message);
      expect(page).toContain(`value="${form.name}"`);
    }
    expect((await api.get<Body.Voice>(`/v1/voices/${voice!.id}`)).body).toMatchObject({
      name: "Ada King",
      email: null,
    });

    // Deleted after a confirmation: the voice and its references go at once.
    const confirm = await client.request(`/console/voices/${voice!.id}/delete`);
    expect(confirm.status).toBe(200);
    const confirmation = await confirm.text();
    expect(confirmation).toContain("Delete this voice?");
    expect(confirmation).toContain(`<form method="post" action="/console/voices/${voice!.id}/delete"`);
    expect((await api.get(`/v1/voices/${voice!.id}`)).status).toBe(200);
    const deleted = await client.request(`/console/voices/${voice!.id}/delete`, { method: "POST" });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe("/console/voices");
    expect((await api.get(`/v1/voices/${voice!.id}`)).status).toBe(404);
    expect(await shown(await client.request("/console/voices"))).not.toContain("Ada King");
    expect((await client.request(`/console/voices/${voice!.id}`)).status).toBe(404);
  }, 180_000);

  it("keeps another app's voice out of reach", async () => {
    const owner = await signedIn();
    await owner.api.patch("/v1/app", { voiceProfiles: true });
    const { conversationId, low } = await recorded(owner.token, "Standup");
    await rename(owner.token, conversationId, low.id, "Margaret");
    expect((await saveVoice(owner.client, conversationId, low.id)).status).toBe(201);
    const [voice] = (await owner.api.get<Body.VoiceList>("/v1/voices")).body.voices;

    const stranger = await signedIn();
    expect((await stranger.client.request(`/console/voices/${voice!.id}`)).status).toBe(404);
    expect(
      (await stranger.client.request(`/console/voices/${voice!.id}/delete`, { method: "POST" })).status,
    ).toBe(404);
    expect((await saveVoice(stranger.client, conversationId, low.id)).status).toBe(404);
    expect((await owner.api.get(`/v1/voices/${voice!.id}`)).status).toBe(200);
  }, 60_000);
});

import { readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import { writeRecording, writeWav16k, type Part } from "../helpers/audio.ts";
import type * as Body from "../helpers/bodies.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { dialects } from "../helpers/databases.ts";
import { MediaHost, MediaKit } from "../helpers/media.ts";
import { linear16, startStream, stream } from "../helpers/live.ts";
import { startSpeechServer, type SpeechServer } from "../helpers/speech-server.ts";
import { until } from "../helpers/wait.ts";
import { HIGH, LOW, recordingOf, voiceEngine } from "../helpers/voices.ts";
import { installToneDiarization } from "../../scripts/speech-models/models.ts";

/** Recording A: the low voice speaks first (Speaker 1), 6 s in two lines; the high one 1.5 s between them. */
const RECORDING_A: Part[] = [
  { silence: 0.5 },
  { tone: LOW, seconds: 3 },
  { silence: 1 },
  { tone: HIGH, seconds: 1.5 },
  { silence: 1 },
  { tone: LOW, seconds: 3 },
  { silence: 1 },
];

/** Recording B: the same two voices, the high one first (Speaker 1), each with more than 2 s of clean speech. */
const RECORDING_B: Part[] = [
  { silence: 0.5 },
  { tone: HIGH, seconds: 3 },
  { silence: 1 },
  { tone: LOW, seconds: 3 },
  { silence: 1 },
  { tone: HIGH, seconds: 1 },
  { silence: 1 },
];

/** Recording C: the high voice alone. */
const RECORDING_C: Part[] = [{ silence: 0.5 }, { tone: HIGH, seconds: 3 }, { silence: 1 }];

/** Recording D: the high voice alone, long enough (4 s) for a profile to learn from. */
const RECORDING_D: Part[] = [{ silence: 0.5 }, { tone: HIGH, seconds: 4 }, { silence: 1 }];

describe.each(await dialects())("voice matching on diarized jobs on %s", (dialect) => {
  const kit = new MediaKit();
  const recordings = new Map<Part[], Buffer<ArrayBuffer>>();
  let server: TestServer;
  let host: MediaHost;

  beforeAll(async () => {
    // A suggestion threshold below any score the generated voices give, so a stranger's voice is suggested.
    host = await new MediaHost().listen();
    server = await startTestServer(dialect, {
      env: { ...voiceEngine(kit), RECAP_VOICE_SUGGEST: "-0.5", RECAP_MEDIA_ALLOW_HOSTS: "localhost" },
    });
    for (const [name, parts] of [
      ["a", RECORDING_A],
      ["b", RECORDING_B],
      ["c", RECORDING_C],
      ["d", RECORDING_D],
    ] as const) {
      recordings.set(parts, recordingOf(kit, name, parts));
    }
  });
  afterAll(async () => {
    await server.close();
    await host.close();
    kit.close();
  });

  /** A new app of its own, with voice profiles on, and what it needs to upload and read. */
  async function newApp() {
    const { token, appId, appSecret } = await server.newApp();
    const api = apiClient(server.url, token);
    expect((await api.patch("/v1/app", { voiceProfiles: true })).status).toBe(200);
    return {
      api,
      token,
      /** The app's console, signed in. */
      async console() {
        const client = new ConsoleClient(server);
        expect((await client.signIn(appId, appSecret)).status).toBe(303);
        return client;
      },
      /** Uploads a recording diarized into `speakers`, runs its job and answers the conversation's members. */
      async diarized(parts: Part[], speakers = 2) {
        const response = await fetch(
          `${server.url}/v1/process/audio?enableSpeakerDiarization=true&diarizationSpeakerCount=${speakers}`,
          {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "audio/flac" },
            body: recordings.get(parts),
          },
        );
        expect(response.status, await response.clone().text()).toBe(201);
        const { conversationId, jobId } = (await response.json()) as Body.Accepted;
        expect(await waitForJob(server, token, jobId)).toBe("completed");
        const { body } = await api.get<Body.MemberList>(`/v1/conversations/${conversationId}/members`);
        return { conversationId, members: body.members };
      },
    };
  }

  /** Enrols Speaker 1 of recording A (the low voice) as Ada; answers her voice's id. */
  async function enrolAda(app: Awaited<ReturnType<typeof newApp>>): Promise<string> {
    const { conversationId, members } = await app.diarized(RECORDING_A);
    const [speaker] = members;
    const renamed = await app.api.put(`/v1/conversations/${conversationId}/members/${speaker!.id}`, {
      id: speaker!.id,
      name: "Ada",
      email: "ada@example.org",
    });
    expect(renamed.status, renamed.text).toBe(200);
    const voice = await app.api.post<Body.Voice>("/v1/voices", { conversationId, memberId: speaker!.id });
    expect(voice.status, voice.text).toBe(201);
    return voice.body.id;
  }

  it("names the speaker of a new recording whose voice was enrolled, and only that one", async () => {
    const app = await newApp();
    const voiceId = await enrolAda(app);

    const { conversationId, members } = await app.diarized(RECORDING_B);
    expect(members).toEqual([
      { id: expect.any(String) as string, name: "Speaker 1" },
      {
        id: expect.any(String) as string,
        name: "Ada",
        email: "ada@example.org",
        voice: { id: voiceId, score: expect.any(Number) as number },
      },
    ]);
    // The generated voices are orthogonal tones: the same voice scores about 1 (raw cosine).
    expect(members[1]?.voice?.score).toBeGreaterThan(0.9);
    const { body } = await app.api.get<Body.MessageList>(`/v1/conversations/${conversationId}/messages`);
    expect(new Set(body.messages.map((message) => message.from?.name))).toEqual(
      new Set(["Speaker 1", "Ada"]),
    );

    // A recording of the high voice alone: not Ada's, so only suggested (RECAP_VOICE_SUGGEST is -0.5 here).
    const alone = await app.diarized(RECORDING_C, 1);
    expect(alone.members).toEqual([
      {
        id: expect.any(String) as string,
        name: "Speaker 1",
        suggestedVoice: { id: voiceId, name: "Ada", score: expect.any(Number) as number },
      },
    ]);
    expect(alone.members[0]?.suggestedVoice?.score).toBeLessThan(0.6);
  }, 120_000);

  it("matches nothing while the app has voice profiles off, nor with a deleted profile", async () => {
    const app = await newApp();
    const voiceId = await enrolAda(app);
    const unnamed = [
      { id: expect.any(String) as string, name: "Speaker 1" },
      { id: expect.any(String) as string, name: "Speaker 2" },
    ];

    expect((await app.api.patch("/v1/app", { voiceProfiles: false })).status).toBe(200);
    expect((await app.diarized(RECORDING_B)).members).toEqual(unnamed);

    expect((await app.api.patch("/v1/app", { voiceProfiles: true })).status).toBe(200);
    expect((await app.api.delete(`/v1/voices/${voiceId}`)).status).toBe(204);
    expect((await app.diarized(RECORDING_B)).members).toEqual(unnamed);
  }, 120_000);

  it("confirms a suggestion, which names the member and teaches the voice, and undoes it all", async () => {
    const app = await newApp();
    const voiceId = await enrolAda(app);
    const { conversationId, members } = await app.diarized(RECORDING_D, 1);
    const memberId = members[0]!.id;
    const voice = `/v1/conversations/${conversationId}/members/${memberId}/voice`;
    expect(members[0]?.suggestedVoice?.id).toBe(voiceId);

    const confirmed = await app.api.put<Body.Member>(voice, { voiceId });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body).toEqual({
      id: memberId,
      name: "Ada",
      email: "ada@example.org",
      voice: { id: voiceId, score: members[0]?.suggestedVoice?.score },
    });
    const lines = async () =>
      (await app.api.get<Body.MessageList>(`/v1/conversations/${conversationId}/messages`)).body.messages.map(
        (message) => message.from,
      );
    expect(new Set((await lines()).map((from) => from?.name))).toEqual(new Set(["Ada"]));
    const learned = await app.api.get<Body.Voice>(`/v1/voices/${voiceId}`);
    expect(learned.body.conversations).toContain(conversationId);
    expect((await app.api.put(voice, { voiceId })).status).toBe(200);

    const undone = await app.api.delete<Body.Member>(voice);
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body).toEqual({ id: memberId, name: "Speaker 1" });
    expect(new Set((await lines()).map((from) => from?.name))).toEqual(new Set(["Speaker 1"]));
    expect((await app.api.get<Body.Voice>(`/v1/voices/${voiceId}`)).body.conversations).not.toContain(
      conversationId,
    );
    expect((await app.api.delete(voice)).status).toBe(404);

    // The rejection is remembered: the same voice is no longer suggested as Ada.
    expect((await app.diarized(RECORDING_D, 1)).members).toEqual([
      { id: expect.any(String) as string, name: "Speaker 1" },
    ]);
  }, 120_000);

  it("undoes a confident match, and a rename by hand replaces what matching said", async () => {
    const app = await newApp();
    const voiceId = await enrolAda(app);
    const first = await app.diarized(RECORDING_B);
    const ada = first.members[1]!;
    expect(ada.voice?.id).toBe(voiceId);
    const undone = await app.api.delete<Body.Member>(
      `/v1/conversations/${first.conversationId}/members/${ada.id}/voice`,
    );
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body).toEqual({ id: ada.id, name: "Speaker 2" });
    const { body } = await app.api.get<Body.MessageList>(
      `/v1/conversations/${first.conversationId}/messages`,
    );
    expect(body.messages.map((message) => message.from?.name)).not.toContain("Ada");

    // Told that this voice is not Ada's, matching does not name it Ada again.
    expect((await app.diarized(RECORDING_B)).members.map((member) => member.name)).toEqual([
      "Speaker 1",
      "Speaker 2",
    ]);

    const fresh = await newApp();
    await enrolAda(fresh);
    const second = await fresh.diarized(RECORDING_B);
    const grace = second.members.find((member) => member.voice !== undefined)!;
    const renamed = await fresh.api.put(`/v1/conversations/${second.conversationId}/members/${grace.id}`, {
      id: grace.id,
      name: "Grace",
    });
    expect(renamed.status, renamed.text).toBe(200);
    const { body: after } = await fresh.api.get<Body.MemberList>(
      `/v1/conversations/${second.conversationId}/members`,
    );
    expect(after.members.find((member) => member.id === grace.id)).toEqual({
      id: grace.id,
      name: "Grace",
      email: "ada@example.org",
    });
  }, 120_000);

  it("refuses to confirm what was not suggested, and to undo what no voice named", async () => {
    const app = await newApp();
    const voiceId = await enrolAda(app);
    const { conversationId, members } = await app.diarized(RECORDING_D, 1);
    const voice = `/v1/conversations/${conversationId}/members/${members[0]!.id}/voice`;
    const other = await newApp();

    const unknown = await app.api.put(voice, { voiceId: "3f1e8a4c-0000-4000-8000-000000000000" });
    expect(unknown.status, unknown.text).toBe(404);
    expect((await app.api.put(voice, { voiceId: "not-a-voice" })).status).toBe(400);
    expect((await app.api.put(voice, {})).status).toBe(400);
    expect((await other.api.put(voice, { voiceId })).status).toBe(404);
    expect((await other.api.delete(voice)).status).toBe(404);

    const unnamed = await app.diarized(RECORDING_B);
    const speaker1 = `/v1/conversations/${unnamed.conversationId}/members/${unnamed.members[0]!.id}/voice`;
    const notSuggested = await app.api.put(speaker1, { voiceId });
    expect(notSuggested.status, notSuggested.text).toBe(409);
    expect(notSuggested.body).toMatchObject({
      message: expect.stringMatching(/not the voice suggested/) as string,
    });
    expect((await app.api.delete(speaker1)).status).toBe(404);
    expect(
      (await app.api.get<Body.MemberList>(`/v1/conversations/${unnamed.conversationId}/members`)).body
        .members[0],
    ).toEqual({ id: unnamed.members[0]!.id, name: "Speaker 1" });
  }, 120_000);

  it("shows a conversation's voice-named and suggested speakers in the console, to confirm, reject or undo", async () => {
    const app = await newApp();
    const voiceId = await enrolAda(app);
    const client = await app.console();
    const page = async (conversationId: string) =>
      (await (await client.request(`/console/conversations/${conversationId}`)).text()).replaceAll(
        "&#39;",
        "'",
      );
    const post = (conversationId: string, action: string, form: Record<string, string>) =>
      client.request(`/console/conversations/${conversationId}/voices/${action}`, {
        method: "POST",
        body: new URLSearchParams(form),
      });

    const suggested = await app.diarized(RECORDING_D, 1);
    const speaker = suggested.members[0]!;
    const shown = await page(suggested.conversationId);
    expect(shown).toContain("sounds like Ada");
    expect(shown).toContain(`name="voiceId" value="${voiceId}"`);
    const confirmed = await post(suggested.conversationId, "confirm", { memberId: speaker.id, voiceId });
    expect(confirmed.status).toBe(200);
    const confirmedPage = await confirmed.text();
    expect(confirmedPage).toContain("Confirmed: Ada. The voice learned from this recording.");
    expect(confirmedPage).toContain("named by voice");
    expect(confirmedPage).not.toContain("sounds like Ada");

    const undone = await post(suggested.conversationId, "undo", { memberId: speaker.id });
    expect(undone.status).toBe(200);
    const undonePage = (await undone.text()).replaceAll("&#39;", "'");
    expect(undonePage).toContain("Speaker 1 is no longer named by voice");
    expect(undonePage).not.toContain("named by voice</span");
    expect(
      (await app.api.get<Body.MemberList>(`/v1/conversations/${suggested.conversationId}/members`)).body
        .members,
    ).toEqual([{ id: speaker.id, name: "Speaker 1" }]);

    // A suggestion rejected is gone; confirming a voice no longer suggested is the API's refusal, said on the page.
    const again = await app.diarized(RECORDING_C, 1);
    const refused = await post(again.conversationId, "confirm", { memberId: again.members[0]!.id, voiceId });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(
      `The voice of Speaker 1 was not changed: voice ${voiceId} is not the voice suggested`,
    );
  }, 120_000);

  it('matches a channel channelMetadata leaves unnamed ("Channel 2"), and leaves the named one as named', async () => {
    const app = await newApp();
    const voiceId = await enrolAda(app);
    // Each side mono, so the call has two channels: the agent's, then the customer's.
    const mono = (name: string, parts: Part[]) => {
      writeRecording(join(kit.dir, `${name}.flac`), parts);
      writeWav16k(join(kit.dir, `${name}.flac`), join(kit.dir, `${name}.wav`));
      return join(kit.dir, `${name}.wav`);
    };
    const call = await kit.channels([
      mono("agent", [{ silence: 0.5 }, { tone: HIGH, seconds: 2 }, { silence: 6 }]),
      mono("customer", [{ silence: 3.5 }, { tone: LOW, seconds: 4 }, { silence: 1 }]),
    ]);
    const metadata = encodeURIComponent(
      '[{"channel":1,"speaker":{"name":"Agent"}},{"channel":2,"speaker":{}}]',
    );
    const response = await fetch(`${server.url}/v1/process/audio?channelMetadata=${metadata}`, {
      method: "POST",
      headers: { authorization: `Bearer ${app.token}`, "content-type": "audio/wav" },
      body: readFileSync(call),
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const { conversationId, jobId } = (await response.json()) as Body.Accepted;
    expect(await waitForJob(server, app.token, jobId)).toBe("completed");
    const { body } = await app.api.get<Body.MemberList>(`/v1/conversations/${conversationId}/members`);
    expect(body.members).toEqual([
      { id: expect.any(String) as string, name: "Agent" },
      {
        id: expect.any(String) as string,
        name: "Ada",
        email: "ada@example.org",
        voice: { id: voiceId, score: expect.any(Number) as number },
      },
    ]);
  }, 120_000);

  it("saves the voice of a live stream's speaker, whose audio is not kept, and knows it in a recording", async () => {
    const app = await newApp();
    const wsUrl = server.url.replace(/^http/, "ws");
    const live = await startStream(`${wsUrl}/v1/streaming/ada-live?access_token=${app.token}`, {
      speaker: { userId: "ada@example.org", name: "Ada" },
    });
    const audio = linear16(kit, "ada-live", [{ tone: LOW, seconds: 4 }, { silence: 1 }], 16_000);
    await stream((frame) => live.socket.send(frame), audio, 16_000, 100, 20);
    await until(() => live.received.events.some((event) => event.type === "message_response"), "the line");
    live.socket.send(JSON.stringify({ type: "stop_request" }));
    await until(() => live.received.close !== null, "the close");
    const { id: jobId } = await server.database.db
      .selectFrom("jobs")
      .select("id")
      .where("conversation_id", "=", live.conversationId)
      .executeTakeFirstOrThrow();
    expect(await waitForJob(server, app.token, jobId)).toBe("completed");
    const { body } = await app.api.get<Body.MemberList>(`/v1/conversations/${live.conversationId}/members`);
    const ada = body.members[0]!;
    expect(ada.name).toBe("Ada");
    // The stream's voice was kept as an embedding, never as audio.
    const kept = await server.database.db.selectFrom("voice_samples").selectAll().execute();
    expect(kept.filter((row) => row.conversation_id === live.conversationId)).toEqual([
      expect.objectContaining({
        identity_key: "email:ada@example.org",
        vector: expect.any(Uint8Array) as unknown,
      }),
    ]);

    const saved = await app.api.post<Body.Voice>("/v1/voices", {
      conversationId: live.conversationId,
      memberId: ada.id,
    });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body.speechSeconds).toBeGreaterThanOrEqual(3);
    expect(saved.body.conversations).toEqual([live.conversationId]);
    const { members } = await app.diarized(RECORDING_B);
    expect(members[1]).toMatchObject({ name: "Ada", email: "ada@example.org", voice: { id: saved.body.id } });

    // Deleted with its conversation.
    expect((await app.api.delete(`/v1/conversations/${live.conversationId}`)).status).toBe(200);
    const left = await server.database.db.selectFrom("voice_samples").selectAll().execute();
    expect(left.filter((row) => row.conversation_id === live.conversationId)).toEqual([]);
  }, 120_000);

  it("saves a voice from a recording fetched from a URL, which is not kept, from what its job kept", async () => {
    const app = await newApp();
    host.files.set("/meeting.flac", join(kit.dir, "a.flac"));
    const submitted = await app.api.post<Body.Accepted>("/v1/process/audio/url", {
      url: host.url("/meeting.flac", "localhost"),
      enableSpeakerDiarization: true,
      diarizationSpeakerCount: 2,
    });
    expect(submitted.status, submitted.text).toBe(201);
    const { conversationId, jobId } = submitted.body;
    expect(await waitForJob(server, app.token, jobId)).toBe("completed");
    const kept = await server.database.db
      .selectFrom("voice_samples")
      .select("identity_key")
      .where("conversation_id", "=", conversationId)
      .orderBy("identity_key")
      .execute();
    expect(kept.map((row) => row.identity_key)).toEqual(["name:Speaker 1", "name:Speaker 2"]);

    const { body } = await app.api.get<Body.MemberList>(`/v1/conversations/${conversationId}/members`);
    const low = body.members[0]!;
    await app.api.put(`/v1/conversations/${conversationId}/members/${low.id}`, { id: low.id, name: "Ada" });
    const saved = await app.api.post<Body.Voice>("/v1/voices", { conversationId, memberId: low.id });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({ name: "Ada", conversations: [conversationId] });
    // Speaker 2 speaks 1.5 s: too little to save, said as for a stored recording.
    const high = body.members[1]!;
    await app.api.put(`/v1/conversations/${conversationId}/members/${high.id}`, {
      id: high.id,
      name: "Grace",
    });
    const short = await app.api.post("/v1/voices", { conversationId, memberId: high.id });
    expect(short.status).toBe(422);
    expect(short.text).toMatch(/has 1\.\d seconds of speech/);
  }, 120_000);

  it("describes a member's voice and suggested voice in the OpenAPI document", async () => {
    type Schema = { properties?: Record<string, Schema>; items?: Schema; description?: string };
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        { get: { responses: Record<string, { content: Record<string, { schema: Schema }> }> } }
      >;
    };
    const members =
      openapi.paths["/v1/conversations/{conversationId}/members"]?.get.responses["200"]?.content[
        "application/json"
      ]?.schema.properties?.members?.items?.properties;
    expect(Object.keys(members ?? {})).toEqual(["id", "name", "email", "voice", "suggestedVoice"]);
    expect(Object.keys(members?.voice?.properties ?? {})).toEqual(["id", "score"]);
    expect(Object.keys(members?.suggestedVoice?.properties ?? {})).toEqual(["id", "name", "score"]);
    expect(members?.voice?.properties?.score?.description).toMatch(/raw cosine similarity .* in \[-1, 1\]/);
  });
});

describe.each(await dialects())(
  "voice matching with a remote engine that labels speakers on %s",
  (dialect) => {
    const kit = new MediaKit();
    let speech: SpeechServer;
    let server: TestServer;
    let modelsDir: string;

    beforeAll(async () => {
      // The remote engine labels speakers (diarized_json); the embeddings are computed here, on the generated local
      // speaker-embedding model, from the spans it labelled.
      speech = await startSpeechServer("diarized", () => "hello");
      modelsDir = join(kit.dir, "models");
      installToneDiarization(modelsDir);
      server = await startTestServer(dialect, {
        env: {
          RECAP_ASR_URL: speech.url,
          RECAP_ASR_RESPONSE_FORMAT: "diarized_json",
          RECAP_MODELS_DIR: modelsDir,
          RECAP_MEDIA_DIR: join(kit.dir, "store"),
        },
      });
    });
    afterAll(async () => {
      await server.close();
      await speech.close();
      kit.close();
    });

    it("enrols and names the engine's labelled speakers with embeddings computed locally, sending nothing more", async () => {
      const { token } = await server.newApp();
      const api = apiClient(server.url, token);
      expect((await api.patch("/v1/app", { voiceProfiles: true })).status).toBe(200);
      const diarized = async (name: string, parts: Part[]) => {
        const response = await fetch(`${server.url}/v1/process/audio?enableSpeakerDiarization=true`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "audio/flac" },
          body: recordingOf(kit, name, parts),
        });
        expect(response.status, await response.clone().text()).toBe(201);
        const { conversationId, jobId } = (await response.json()) as Body.Accepted;
        expect(await waitForJob(server, token, jobId)).toBe("completed");
        return {
          conversationId,
          members: (await api.get<Body.MemberList>(`/v1/conversations/${conversationId}/members`)).body
            .members,
        };
      };
      // The stand-in labels the stretches of sound A, B, A: the low voice is A, Speaker 1.
      const first = await diarized("first", RECORDING_A);
      const low = first.members[0]!;
      await api.put(`/v1/conversations/${first.conversationId}/members/${low.id}`, {
        id: low.id,
        name: "Ada",
      });
      const enrolled = await api.post<Body.Voice>("/v1/voices", {
        conversationId: first.conversationId,
        memberId: low.id,
      });
      expect(enrolled.status, enrolled.text).toBe(201);

      // Here the high voice speaks first: the low one is B, Speaker 2, and is Ada.
      const second = await diarized("second", RECORDING_B);
      expect(second.members).toEqual([
        { id: expect.any(String) as string, name: "Speaker 1" },
        {
          id: expect.any(String) as string,
          name: "Ada",
          voice: { id: enrolled.body.id, score: expect.any(Number) as number },
        },
      ]);
      // One transcription request per recording, and nothing else: no voice left the machine.
      expect(speech.requests).toHaveLength(2);

      // Without the local embedding model, enrolment names the model to pull.
      renameSync(join(modelsDir, "campplus-en-voxceleb"), join(modelsDir, "away"));
      try {
        const refused = await api.post("/v1/voices", {
          conversationId: first.conversationId,
          memberId: low.id,
        });
        expect(refused.status).toBe(503);
        expect(refused.text).toContain("bin/recap models pull campplus-en-voxceleb");
      } finally {
        renameSync(join(modelsDir, "away"), join(modelsDir, "campplus-en-voxceleb"));
      }
    }, 120_000);
  },
);

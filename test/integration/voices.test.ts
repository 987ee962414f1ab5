import { renameSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { MediaKit } from "../helpers/media.ts";
import { MEETING, recordingOf, voiceEngine } from "../helpers/voices.ts";
import { VOICES } from "../../scripts/speech-models/models.ts";
import { VoicesRepository } from "../../src/modules/voices/voices.repository.ts";

describe.each(await dialects())("voice profiles on %s", (dialect) => {
  const kit = new MediaKit();
  const modelsDir = join(kit.dir, "models");
  let server: TestServer;
  let api: ReturnType<typeof apiClient>;
  let token: string;
  let recording: Buffer<ArrayBuffer>;

  beforeAll(async () => {
    // The local engine on generated models: a recogniser that hears the low tone as "lo" and the high one as
    // "hi", and diarization models (the embedding one too) that tell the two tones apart as two voices.
    // Jobs run only when a test runs them (waitForJob), so a conversation can be caught being transcribed.
    server = await startTestServer(dialect, { env: voiceEngine(kit), runJobs: false });
    ({ token } = await server.newApp());
    api = apiClient(server.url, token);
    recording = recordingOf(kit, "meeting", MEETING);
  });
  afterAll(async () => {
    await server.close();
    kit.close();
  });

  /** Uploads the meeting (appended to `conversationId` when given) and runs its job unless told not to. */
  async function upload(as = token, conversationId?: string, run = true): Promise<Body.Accepted> {
    const response = await fetch(
      `${server.url}/v1/process/audio${conversationId ? `/${conversationId}` : ""}?enableSpeakerDiarization=true&diarizationSpeakerCount=2`,
      {
        method: conversationId ? "PUT" : "POST",
        headers: { authorization: `Bearer ${as}`, "content-type": "audio/flac" },
        body: recording,
      },
    );
    expect(response.status, await response.clone().text()).toBe(201);
    const accepted = (await response.json()) as Body.Accepted;
    if (run) expect(await waitForJob(server, as, accepted.jobId)).toBe("completed");
    return accepted;
  }

  /** The conversation's members in order: Speaker 1 (the low voice), Speaker 2 (the high one). */
  async function membersOf(conversationId: string, as = api) {
    const { body } = await as.get<Body.MemberList>(`/v1/conversations/${conversationId}/members`);
    return body.members;
  }

  async function rename(conversationId: string, memberId: string, name: string, email?: string) {
    const renamed = await api.put(`/v1/conversations/${conversationId}/members/${memberId}`, {
      id: memberId,
      name,
      ...(email !== undefined && { email }),
    });
    expect(renamed.status, renamed.text).toBe(200);
  }

  const referencesOf = (voiceId: string) =>
    server.database.db
      .selectFrom("voice_references")
      .select(["vector", "conversation_id"])
      .where("profile_id", "=", voiceId)
      .execute();

  it("is off until the app turns it on with PATCH /v1/app, and enrolment is refused while off", async () => {
    const { conversationId } = await upload();
    const [ada] = await membersOf(conversationId);
    await rename(conversationId, ada!.id, "Ada", "ada@example.com");
    expect((await api.get<Body.AppSettings>("/v1/app")).body.voiceProfiles).toBe(false);

    const refused = await api.post<Body.ErrorBody>("/v1/voices", { conversationId, memberId: ada!.id });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'voice profiles are off for this app: turn them on with PATCH /v1/app {"voiceProfiles": true}',
    );
    expect((await api.get<Body.VoiceList>("/v1/voices")).body.voices).toEqual([]);

    const on = await api.patch<Body.AppSettings>("/v1/app", { voiceProfiles: true });
    expect(on.status, on.text).toBe(200);
    expect(on.body.voiceProfiles).toBe(true);
    expect((await api.get<Body.AppSettings>("/v1/app")).body.voiceProfiles).toBe(true);
    expect((await api.patch<Body.ErrorBody>("/v1/app", { voiceProfiles: "yes" })).status).toBe(400);
  }, 60_000);

  it("enrols a named member (201), refines it from another conversation (200), and erases it (204)", async () => {
    await api.patch("/v1/app", { voiceProfiles: true });
    const first = await upload();
    const [ada] = await membersOf(first.conversationId);
    await rename(first.conversationId, ada!.id, "Ada Lovelace", "Ada@Example.org");

    const created = await api.post<Body.Voice>("/v1/voices", {
      conversationId: first.conversationId,
      memberId: ada!.id,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      name: "Ada Lovelace",
      email: "Ada@Example.org",
      model: "campplus-en-voxceleb",
      conversations: [first.conversationId],
    });
    // Two lines of the low voice, about 2 s each (where the VAD heard them).
    expect(created.body.speechSeconds).toBeGreaterThanOrEqual(3.5);
    expect(created.body.speechSeconds).toBeLessThanOrEqual(4.5);
    const voiceId = created.body.id;
    const [stored] = await referencesOf(voiceId);
    // float32 × the generated model's 2 dimensions, the same bytes on either database.
    expect(stored?.vector).toHaveLength(4 * VOICES.length);

    // The same person (the same e-mail, in another case) from a second conversation: the same profile, refined.
    const second = await upload();
    const [again] = await membersOf(second.conversationId);
    await rename(second.conversationId, again!.id, "Ada", "ada@example.org");
    const refined = await api.post<Body.Voice>("/v1/voices", {
      conversationId: second.conversationId,
      memberId: again!.id,
    });
    expect(refined.status, refined.text).toBe(200);
    expect(refined.body.id).toBe(voiceId);
    expect(refined.body.name).toBe("Ada Lovelace");
    expect([...refined.body.conversations].sort()).toEqual(
      [first.conversationId, second.conversationId].sort(),
    );
    expect(refined.body.speechSeconds).toBeGreaterThanOrEqual(7);
    expect(await referencesOf(voiceId)).toHaveLength(2);

    // Enrolling the same member again replaces its reference rather than adding one.
    expect(
      (await api.post("/v1/voices", { conversationId: second.conversationId, memberId: again!.id })).status,
    ).toBe(200);
    expect(await referencesOf(voiceId)).toHaveLength(2);

    expect((await api.get<Body.Voice>(`/v1/voices/${voiceId}`)).body).toEqual(
      (await api.get<Body.VoiceList>("/v1/voices")).body.voices.find((voice) => voice.id === voiceId),
    );
    const patched = await api.patch<Body.Voice>(`/v1/voices/${voiceId}`, { name: " Ada King ", email: null });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ id: voiceId, name: "Ada King", email: null });

    const deleted = await api.delete(`/v1/voices/${voiceId}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect(await referencesOf(voiceId)).toEqual([]);
    expect((await api.get(`/v1/voices/${voiceId}`)).status).toBe(404);
    expect((await api.delete(`/v1/voices/${voiceId}`)).status).toBe(404);
  }, 120_000);

  it("refuses bad enrolments with a 4xx naming the problem, storing nothing", async () => {
    await api.patch("/v1/app", { voiceProfiles: true });
    const before = (await api.get<Body.VoiceList>("/v1/voices")).body.voices;
    const { conversationId } = await upload();
    const [low, high] = await membersOf(conversationId);
    const enrol = (body: unknown) => api.post<Body.ErrorBody>("/v1/voices", body);

    const unnamed = await enrol({ conversationId, memberId: high!.id });
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.message).toBe(
      `member ${high!.id} is still "Speaker 2": name the member first ` +
        `(PUT /v1/conversations/${conversationId}/members/${high!.id}), then save the voice`,
    );

    await rename(conversationId, high!.id, "Grace");
    const short = await enrol({ conversationId, memberId: high!.id });
    expect(short.status).toBe(422);
    expect(short.body.message).toMatch(
      new RegExp(
        `^member ${high!.id} has 1\\.[3-7] seconds of speech in conversation ${conversationId}; a voice needs at least 3$`,
      ),
    );

    // A member with lines but no timed speech: a text line appended to the media conversation.
    const appended = await api.put<Body.Accepted>(`/v1/process/text/${conversationId}`, {
      messages: [{ payload: { content: "I was only on the chat." }, from: { name: "Linus" } }],
    });
    expect(appended.status, appended.text).toBe(201);
    expect(await waitForJob(server, token, appended.body.jobId)).toBe("completed");
    const linus = (await membersOf(conversationId)).find((member) => member.name === "Linus");
    const silent = await enrol({ conversationId, memberId: linus!.id });
    expect(silent.status).toBe(422);
    expect(silent.body.message).toBe(
      `member ${linus!.id} has no speech in conversation ${conversationId}: a voice needs at least 3 seconds ` +
        "of the member's own lines",
    );

    const text = await server.ingest(token, {
      messages: [
        {
          payload: { content: "Hello from a text conversation." },
          from: { name: "Tim" },
          duration: { startTime: "2026-11-02T10:00:00Z", endTime: "2026-11-02T10:00:10Z" },
        },
      ],
    });
    const [tim] = await membersOf(text.conversationId);
    const noRecording = await enrol({ conversationId: text.conversationId, memberId: tim!.id });
    expect(noRecording.status).toBe(422);
    expect(noRecording.body.message).toBe(
      `conversation ${text.conversationId} has no stored recording (it was made from text, or streamed live, ` +
        "whose audio Recap does not keep): a voice is enrolled from a conversation made from audio or video",
    );

    await rename(conversationId, low!.id, "Barbara");
    const missing = { conversationId, memberId: "00000000-0000-4000-8000-000000000000" };
    expect((await enrol(missing)).body).toEqual({ message: "member not found" });
    expect((await enrol(missing)).status).toBe(404);
    expect((await enrol({ conversationId: "1234567890123456", memberId: low!.id })).status).toBe(404);
    for (const body of [
      {},
      { conversationId },
      { conversationId: "abc", memberId: low!.id },
      { conversationId, memberId: "not-a-uuid" },
      { conversationId, memberId: low!.id, extra: 1 },
    ]) {
      expect((await enrol(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.get(`/v1/voices/not-a-uuid`)).status).toBe(400);
    const empty = await api.patch<Body.ErrorBody>(`/v1/voices/00000000-0000-4000-8000-000000000000`, {});
    expect([empty.status, empty.body.message]).toEqual([400, "body must set name or email"]);
    expect((await api.patch(`/v1/voices/00000000-0000-4000-8000-000000000000`, { name: "X" })).status).toBe(
      404,
    );

    // Being transcribed: an append whose job has not run yet.
    await upload(token, conversationId, false);
    const busy = await enrol({ conversationId, memberId: low!.id });
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe(
      `conversation ${conversationId} is still being transcribed: enrol the voice once its job has completed`,
    );
    await server.services.jobRunner.runUntilIdle();

    // The embedding model not installed.
    const model = join(modelsDir, "campplus-en-voxceleb");
    renameSync(model, `${model}.away`);
    try {
      const unavailable = await enrol({ conversationId, memberId: low!.id });
      expect(unavailable.status).toBe(503);
      expect(unavailable.body.message).toBe(
        "voice profiles need the local speaker-embedding model, which is not installed: run " +
          "`bin/recap models pull campplus-en-voxceleb`",
      );
    } finally {
      renameSync(`${model}.away`, model);
    }

    expect((await api.get<Body.VoiceList>("/v1/voices")).body.voices).toEqual(before);
  }, 120_000);

  it("keeps a profile's latest references when told how many", async () => {
    const { appId } = await server.newApp();
    const voices = new VoicesRepository(server.database.db);
    const profileId = "7d3c2b1a-0f9e-4d8c-8b7a-6f5e4d3c2b1a";
    const at = (minute: number) => `2026-11-29T10:${String(minute).padStart(2, "0")}:00.000Z`;
    await voices.insertProfile({
      ...{ id: profileId, app_id: appId, name: "Ada", email: null, email_key: null },
      ...{ model: "campplus-en-voxceleb", dimension: 2, created_at: at(0), updated_at: at(0) },
    });
    for (let minute = 1; minute <= 7; minute++) {
      await voices.insertReference({
        id: `00000000-0000-4000-8000-00000000000${minute}`,
        profile_id: profileId,
        conversation_id: String(minute),
        member_id: "00000000-0000-4000-8000-000000000000",
        vector: Buffer.alloc(8),
        speech_seconds: minute,
        created_at: at(minute),
      });
    }

    await voices.keepLatestReferences(profileId, 5);

    const kept = await voices.listReferences(profileId);
    expect(kept.map((reference) => reference.conversation_id)).toEqual(["3", "4", "5", "6", "7"]);
    expect((await voices.listReferencesOfApp(appId)).map((reference) => reference.conversation_id)).toEqual([
      "3",
      "4",
      "5",
      "6",
      "7",
    ]);
  });

  it("lists a voice of another embedding model as needing a refresh, until the voice is saved again", async () => {
    const other = await server.newApp();
    const otherApi = apiClient(server.url, other.token);
    await otherApi.patch("/v1/app", { voiceProfiles: true });
    const voices = new VoicesRepository(server.database.db);
    const profileId = "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d";
    const at = "2026-11-29T09:00:00.000Z";
    await voices.insertProfile({
      ...{ id: profileId, app_id: other.appId, name: "Grace", email: null, email_key: null },
      ...{ model: "an-older-embedding-model", dimension: 192, created_at: at, updated_at: at },
    });
    await voices.insertReference({
      ...{ id: "5a4b3c2d-1e0f-4a9b-8c7d-000000000001", profile_id: profileId, conversation_id: "1" },
      ...{ member_id: "5a4b3c2d-1e0f-4a9b-8c7d-000000000002", vector: Buffer.alloc(192 * 4) },
      ...{ speech_seconds: 10, created_at: at },
    });
    const listed = await otherApi.get<Body.VoiceList>("/v1/voices");
    expect(listed.body.voices).toEqual([
      expect.objectContaining({ id: profileId, model: "an-older-embedding-model", needsRefresh: true }),
    ]);

    const { conversationId } = await upload(other.token);
    const [grace] = await membersOf(conversationId, otherApi);
    const renamed = await otherApi.put(`/v1/conversations/${conversationId}/members/${grace!.id}`, {
      id: grace!.id,
      name: "Grace",
    });
    expect(renamed.status).toBe(200);
    const saved = await otherApi.post<Body.Voice>("/v1/voices", { conversationId, memberId: grace!.id });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      id: profileId,
      model: "campplus-en-voxceleb",
      needsRefresh: false,
      conversations: [conversationId],
    });
  }, 60_000);

  it("describes its routes in the OpenAPI document as Recap's extension", async () => {
    type Operation = { tags?: string[]; summary?: string; responses: Record<string, unknown> };
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const operations = Object.entries({
      "/v1/voices": ["post", "get"],
      "/v1/voices/{voiceId}": ["get", "patch", "delete"],
    }).flatMap(([path, methods]) => methods.map((method) => openapi.paths[path]?.[method]));
    for (const operation of operations) {
      expect(operation?.tags).toEqual(["Voices"]);
      expect(operation?.summary).toMatch(/\(Recap extension\)$/);
    }
    expect(Object.keys(openapi.paths["/v1/voices"]?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "201", "400", "403", "404", "409", "422", "503"]),
    );
    expect(Object.keys(openapi.paths["/v1/voices/{voiceId}"]?.delete?.responses ?? {})).toContain("204");
  });

  it("keeps each app's voices its own", async () => {
    await api.patch("/v1/app", { voiceProfiles: true });
    const { conversationId } = await upload();
    const [member] = await membersOf(conversationId);
    await rename(conversationId, member!.id, "Margaret", "margaret@example.com");
    const voice = await api.post<Body.Voice>("/v1/voices", { conversationId, memberId: member!.id });
    expect(voice.status, voice.text).toBe(201);

    const other = await server.newApp();
    const stranger = apiClient(server.url, other.token);
    await stranger.patch("/v1/app", { voiceProfiles: true });
    expect((await stranger.get<Body.VoiceList>("/v1/voices")).body.voices).toEqual([]);
    expect((await stranger.get(`/v1/voices/${voice.body.id}`)).status).toBe(404);
    expect((await stranger.patch(`/v1/voices/${voice.body.id}`, { name: "Mine" })).status).toBe(404);
    expect((await stranger.delete(`/v1/voices/${voice.body.id}`)).status).toBe(404);
    const enrol = await stranger.post<Body.ErrorBody>("/v1/voices", { conversationId, memberId: member!.id });
    expect(enrol.status).toBe(404);
    expect(enrol.body.message).toBe("conversation not found");

    // The same e-mail in the other app makes that app a profile of its own.
    const theirs = await upload(other.token);
    const [theirMember] = await membersOf(theirs.conversationId, stranger);
    const renamed = await stranger.put(
      `/v1/conversations/${theirs.conversationId}/members/${theirMember!.id}`,
      {
        id: theirMember!.id,
        name: "Margaret",
        email: "margaret@example.com",
      },
    );
    expect(renamed.status).toBe(200);
    const own = await stranger.post<Body.Voice>("/v1/voices", {
      conversationId: theirs.conversationId,
      memberId: theirMember!.id,
    });
    expect(own.status, own.text).toBe(201);
    expect(own.body.id).not.toBe(voice.body.id);
    expect((await api.get(`/v1/voices/${voice.body.id}`)).status).toBe(200);

    // An app's row deleted takes its voices and their vectors with it, on either database.
    expect(await referencesOf(own.body.id)).toHaveLength(1);
    await server.database.db.deleteFrom("apps").where("id", "=", other.appId).execute();
    expect(await referencesOf(own.body.id)).toEqual([]);
    const left = await server.database.db.selectFrom("voice_profiles").select("id").execute();
    expect(left.map((row) => row.id)).not.toContain(own.body.id);
    expect(left.map((row) => row.id)).toContain(voice.body.id);
  }, 120_000);
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/api.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import type { Part } from "../helpers/audio.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { MediaKit } from "../helpers/media.ts";
import { HIGH, LOW, recordingOf, voiceEngine } from "../helpers/voices.ts";

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

describe.each(await dialects())("voice matching on diarized jobs on %s", (dialect) => {
  const kit = new MediaKit();
  const recordings = new Map<Part[], Buffer<ArrayBuffer>>();
  let server: TestServer;

  beforeAll(async () => {
    // A suggestion threshold below any score the generated voices give, so a stranger's voice is suggested.
    server = await startTestServer(dialect, { env: { ...voiceEngine(kit), RECAP_VOICE_SUGGEST: "-0.5" } });
    for (const [name, parts] of [
      ["a", RECORDING_A],
      ["b", RECORDING_B],
      ["c", RECORDING_C],
    ] as const) {
      recordings.set(parts, recordingOf(kit, name, parts));
    }
  });
  afterAll(async () => {
    await server.close();
    kit.close();
  });

  /** A new app of its own, with voice profiles on, and what it needs to upload and read. */
  async function newApp() {
    const { token } = await server.newApp();
    const api = apiClient(server.url, token);
    expect((await api.patch("/v1/app", { voiceProfiles: true })).status).toBe(200);
    return {
      api,
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

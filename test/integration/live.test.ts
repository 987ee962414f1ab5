import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { readBody } from "../helpers/api.ts";
import { startMain, startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import { writeRecording, type Part } from "../helpers/audio.ts";
import type * as Body from "../helpers/bodies.ts";
import { createTestDatabase, dialects } from "../helpers/databases.ts";
import { createLink, onServer } from "../helpers/factories.ts";
import { connect, linear16, messageType, sdk, startStream, stream } from "../helpers/live.ts";
import { MediaKit } from "../helpers/media.ts";
import { installEnergyVad, installToneEngine, VOICES } from "../../scripts/speech-models/models.ts";
import { until, untilValue } from "../helpers/wait.ts";

describe.each(await dialects())("live streaming on the local engine on %s", (dialect) => {
  const kit = new MediaKit();
  let server: TestServer;
  let wsUrl: string;
  beforeAll(async () => {
    // The local engine's real code on generated models: a 300 Hz tone is heard as "lo", a 2 kHz tone as "hi",
    // and an energy VAD cuts utterances at pauses (scripts/speech-models/models.ts).
    const modelsDir = join(kit.dir, "models");
    const engine = installToneEngine(modelsDir);
    server = await startTestServer(dialect, {
      env: {
        ...engine,
        RECAP_LIVE_IDLE_SECONDS: "2",
        RECAP_LIVE_MAX_CONNECTIONS_PER_APP: "2",
      },
    });
    wsUrl = server.url.replace(/^http/, "ws");
  });
  afterAll(async () => {
    await server.close();
    kit.close();
  });

  /** The ids of the conversation's jobs. */
  const jobsOf = (conversationId: string) =>
    server.database.db
      .selectFrom("jobs")
      .select("id")
      .where("conversation_id", "=", conversationId)
      .execute();
  /** The conversation's stored lines as [speaker, text]. */
  const storedLines = async (token: string, conversationId: string) =>
    (
      await readBody<Body.MessageList>(server, token, `/v1/conversations/${conversationId}/messages`)
    ).messages.map((message) => [message.from.name, message.text]);
  /** The names of the conversation's members, in the API's order. */
  const memberNames = async (token: string, conversationId: string) =>
    (
      await readBody<Body.MemberList>(server, token, `/v1/conversations/${conversationId}/members`)
    ).members.map((member) => member.name);

  it("serves Symbl's JavaScript SDK unchanged: interim and final results, messages, stop, then the REST API", async () => {
    const { token } = await server.newApp();
    const rate = 44_100;
    const audio = linear16(
      kit,
      "sdk",
      [
        { silence: 0.5 },
        { tone: VOICES[0], seconds: 1.5 },
        { silence: 1 },
        { tone: VOICES[1], seconds: 1.5 },
        { silence: 1 },
      ],
      rate,
    );
    await sdk.init({ accessToken: token, basePath: server.url });
    const results: { isFinal: boolean; transcript: string }[] = [];
    const messages: { text: string; from: { name: string; userId: string } }[] = [];
    const connection = await sdk.startRealtimeRequest({
      id: "9f1c1d1e-7f5a-4d9b-9b43-2f7c3d1f0a11",
      insightTypes: ["action_item", "question"],
      config: {
        meetingTitle: "Stand-up",
        confidenceThreshold: 0.5,
        languageCode: "en-US",
        sampleRateHertz: rate,
      },
      speaker: { userId: "ada@example.com", name: "Ada" },
      handlers: {
        onSpeechDetected: (data: { isFinal: boolean; punctuated: { transcript: string } }) =>
          results.push({ isFinal: data.isFinal, transcript: data.punctuated.transcript }),
        onMessageResponse: (
          data: { payload: { content: string }; from: { name: string; userId: string } }[],
        ) => messages.push(...data.map((message) => ({ text: message.payload.content, from: message.from }))),
      },
    });
    const conversationId = connection.conversationId;
    expect(conversationId).toMatch(/^\d{16}$/);
    await stream((frame) => connection.sendAudio(frame), audio, rate, 100, 1);
    await until(() => messages.length === 2, "both messages");
    const stopped = await connection.stop();
    expect(stopped.conversationId).toBe(conversationId);

    expect(results.filter((result) => result.isFinal).map((result) => result.transcript)).toEqual([
      "lo",
      "hi",
    ]);
    const interims = results.filter((result) => !result.isFinal).map((result) => result.transcript);
    expect(interims).toContain("lo");
    expect(interims).toContain("hi");
    expect(messages.map(({ text, from }) => [text, from.name, from.userId])).toEqual([
      ["lo", "Ada", "ada@example.com"],
      ["hi", "Ada", "ada@example.com"],
    ]);

    // The conversation is real: its messages, members and a summary link through the REST API, once analysed.
    await until(async () => {
      const jobs = await jobsOf(conversationId);
      return jobs.length === 1 && (await waitForJob(server, token, jobs[0]!.id)) === "completed";
    }, "the analysis job");
    const conversation = await readBody<{ name: string }>(
      server,
      token,
      `/v1/conversations/${conversationId}`,
    );
    expect(conversation.name).toBe("Stand-up");
    expect(await storedLines(token, conversationId)).toEqual([
      ["Ada", "lo"],
      ["Ada", "hi"],
    ]);
    expect(await memberNames(token, conversationId)).toEqual(["Ada"]);
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });
    const page = await fetch(onServer(server, link.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Stand-up");
  });

  it.each([1, 4])(
    "streams espeak-ng speech through the SDK at %d× real time: one final and one message per sentence",
    async (speed) => {
      const { token } = await server.newApp();
      const rate = 16_000;
      const audio = linear16(
        kit,
        "sdk-speech",
        [
          { silence: 0.5 },
          { say: "We agreed to ship the remote control in March." },
          { silence: 1.5 },
          { say: "Dana will send the budget by Friday." },
          { silence: 1.5 },
        ],
        rate,
      );
      await sdk.init({ accessToken: token, basePath: server.url });
      const finals: string[] = [];
      const messages: string[] = [];
      const connection = await sdk.startRealtimeRequest({
        id: `0c0a6a4e-3a77-4d43-9a7e-5c2b1d9a8f1${speed}`,
        config: { meetingTitle: "Planning", sampleRateHertz: rate },
        speaker: { userId: "grace@example.com", name: "Grace" },
        handlers: {
          onSpeechDetected: (data: { isFinal: boolean; punctuated: { transcript: string } }) => {
            if (data.isFinal) finals.push(data.punctuated.transcript);
          },
          onMessageResponse: (data: { payload: { content: string } }[]) =>
            messages.push(...data.map((message) => message.payload.content)),
        },
      });
      await stream((frame) => connection.sendAudio(frame), audio, rate, 100, speed);
      await until(() => messages.length === 2, "a message per sentence");
      await connection.stop();
      // The generated recogniser hears tones, not words: what it makes of speech is not English, but each
      // sentence, cut at its pause by the VAD, is one final and one stored message, in order.
      expect(finals).toHaveLength(2);
      expect(messages).toEqual(finals);
      expect(messages.every((text) => text.length > 0)).toBe(true);
      expect(await storedLines(token, connection.conversationId)).toEqual(
        messages.map((text) => ["Grace", text]),
      );
    },
  );

  it("stores each final at once: a client that goes away keeps its lines, and they are analysed", async () => {
    const { token } = await server.newApp();
    const audio = linear16(kit, "drop", [{ tone: VOICES[1], seconds: 1 }, { silence: 1 }], 16_000);
    const { socket, received } = await connect(`${wsUrl}/v1/streaming/drop-1?access_token=${token}`);
    socket.send(
      JSON.stringify({ type: "start_request", config: { speechRecognition: { sampleRateHertz: 16_000 } } }),
    );
    await until(
      () => received.events.some((event) => messageType(event) === "conversation_created"),
      "conversation_created",
    );
    const created = received.events.find((event) => messageType(event) === "conversation_created") as {
      message: { data: { conversationId: string } };
    };
    await stream((frame) => socket.send(frame), audio, 16_000, 20, 20);
    await until(
      () => received.events.some((event) => event.type === "message_response"),
      "a message_response",
    );
    socket.terminate();
    const conversationId = created.message.data.conversationId;
    await until(async () => {
      const jobs = await jobsOf(conversationId);
      return jobs.length === 1 && (await waitForJob(server, token, jobs[0]!.id)) === "completed";
    }, "the analysis job");
    const stored = await readBody<{ messages: { text: string }[] }>(
      server,
      token,
      `/v1/conversations/${conversationId}/messages`,
    );
    expect(stored.messages.map((message) => message.text)).toEqual(["hi"]);
  });

  it("marks the conversation live on its summary page while it is streamed, with the lines so far, and not once it ends", async () => {
    const { token } = await server.newApp();
    const { socket, received, conversationId } = await startStream(
      `${wsUrl}/v1/streaming/page-1?access_token=${token}`,
      { config: { meetingTitle: "Design review" } },
    );
    const audio = linear16(kit, "page", [{ tone: VOICES[1], seconds: 1 }, { silence: 1 }], 16_000);
    await stream((frame) => socket.send(frame), audio, 16_000, 100, 10);
    await until(() => received.events.some((event) => event.type === "message_response"), "the message");
    const link = onServer(
      server,
      (await createLink(server, token, conversationId, { name: "verbose-text-summary" })).url,
    );
    const page = async () => {
      const html = await (await fetch(link)).text();
      const json = (await (await fetch(`${link}.json`)).json()) as {
        live?: boolean;
        messages: { text: string }[];
      };
      return {
        live: /class="live-badge">Live</.test(html),
        summaryPending:
          html.includes("Attendees are listed when the meeting ends.") &&
          html.includes("The summary comes when the meeting ends.") &&
          html.includes("Action items, follow-ups and questions come when the meeting ends."),
        json,
      };
    };
    const during = await page();
    expect(during).toMatchObject({ live: true, summaryPending: true, json: { live: true } });
    expect(during.json.messages.map((message) => message.text)).toEqual(["hi"]);

    socket.send(JSON.stringify({ type: "stop_request" }));
    await until(() => received.close !== null, "the close");
    const after = await page();
    expect(after.live).toBe(false);
    expect(after.json.live).toBeUndefined();
    expect(after.json.messages.map((message) => message.text)).toEqual(["hi"]);
  });

  it("sends a tracker_response as a final matches one of the app's trackers, naming the tracker and the line", async () => {
    const { token } = await server.newApp();
    const created = await server.api(token, "/v1/manage/tracker", {
      method: "POST",
      body: { name: "Greeting", vocabulary: ["hi"] },
    });
    expect(created.status).toBe(201);
    const { socket, received } = await startStream(`${wsUrl}/v1/streaming/track-1?access_token=${token}`);
    const audio = linear16(
      kit,
      "tracked",
      [{ tone: VOICES[0], seconds: 1 }, { silence: 1 }, { tone: VOICES[1], seconds: 1 }, { silence: 1 }],
      16_000,
    );
    await stream((frame) => socket.send(frame), audio, 16_000, 100, 10);
    await until(
      () => received.events.filter((event) => event.type === "message_response").length === 2,
      "both messages",
    );
    socket.send(JSON.stringify({ type: "stop_request" }));
    await until(() => received.close !== null, "the close");
    const messages = received.events.filter((event) => event.type === "message_response") as {
      messages: { id: string; payload: { content: string } }[];
    }[];
    const hi = messages
      .flatMap((event) => event.messages)
      .find((message) => message.payload.content === "hi");
    const responses = received.events.filter((event) => event.type === "tracker_response");
    expect(responses).toEqual([
      {
        type: "tracker_response",
        isFinal: true,
        sequenceNumber: 2,
        trackers: [
          {
            id: expect.any(String) as string,
            name: "Greeting",
            matches: [
              {
                type: "vocabulary",
                value: "hi",
                messageRefs: [{ id: hi?.id, text: "hi", offset: 0 }],
                insightRefs: [],
              },
            ],
          },
        ],
      },
    ]);
  });

  it("takes FLAC and Opus in Ogg or WebM, decoded as they arrive", async () => {
    const { token } = await server.newApp();
    const wav = join(kit.dir, "compressed.wav");
    writeRecording(wav, [
      { tone: VOICES[0], seconds: 1 },
      { silence: 1 },
      { tone: VOICES[1], seconds: 1 },
      { silence: 1 },
    ]);
    const encoded = (format: string, codec: string[]) => {
      const file = join(kit.dir, `compressed.${format}`);
      execFileSync("ffmpeg", ["-v", "error", "-y", "-i", wav, "-ac", "1", ...codec, "-f", format, file]);
      return readFileSync(file);
    };
    const cases: [string, Buffer][] = [
      ["FLAC", encoded("flac", [])],
      ["OPUS", encoded("ogg", ["-c:a", "libopus"])],
      ["opus", encoded("webm", ["-c:a", "libopus"])],
    ];
    for (const [encoding, bytes] of cases) {
      const { socket, received } = await startStream(
        `${wsUrl}/v1/streaming/${encoding}-x?access_token=${token}`,
        {
          config: { speechRecognition: { encoding, sampleRateHertz: 48_000 } },
        },
      );
      for (let offset = 0; offset < bytes.length; offset += 1024) {
        socket.send(bytes.subarray(offset, offset + 1024));
        await sleep(5);
      }
      socket.send(JSON.stringify({ type: "stop_request" }));
      await until(() => received.close !== null, "the close");
      const texts = (
        received.events.filter((event) => event.type === "message_response") as {
          messages: { payload: { content: string } }[];
        }[]
      ).flatMap((event) => event.messages.map((message) => message.payload.content));
      expect([encoding, texts, received.close?.code]).toEqual([encoding, ["lo", "hi"], 1000]);
    }
  });

  it("refuses a compressed stream as soon as its bytes are known bad, naming the encoding only, and leaves no conversation", async () => {
    const { token } = await server.newApp();
    const wav = join(kit.dir, "named.wav");
    writeRecording(wav, [{ tone: VOICES[0], seconds: 1 }, { silence: 1 }]);
    const cases: [string, string, Buffer][] = [
      ["OPUS", "random bytes", Buffer.alloc(8192, 7)],
      [
        "OPUS",
        "an Ogg page with a broken checksum",
        Buffer.concat([Buffer.from("OggS"), Buffer.alloc(8192, 7)]),
      ],
      ["FLAC", "Opus in Ogg", Buffer.concat([Buffer.from("OggS"), Buffer.alloc(64)])],
      // An HLS playlist would make ffmpeg open the file it names: the file's tone would be heard as "lo".
      [
        "OPUS",
        "an HLS playlist naming a recording",
        Buffer.from(
          `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2.0,\nfile:${wav}\n#EXT-X-ENDLIST\n`,
        ),
      ],
    ];
    for (const [encoding, what, bytes] of cases) {
      const { socket, received, conversationId } = await startStream(
        `${wsUrl}/v1/streaming/bad-${encoding}?access_token=${token}`,
        { config: { speechRecognition: { encoding } } },
      );
      socket.send(bytes);
      // No stop_request: the error comes as soon as the bytes are known to be bad.
      await until(() => received.close !== null, `the close for ${what}`);
      const hint =
        encoding === "OPUS" ? "send Opus in Ogg or WebM" : "send the bytes of a FLAC file as it is written";
      expect([what, received.close?.code, received.events.slice(3)]).toEqual([
        what,
        4400,
        [
          {
            type: "message",
            message: {
              type: "error",
              code: "invalid",
              details: `the ${encoding} stream could not be decoded (${hint})`,
            },
          },
        ],
      ]);
      await until(
        async () => (await server.api(token, `/v1/conversations/${conversationId}`)).status === 404,
        `the empty conversation of ${what} to go`,
      );
      expect(await jobsOf(conversationId)).toEqual([]);
    }
    const listed = await readBody<{ conversations: unknown[] }>(server, token, "/v1/conversations");
    expect(listed.conversations).toEqual([]);
  });

  it("joins the connections of one app with the same connection id into one conversation, one speaker each", async () => {
    const { token } = await server.newApp();
    const url = `${wsUrl}/v1/streaming/meeting-7?access_token=${token}`;
    const participants = [
      { speaker: { userId: "ada@example.com", name: "Ada" }, tone: VOICES[0] },
      { speaker: { userId: "grace@example.com", name: "Grace" }, tone: VOICES[1] },
    ];
    const clients = [];
    for (const { speaker } of participants) {
      const client = await connect(url);
      client.socket.send(JSON.stringify({ type: "start_request", speaker }));
      await until(
        () => client.received.events.some((event) => messageType(event) === "conversation_created"),
        "conversation_created",
      );
      clients.push(client);
    }
    const ids = clients.map(
      ({ received }) =>
        (
          received.events.find((event) => messageType(event) === "conversation_created") as {
            message: { data: { conversationId: string } };
          }
        ).message.data.conversationId,
    );
    expect(ids[1]).toBe(ids[0]);
    for (const [index, { tone }] of participants.entries()) {
      const { socket, received } = clients[index]!;
      const audio = linear16(kit, `participant-${index}`, [{ tone, seconds: 1 }, { silence: 1 }], 16_000);
      await stream((frame) => socket.send(frame), audio, 16_000, 100, 20);
      await until(() => received.events.some((event) => event.type === "message_response"), "the message");
    }
    for (const { socket, received } of clients) {
      socket.send(JSON.stringify({ type: "stop_request" }));
      await until(() => received.close !== null, "the close");
    }
    const conversationId = ids[0]!;
    const jobs = await jobsOf(conversationId);
    expect(jobs).toHaveLength(1);
    expect(await waitForJob(server, token, jobs[0]!.id)).toBe("completed");
    expect(await storedLines(token, conversationId)).toEqual([
      ["Ada", "lo"],
      ["Grace", "hi"],
    ]);
    expect((await memberNames(token, conversationId)).sort()).toEqual(["Ada", "Grace"]);
  });

  it("takes the token from the query, X-API-KEY or Authorization at both addresses, and refuses a wrong one with Symbl's error event", async () => {
    const { token } = await server.newApp();
    for (const [path, headers, query] of [
      ["/v1/streaming/a", {}, `?access_token=${token}`],
      ["/v1/realtime/insights/b", { "x-api-key": token }, ""],
      ["/v1/streaming/c", { authorization: `Bearer ${token}` }, ""],
    ] as const) {
      const { socket, received } = await connect(`${wsUrl}${path}${query}`, headers);
      socket.send(JSON.stringify({ type: "start_request" }));
      await until(
        () => received.events.some((event) => messageType(event) === "started_listening"),
        "started_listening",
      );
      socket.send(JSON.stringify({ type: "stop_request" }));
      await until(() => received.close !== null, "the close");
      expect(received.close?.code).toBe(1000);
      expect(received.events.map(messageType)).toEqual([
        "started_listening",
        "recognition_started",
        "conversation_created",
        "conversation_completed",
        "recognition_stopped",
      ]);
    }
    const wrong = await connect(`${wsUrl}/v1/streaming/d?access_token=not-a-token`);
    await until(() => wrong.received.close !== null, "the close");
    expect(wrong.received.close?.code).toBe(4401);
    expect(wrong.received.events).toEqual([
      {
        type: "message",
        message: { type: "error", code: "unauthenticated", details: "Invalid access token" },
      },
    ]);
  });

  it("answers a bad client with an error event and a close code, and other connections carry on", async () => {
    const { token } = await server.newApp();
    const url = `${wsUrl}/v1/streaming/bad?access_token=${token}`;
    const healthy = await connect(url);
    healthy.socket.send(JSON.stringify({ type: "start_request" }));
    const cases: { send: (socket: WebSocket) => void; code: number; details: RegExp }[] = [
      { send: (socket) => socket.send("{not json"), code: 4400, details: /must be JSON/ },
      {
        send: (socket) => socket.send(Buffer.alloc(640)),
        code: 4400,
        details: /audio arrived before the start_request/,
      },
      {
        send: (socket) =>
          socket.send(
            JSON.stringify({ type: "start_request", config: { speechRecognition: { encoding: "MULAW" } } }),
          ),
        code: 4400,
        details: /encoding "MULAW" is not supported/,
      },
      {
        send: (socket) =>
          socket.send(
            JSON.stringify({
              type: "start_request",
              config: { speechRecognition: { sampleRateHertz: 500 } },
            }),
          ),
        code: 4400,
        details: /sampleRateHertz must be a whole number from 8000 to 48000/,
      },
      {
        send: (socket) => socket.send(JSON.stringify({ type: "hello" })),
        code: 4400,
        details: /type must be start_request/,
      },
    ];
    for (const { send, code, details } of cases) {
      const { socket, received } = await connect(url);
      send(socket);
      await until(() => received.close !== null, "the close");
      expect(received.close?.code).toBe(code);
      const [error] = received.events as { message: { type: string; details: string } }[];
      expect(error?.message.type).toBe("error");
      expect(error?.message.details).toMatch(details);
    }
    // The healthy connection is still served, and the HTTP API answers.
    await until(
      () => healthy.received.events.some((event) => messageType(event) === "conversation_created"),
      "conversation_created",
    );
    expect(healthy.received.close).toBeNull();
    expect((await server.api(token, "/v1/conversations")).status).toBe(200);
    // A client that never stops is ended after RECAP_LIVE_IDLE_SECONDS of silence on the wire.
    await until(() => healthy.received.close !== null, "the idle timeout");
    expect(healthy.received.close?.code).toBe(1000);
    expect(healthy.received.events.map(messageType)).toContain("conversation_completed");
  });

  it("refuses a connection past RECAP_LIVE_MAX_CONNECTIONS_PER_APP with an error event, and admits one again when another ends", async () => {
    const { token } = await server.newApp();
    const url = `${wsUrl}/v1/streaming/many?access_token=${token}`;
    const first = await connect(url);
    const second = await connect(url);
    // A socket opens before its token is checked: the first two are counted in once they have started.
    for (const client of [first, second]) {
      client.socket.send(JSON.stringify({ type: "start_request" }));
      await until(
        () => client.received.events.some((event) => messageType(event) === "started_listening"),
        "started_listening",
      );
    }
    const third = await connect(url);
    await until(() => third.received.close !== null, "the refusal");
    expect(third.received.close?.code).toBe(4429);
    const [refusal] = third.received.events as { message: { type: string; details: string } }[];
    expect(refusal?.message.details).toMatch(/RECAP_LIVE_MAX_CONNECTIONS_PER_APP/);
    expect(first.received.close).toBeNull();
    // Another app is not held back by this one's connections.
    const other = await connect(`${wsUrl}/v1/streaming/other?access_token=${(await server.newApp()).token}`);
    other.socket.send(JSON.stringify({ type: "start_request" }));
    await until(
      () => other.received.events.some((event) => messageType(event) === "started_listening"),
      "started_listening",
    );
    first.socket.close();
    await until(() => first.received.close !== null, "the first to close");
    // The server counts the first out when its socket closes, which the client may see a moment before.
    let fourth: Awaited<ReturnType<typeof connect>> = await connect(url);
    fourth.socket.send(JSON.stringify({ type: "start_request" }));
    await until(async () => {
      if (fourth.received.events.some((event) => messageType(event) === "started_listening")) return true;
      if (fourth.received.close?.code === 4429) {
        fourth = await connect(url);
        fourth.socket.send(JSON.stringify({ type: "start_request" }));
      }
      return false;
    }, "a connection to be admitted");
    for (const client of [second, fourth, other]) client.socket.close();
  });

  it("refuses 1,000 idle sockets past the limit at once, and the HTTP API and other apps' streams carry on", async () => {
    const { token } = await server.newApp();
    const url = `${wsUrl}/v1/streaming/idle?access_token=${token}`;
    const idle = await Promise.all(Array.from({ length: 1_000 }, () => connect(url)));
    await until(
      () => idle.filter((client) => client.received.close?.code === 4429).length === 998,
      "all but two to be refused",
    );
    expect((await server.api(token, "/v1/conversations")).status).toBe(200);
    const other = await connect(`${wsUrl}/v1/streaming/busy?access_token=${(await server.newApp()).token}`);
    other.socket.send(JSON.stringify({ type: "start_request" }));
    await until(
      () => other.received.events.some((event) => messageType(event) === "started_listening"),
      "started_listening",
    );
    // The two admitted ones never send a start_request: they are ended after 10 s.
    for (const client of [...idle, other]) client.socket.terminate();
  });

  it("ends a flood of tiny frames with an error event rather than queue it without bound", async () => {
    const { token } = await server.newApp();
    const { socket, received } = await connect(`${wsUrl}/v1/streaming/flood?access_token=${token}`);
    socket.send(JSON.stringify({ type: "start_request" }));
    await until(
      () => received.events.some((event) => messageType(event) === "started_listening"),
      "started_listening",
    );
    const tiny = Buffer.alloc(2);
    for (let i = 0; i < 20_000; i++) socket.send(tiny);
    await until(() => received.close !== null, "the close");
    expect(received.close?.code).toBe(4503);
    const error = received.events.find((event) => messageType(event) === "error") as {
      message: { details: string };
    };
    expect(error.message.details).toMatch(/faster than it can be recognised/);
  });
});

describe.each(await dialects())("live streaming without an engine that can stream on %s", (dialect) => {
  it("refuses the start_request with an error event saying why, when no engine is set up or the VAD is damaged", async () => {
    const kit = new MediaKit();
    // A silero-vad pulled into the models directory and damaged since: it is refused, not replaced by the shipped one.
    const damaged = join(kit.dir, "damaged");
    installEnergyVad(damaged);
    writeFileSync(join(damaged, "silero-vad", "silero_vad.onnx"), "not a model");
    const cases: [Record<string, string>, RegExp][] = [
      [{ RECAP_MODELS_DIR: join(kit.dir, "none") }, /No speech engine is set up/],
      [
        { RECAP_ASR_URL: "http://127.0.0.1:9/v1", RECAP_MODELS_DIR: damaged },
        /live recognition needs a VAD, and the one installed is damaged: `bin\/recap models pull silero-vad --force`/,
      ],
    ];
    for (const [env, details] of cases) {
      const server = await startTestServer(dialect, { env });
      try {
        const { token } = await server.newApp();
        const { socket, received } = await connect(
          `${server.url.replace(/^http/, "ws")}/v1/realtime/insights/x?access_token=${token}`,
        );
        socket.send(JSON.stringify({ type: "start_request" }));
        await until(() => received.close !== null, "the close");
        expect(received.close?.code).toBe(4503);
        const [error] = received.events as { message: { type: string; details: string } }[];
        expect(error?.message.details).toMatch(details);
        expect(await server.database.db.selectFrom("conversations").select("id").execute()).toEqual([]);
      } finally {
        await server.close();
      }
    }
    kit.close();
  });
});

/** A recogniser that hears each tone as a word, so a test can speak sentences the analysis understands. */
const WORDS = ["i", "will", "send", "the", "report", "tomorrow", "can", "you", "review", "budget"];
const WORD_TONES = WORDS.map((word, index) => ({
  piece: `\u2581${word}`,
  hz: Math.round(250 * 1.3 ** index),
}));
const spoken = (sentence: string): Part[] =>
  sentence.split(" ").map((word) => ({ tone: WORD_TONES[WORDS.indexOf(word)]!.hz, seconds: 0.3 }));

describe.each(await dialects())("live insights on %s", (dialect) => {
  it("sends the stream's insights and topics, found by its analysis, before the conversation completes", async () => {
    const kit = new MediaKit();
    const modelsDir = join(kit.dir, "models");
    const engine = installToneEngine(modelsDir, "words-ctc", WORD_TONES);
    const server = await startTestServer(dialect, {
      env: engine,
    });
    try {
      const { token } = await server.newApp();
      const audio = linear16(
        kit,
        "words",
        [
          { silence: 0.3 },
          ...spoken("i will send the report tomorrow"),
          { silence: 1 },
          ...spoken("can you review the budget"),
          { silence: 1 },
        ],
        16_000,
      );
      await sdk.init({ accessToken: token, basePath: server.url });
      const messages: string[] = [];
      const insights: { type: string; payload: { content: string } }[] = [];
      const topics: { phrases: string }[] = [];
      const connection = await sdk.startRealtimeRequest({
        id: "0b7e0a4c-3c1e-4d4b-8f6e-7d2c9a1b5e20",
        insightTypes: ["action_item", "question"],
        config: { meetingTitle: "Budget", sampleRateHertz: 16_000 },
        speaker: { userId: "ada@example.com", name: "Ada" },
        handlers: {
          onMessageResponse: (data: { payload: { content: string } }[]) =>
            messages.push(...data.map((message) => message.payload.content)),
          onInsightResponse: (data: { type: string; payload: { content: string } }[]) =>
            insights.push(...data),
          onTopicResponse: (data: { phrases: string }[]) => topics.push(...data),
        },
      });
      await stream((frame) => connection.sendAudio(frame), audio, 16_000, 100, 4);
      await until(() => messages.length === 2, "both messages");
      await connection.stop();
      await until(() => insights.length > 0 && topics.length > 0, "the insights and topics");
      expect(messages).toEqual(["i will send the report tomorrow", "can you review the budget"]);
      expect(insights.map((insight) => [insight.type, insight.payload.content])).toEqual([
        ["action_item", "I will send the report tomorrow"],
        ["action_item", "Can you review the budget"],
      ]);
      expect(topics.map((topic) => topic.phrases)).toEqual(["budget"]);
    } finally {
      await server.close();
      kit.close();
    }
  });
});

describe.each(await dialects())("a live stream that never stops on %s", (dialect) => {
  it("is ended at RECAP_MEDIA_MAX_SECONDS with an error event, keeping what was said", async () => {
    const kit = new MediaKit();
    const modelsDir = join(kit.dir, "models");
    const engine = installToneEngine(modelsDir);
    const server = await startTestServer(dialect, {
      env: { ...engine, RECAP_MEDIA_MAX_SECONDS: "2" },
    });
    try {
      const { token } = await server.newApp();
      const audio = linear16(kit, "long", [{ tone: VOICES[0], seconds: 4 }], 16_000);
      const { socket, received } = await connect(
        `${server.url.replace(/^http/, "ws")}/v1/streaming/long?access_token=${token}`,
      );
      socket.send(JSON.stringify({ type: "start_request" }));
      await until(
        () => received.events.some((event) => messageType(event) === "started_listening"),
        "started",
      );
      await stream(
        (frame) => {
          if (socket.readyState === WebSocket.OPEN) socket.send(frame);
        },
        audio,
        16_000,
        100,
        20,
      );
      await until(() => received.close !== null, "the close");
      expect(received.close?.code).toBe(1000);
      const error = received.events.find((event) => messageType(event) === "error") as {
        message: { details: string };
      };
      expect(error.message.details).toMatch(/the stream passed 2 s \(RECAP_MEDIA_MAX_SECONDS\)/);
      // What was said is recognised, stored and analysed (its topics, if any, are not asserted here).
      const types = received.events
        .map(messageType)
        .filter((type) => !type.endsWith("_response") || type === "message_response");
      expect(types.slice(types.indexOf("error"))).toEqual([
        "error",
        "recognition_result",
        "message_response",
        "conversation_completed",
        "recognition_stopped",
      ]);
    } finally {
      await server.close();
      kit.close();
    }
  });
});

describe.each(await dialects())("the local engine's VADs under live streams on %s", (dialect) => {
  it("are given back however a stream ends, so the engine makes no more than the streams open at once", async () => {
    const kit = new MediaKit();
    const modelsDir = join(kit.dir, "models");
    const engine = installToneEngine(modelsDir);
    const server = await startTestServer(dialect, {
      env: { ...engine, RECAP_LIVE_IDLE_SECONDS: "1" },
    });
    try {
      const { token } = await server.newApp();
      const url = `${server.url.replace(/^http/, "ws")}/v1/streaming/vads?access_token=${token}`;
      const audio = linear16(kit, "short", [{ tone: VOICES[1], seconds: 0.4 }, { silence: 0.2 }], 16_000);
      /** Each way a stream ends, and the close code the client sees (null: the client left first). */
      const endings: Record<string, [Record<string, unknown>, (socket: WebSocket) => void, number | null]> = {
        stop_request: [{}, (socket) => socket.send(JSON.stringify({ type: "stop_request" })), 1000],
        "a bad request": [{}, (socket) => socket.send(JSON.stringify({ type: "hello" })), 4400],
        "the client going away": [{}, (socket) => socket.terminate(), null],
        "the idle timeout": [{}, () => undefined, 1000],
        "undecodable audio": [
          { config: { speechRecognition: { encoding: "OPUS" } } },
          (socket) => socket.send(JSON.stringify({ type: "stop_request" })),
          4400,
        ],
      };
      const end = async (ending: keyof typeof endings) => {
        const [start, then, code] = endings[ending]!;
        const { socket, received } = await startStream(url, start);
        socket.send(ending === "undecodable audio" ? Buffer.alloc(8192, 7) : audio);
        then(socket);
        if (code !== null) await until(() => received.close !== null, `the close after ${ending}`);
        return [ending, code === null ? null : received.close?.code];
      };
      const vads = async () => (await server.services.speech.engine()).vads?.();
      const names = Object.keys(endings);
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < names.length; i++) {
          const pair = [names[i]!, names[(i + 1) % names.length]!];
          const closes = await Promise.all(pair.map(end));
          expect(closes).toEqual(pair.map((name) => [name, endings[name]![2]]));
          // Every stream of the pair gives its VAD back, the one whose client left too.
          await until(async () => {
            const counts = await vads();
            return counts !== undefined && counts.idle === counts.made;
          }, "every VAD to be given back");
        }
      }
      const counts = await vads();
      expect(counts?.made).toBeLessThanOrEqual(2);
      expect(counts?.idle).toBe(counts?.made);
    } finally {
      await server.close();
      kit.close();
    }
  });
});

describe.each(await dialects())("a live connection's pings and oversized frames on %s", (dialect) => {
  it("answers a burst of pings, ends a client that never reads their answers with 4429, and logs an oversized frame in one line", async () => {
    const testDatabase = await createTestDatabase(dialect);
    const helper = await startTestServer(dialect, { runJobs: false, testDatabase });
    const kit = new MediaKit();
    // The stream below sends no audio while its pings are answered: a busy machine can take past the 60 s a silent
    // stream is given before it is ended (1000), so the child gives it 10 minutes.
    const child = startMain(testDatabase, 0, [], {
      ...installToneEngine(join(kit.dir, "models")),
      RECAP_LIVE_IDLE_SECONDS: "600",
    });
    try {
      const url = await untilValue(
        () => /Recap listening on (http:\/\/[\d.]+:\d+)/.exec(child.output())?.[1],
        60_000,
      );
      if (url === undefined) throw new Error(`the server did not start:\n${child.output()}`);
      const { token } = await helper.newApp();
      const address = `${url.replace(/^http/, "ws")}/v1/streaming/pings?access_token=${token}`;

      // 200 pings right after connecting: each is answered, and the connection stays open.
      const burst = await connect(address);
      let pongs = 0;
      burst.socket.on("pong", () => (pongs += 1));
      for (let i = 0; i < 200; i++) burst.socket.ping();
      await until(() => pongs === 200 || burst.received.close !== null, "the pongs");
      expect([pongs, burst.received.close]).toEqual([200, null]);
      burst.socket.close();

      // A client that sends pings and reads nothing: once a megabyte of answers waits, an error event and a close.
      // Its stream is started first, so that only the pings can end it (however long a busy machine takes to
      // answer them, the 10 s a connection has to send its start_request does not apply).
      const deaf = await startStream(address);
      deaf.socket.pause();
      const payload = Buffer.alloc(125, 1);
      for (let i = 0; i < 200_000; i++) deaf.socket.ping(payload);
      deaf.socket.resume();
      await until(() => deaf.received.close !== null, "the close", { tries: 4800 });
      expect(deaf.received.close?.code).toBe(4429);
      expect(deaf.received.events.filter((event) => messageType(event) === "error")).toEqual([
        {
          type: "message",
          message: {
            type: "error",
            code: "too_many_requests",
            details: "pings arrive faster than their answers are read: the connection was ended",
          },
        },
      ]);

      // A frame past 1 MiB is answered with 1009 and logged as one line at info, with no stack.
      for (let i = 0; i < 3; i++) {
        const big = await connect(address);
        big.socket.send(Buffer.alloc(1024 * 1024 + 1));
        await until(() => big.received.close !== null, "the close");
        expect(big.received.close?.code).toBe(1009);
      }
      const logged = () =>
        child
          .output()
          .split("\n")
          .filter((line) => line.includes("Max payload size exceeded"));
      await until(() => logged().length === 3, "three log lines");
      for (const line of logged()) {
        expect(JSON.parse(line)).toMatchObject({ level: 30, wsError: "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH" });
        expect(line).not.toContain("stack");
      }
    } finally {
      child.process.kill("SIGKILL");
      await helper.close();
      await testDatabase.drop();
      kit.close();
    }
  }, 360_000);
});

describe.each(await dialects())("a live stream's limits on %s", (dialect) => {
  const kit = new MediaKit();
  const modelsDir = join(kit.dir, "models");
  const engine = installToneEngine(modelsDir);
  afterAll(() => kit.close());

  it("leaves one app fewer live connections than the process serves, by default", async () => {
    const server = await startTestServer(dialect, {
      env: engine,
    });
    try {
      const wsUrl = server.url.replace(/^http/, "ws");
      const { token } = await server.newApp();
      const open = [];
      for (let i = 0; i < 5; i++)
        open.push(await startStream(`${wsUrl}/v1/streaming/busy-${i}?access_token=${token}`));
      const sixth = await connect(`${wsUrl}/v1/streaming/busy-6?access_token=${token}`);
      await until(() => sixth.received.close !== null, "the refusal");
      expect(sixth.received.close?.code).toBe(4429);
      const [refusal] = sixth.received.events as { message: { details: string } }[];
      expect(refusal?.message.details).toBe(
        "this app already has 5 live connections (RECAP_LIVE_MAX_CONNECTIONS_PER_APP); try again later",
      );
      const other = await startStream(
        `${wsUrl}/v1/streaming/mine?access_token=${(await server.newApp()).token}`,
      );
      expect(other.received.close).toBeNull();
      for (const client of [...open, other]) client.socket.close();
    } finally {
      await server.close();
    }
  });

  it("ends a stream that trickles bytes at RECAP_LIVE_MAX_CONNECTION_SECONDS, keeping its lines as a stop would", async () => {
    const server = await startTestServer(dialect, {
      env: {
        ...engine,
        RECAP_LIVE_MAX_CONNECTION_SECONDS: "4",
      },
    });
    try {
      const { token } = await server.newApp();
      const { socket, received, conversationId } = await startStream(
        `${server.url.replace(/^http/, "ws")}/v1/streaming/trickle?access_token=${token}`,
      );
      socket.send(linear16(kit, "trickle", [{ tone: VOICES[1], seconds: 1 }, { silence: 1 }], 16_000));
      // Two bytes at a time, well within the idle timeout: only the time the connection has been open ends it.
      while (received.close === null) {
        if (socket.readyState === WebSocket.OPEN) socket.send(Buffer.alloc(2));
        await sleep(200);
      }
      expect(received.close.code).toBe(1000);
      const types = received.events
        .map(messageType)
        .filter(
          (type) => type !== "recognition_result" && type !== "topic_response" && type !== "insight_response",
        );
      expect(types).toEqual([
        "started_listening",
        "recognition_started",
        "conversation_created",
        "message_response",
        "error",
        "conversation_completed",
        "recognition_stopped",
      ]);
      const error = received.events.find((event) => messageType(event) === "error") as {
        message: { details: string };
      };
      expect(error.message.details).toBe(
        "the connection passed 4 s (RECAP_LIVE_MAX_CONNECTION_SECONDS): it was ended",
      );
      const stored = await readBody<Body.MessageList>(
        server,
        token,
        `/v1/conversations/${conversationId}/messages`,
      );
      expect(stored.messages.map((message) => message.text)).toEqual(["hi"]);
    } finally {
      await server.close();
    }
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readBody } from "../helpers/api.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { connect, linear16, messageType, type Received, sdk, startStream, stream } from "../helpers/live.ts";
import { MediaKit } from "../helpers/media.ts";
import { startSpeechServer, type SpeechServer, type TranscriptionRequest } from "../helpers/speech-server.ts";
import { until } from "../helpers/wait.ts";

/**
 * Two espeak-ng sentences of clearly different lengths. A live utterance's request always starts near 0 s, so the
 * stand-in server tells which sentence it was sent by the length of the speech in it: what it answers proves
 * that each sentence went whole, as one request.
 */
const SHORT = "Yes, thank you.";
const LONG = "We agreed to ship the remote control in March, and Dana will send the budget by Friday.";
const heard = (_start: number, request: TranscriptionRequest) =>
  request.voiced.reduce((sum, [from, to]) => sum + to - from, 0) > 2.5 ? "the long one" : "the short one";

/** The events of one kind a plain WebSocket client received. */
const eventsOf = (received: Received, type: string) =>
  received.events.filter((event) => messageType(event) === type);

describe.each(await dialects())("live streaming on a remote engine on %s", (dialect) => {
  const kit = new MediaKit();
  let speech: SpeechServer;
  let server: TestServer;
  /** The same, with RECAP_LIVE_INTERIM_SECONDS=0: only finals are requested. */
  let quiet: TestServer;
  let wsUrl: string;
  let audio: Buffer;
  const rate = 16_000;

  beforeAll(async () => {
    // The real Silero VAD shipped with Recap cuts the utterances; the stand-in server speaks OpenAI's API.
    speech = await startSpeechServer("openai", heard);
    server = await startTestServer(dialect, {
      env: { RECAP_ASR_URL: speech.url, RECAP_ASR_TIMEOUT_SECONDS: "2", RECAP_LIVE_IDLE_SECONDS: "5" },
    });
    quiet = await startTestServer(dialect, {
      env: { RECAP_ASR_URL: speech.url, RECAP_LIVE_INTERIM_SECONDS: "0" },
    });
    wsUrl = server.url.replace(/^http/, "ws");
    audio = linear16(
      kit,
      "sentences",
      [{ silence: 0.5 }, { say: SHORT }, { silence: 1.5 }, { say: LONG }, { silence: 1.5 }],
      rate,
    );
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await quiet.close();
    await speech.close();
    kit.close();
  });
  beforeEach(() => {
    speech.requests.length = 0;
    speech.faults = [];
    speech.failWith = null;
    speech.delayMs = 0;
  });

  /** The conversation's stored lines, once its analysis job has completed. */
  const analysedLines = async (token: string, conversationId: string, on = server) => {
    await until(async () => {
      const jobs = await on.database.db
        .selectFrom("jobs")
        .select("id")
        .where("conversation_id", "=", conversationId)
        .execute();
      return jobs.length === 1 && (await waitForJob(on, token, jobs[0]!.id)) === "completed";
    }, "the analysis job");
    const { messages } = await readBody<Body.MessageList>(
      on,
      token,
      `/v1/conversations/${conversationId}/messages`,
    );
    return messages.map((message) => message.text);
  };

  it("serves Symbl's JavaScript SDK: each sentence sent whole as one request, interims re-sent as it grows", async () => {
    const { token } = await server.newApp();
    await sdk.init({ accessToken: token, basePath: server.url });
    const results: { isFinal: boolean; transcript: string }[] = [];
    const messages: string[] = [];
    const connection = await sdk.startRealtimeRequest({
      id: `5d1f7e2a-0b3c-4c1d-8e9f-${dialect === "sqlite" ? "1" : "2"}a2b3c4d5e6f`,
      config: { meetingTitle: "Remote", languageCode: "en-US", sampleRateHertz: rate },
      speaker: { userId: "ada@example.com", name: "Ada" },
      handlers: {
        onSpeechDetected: (data: { isFinal: boolean; punctuated: { transcript: string } }) =>
          results.push({ isFinal: data.isFinal, transcript: data.punctuated.transcript }),
        onMessageResponse: (data: { payload: { content: string } }[]) =>
          messages.push(...data.map((message) => message.payload.content)),
      },
    });
    await stream((frame) => connection.sendAudio(frame), audio, rate, 100, 2);
    await until(() => messages.length === 2, "both messages");
    await connection.stop();

    expect(results.filter((result) => result.isFinal).map((result) => result.transcript)).toEqual([
      "the short one",
      "the long one",
    ]);
    expect(messages).toEqual(["the short one", "the long one"]);
    // The long sentence was re-sent while it was spoken: interims before its final, of less audio than it.
    const interims = results.filter((result) => !result.isFinal);
    expect(interims.length).toBeGreaterThan(0);
    // Two finals and the interims: the longest request is the long sentence's final, its interims shorter.
    expect(speech.requests.length).toBeGreaterThan(2);
    for (const { fields } of speech.requests) {
      expect(fields).toMatchObject({
        model: ["whisper-1"],
        language: ["en"],
        response_format: ["verbose_json"],
      });
    }
    // Every request is one stretch of speech, never two sentences merged across the pause.
    expect(speech.requests.every((request) => request.voiced.length <= 1)).toBe(true);
    expect(await analysedLines(token, connection.conversationId)).toEqual(["the short one", "the long one"]);
  });

  it("sends one request per utterance and no interims with RECAP_LIVE_INTERIM_SECONDS=0", async () => {
    const { token } = await quiet.newApp();
    const { socket, received } = await startStream(
      `${quiet.url.replace(/^http/, "ws")}/v1/streaming/no-interims?access_token=${token}`,
      { config: { speechRecognition: { sampleRateHertz: rate } } },
    );
    await stream((frame) => socket.send(frame), audio, rate, 250, 8);
    socket.send(JSON.stringify({ type: "stop_request" }));
    await until(() => received.close !== null, "the close");
    const recognised = eventsOf(received, "recognition_result") as {
      message: { isFinal: boolean; punctuated: { transcript: string } };
    }[];
    expect(recognised.map((event) => [event.message.isFinal, event.message.punctuated.transcript])).toEqual([
      [true, "the short one"],
      [true, "the long one"],
    ]);
    expect(speech.requests).toHaveLength(2);
  });

  it("retries an utterance the server failed (503, closed mid-answer, 502), and the stream goes on", async () => {
    const { token } = await quiet.newApp();
    speech.faults = [
      { status: 503, body: '{"error":"loading"}' },
      "close mid-answer",
      null,
      { status: 502, body: "" },
    ];
    const { socket, received, conversationId } = await startStream(
      `${quiet.url.replace(/^http/, "ws")}/v1/streaming/retried?access_token=${token}`,
      { config: { speechRecognition: { sampleRateHertz: rate } } },
    );
    await stream((frame) => socket.send(frame), audio, rate, 100, 8);
    socket.send(JSON.stringify({ type: "stop_request" }));
    await until(() => received.close !== null, "the close");
    expect(received.close?.code).toBe(1000);
    expect(eventsOf(received, "error")).toEqual([]);
    // The short sentence's final failed twice and was sent a third time; the long one's once and twice.
    expect(speech.requests).toHaveLength(5);
    expect(await analysedLines(token, conversationId, quiet)).toEqual(["the short one", "the long one"]);
  });

  it.each([
    ["answers malformed JSON", { status: 200, body: "<html>Bad gateway</html>" }, /answer is not JSON/],
    ["answers 500 every time", { status: 500, body: "" }, /answered HTTP 500/],
    ["closes mid-answer every time", "close mid-answer" as const, /could not be reached/],
  ])(
    "when the server %s: an error event naming the cause, a clean close, the lines so far kept and analysed",
    async (_name, fault, cause) => {
      const { token } = await server.newApp();
      const { socket, received, conversationId } = await startStream(
        `${wsUrl}/v1/streaming/failing?access_token=${token}`,
        { config: { speechRecognition: { sampleRateHertz: rate } } },
      );
      const half = Math.round(3.2 * rate) * 2;
      await stream((frame) => socket.send(frame), audio.subarray(0, half), rate, 100, 8);
      await until(() => eventsOf(received, "message_response").length === 1, "the first line");
      speech.failWith = fault;
      await stream((frame) => socket.send(frame), audio.subarray(half), rate, 100, 8);
      await until(() => received.close !== null, "the close");
      expect(received.close?.code).toBe(4503);
      const [error] = eventsOf(received, "error") as { message: { details: string } }[];
      expect(error?.message.details).toMatch(cause);
      expect(error?.message.details).toMatch(/the lines recognised so far are kept/);
      expect(error?.message.details).not.toContain("Bad gateway");
      expect(error?.message.details).not.toContain("127.0.0.1");
      expect(await analysedLines(token, conversationId)).toEqual(["the short one"]);
    },
  );

  it("says when the server does not answer in time, while the API and other streams go on", async () => {
    const { token } = await server.newApp();
    const { socket, received, conversationId } = await startStream(
      `${wsUrl}/v1/streaming/slow?access_token=${token}`,
      { config: { speechRecognition: { sampleRateHertz: rate } } },
    );
    const half = Math.round(3.2 * rate) * 2;
    await stream((frame) => socket.send(frame), audio.subarray(0, half), rate, 100, 8);
    await until(() => eventsOf(received, "message_response").length === 1, "the first line");
    speech.delayMs = 60_000;
    const asked = speech.requests.length;
    await stream((frame) => socket.send(frame), audio.subarray(half), rate, 100, 8);
    await until(() => speech.requests.length > asked, "a request");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const other = await connect(`${wsUrl}/v1/streaming/other?access_token=${token}`);
    other.socket.send(JSON.stringify({ type: "start_request" }));
    await until(() => eventsOf(other.received, "started_listening").length === 1, "the other stream");
    other.socket.send(JSON.stringify({ type: "stop_request" }));
    await until(() => other.received.close !== null, "the other stream's close");
    expect(other.received.close?.code).toBe(1000);

    await until(() => received.close !== null, "the close");
    expect(received.close?.code).toBe(4503);
    const [error] = eventsOf(received, "error") as { message: { details: string } }[];
    expect(error?.message.details).toMatch(/did not answer within 2 seconds/);
    expect(await analysedLines(token, conversationId)).toEqual(["the short one"]);
  });

  it("ends a stream that arrives faster than the server recognises with 4503, not an unbounded queue", async () => {
    const { token } = await server.newApp();
    speech.delayMs = 5_000;
    const wide = 48_000;
    const long = linear16(
      kit,
      "long",
      Array.from({ length: 12 }, () => [{ say: LONG }, { silence: 0.8 }]).flat(),
      wide,
    );
    const { socket, received } = await startStream(`${wsUrl}/v1/streaming/flood?access_token=${token}`, {
      config: { speechRecognition: { sampleRateHertz: wide } },
    });
    await stream((frame) => socket.send(frame), long, wide, 250, 100);
    await until(() => received.close !== null, "the close");
    expect(received.close?.code).toBe(4503);
    const [error] = eventsOf(received, "error") as { message: { details: string } }[];
    expect(error?.message.details).toMatch(/faster than it can be recognised/);
  });
});

import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBody } from "../helpers/api.ts";
import { startMain, startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { createTestDatabase, dialects } from "../helpers/databases.ts";
import { until, untilValue } from "../helpers/wait.ts";
import { writeRecording } from "../helpers/audio.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { JFK, JFK_PHRASES, VAD_TOLERANCE_SECONDS } from "../helpers/jfk.ts";
import { MediaHost, MediaKit } from "../helpers/media.ts";
import {
  installEnergyVad,
  installOneWordRecogniser,
  installToneDiarization,
  installToneEngine,
  installToneRecogniser,
  VOICES,
} from "../../scripts/speech-models/models.ts";
import { startSpeechServer, type SpeechServer } from "../helpers/speech-server.ts";

/** What the recordings say, and where (seconds into their channel). */
const SAID = [
  { text: "Welcome to the budget review", atSeconds: 0.3 },
  { text: "Dana will send the numbers by Friday", atSeconds: 4 },
  { text: "Thanks everyone that is all for today", atSeconds: 8 },
];
const nearest = (seconds: number) =>
  SAID.reduce((best, said) =>
    Math.abs(said.atSeconds - seconds) < Math.abs(best.atSeconds - seconds) ? said : best,
  ).text;

interface Message {
  text: string;
  from: { name?: string; email?: string };
  timeOffset: number | null;
  duration: number | null;
}

/** Uploads `file` to `POST /v1/process/audio{query}`, waits for its job to complete, and gives the messages. */
async function transcribed(
  server: TestServer,
  token: string,
  file: string,
  { query = "", type = "audio/wav" } = {},
): Promise<Message[]> {
  const response = await fetch(`${server.url}/v1/process/audio${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": type },
    body: readFileSync(file),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const accepted = (await response.json()) as Body.Accepted;
  expect(await waitForJob(server, token, accepted.jobId)).toBe("completed");
  const path = `/v1/conversations/${accepted.conversationId}/messages`;
  return (await readBody<{ messages: Message[] }>(server, token, path)).messages;
}

describe.each(await dialects())("recorded media on %s", (dialect) => {
  const kit = new MediaKit();
  let host: MediaHost;
  let speech: SpeechServer;
  let server: TestServer;
  let token: string;
  let oneVoice: string;

  beforeAll(async () => {
    host = await new MediaHost().listen();
    speech = await startSpeechServer("openai", nearest);
    server = await startTestServer(dialect, {
      env: {
        RECAP_ASR_URL: speech.url,
        RECAP_ASR_MODEL: "whisper-large-v3",
        RECAP_MEDIA_ALLOW_HOSTS: "localhost",
        RECAP_MEDIA_DIR: join(kit.dir, "store"),
        RECAP_MEDIA_MAX_SECONDS: "60",
        RECAP_MEDIA_FETCH_TIMEOUT_SECONDS: "3",
        RECAP_ASR_PART_SECONDS: "30",
      },
    });
    token = (await server.newApp()).token;
    oneVoice = await kit.speech(SAID, 12);
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await speech.close();
    await host.close();
    kit.close();
  });

  const upload = (path: string, file: string, type: string | null, method = "POST") =>
    fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(type !== null && { "content-type": type }) },
      body: readFileSync(file),
    });
  const read = async <T>(path: string) => {
    const response = await server.api(token, path);
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const completed = async (response: Response) => {
    expect(response.status, await response.clone().text()).toBe(201);
    const accepted = (await response.json()) as Body.Accepted;
    expect(await waitForJob(server, token, accepted.jobId)).toBe("completed");
    return accepted;
  };
  const messagesOf = async (conversationId: string) =>
    (await read<{ messages: Message[] }>(`/v1/conversations/${conversationId}/messages`)).messages;
  const conversationCount = async () =>
    (await read<{ conversations: unknown[] }>("/v1/conversations")).conversations.length;

  it.each(["mp3", "m4a", "ogg", "webm", "flac", "wav"] as const)(
    "transcribes an uploaded %s file into timed messages, one unnamed speaker, and a summary",
    async (format) => {
      const file = await kit.encode(oneVoice, format);
      const types = {
        mp3: "audio/mpeg",
        m4a: "audio/mp4",
        ogg: "audio/ogg",
        webm: "audio/webm",
        flac: "audio/flac",
        wav: "audio/wav",
      };
      const accepted = await completed(await upload("/v1/process/audio?name=Budget", file, types[format]));
      const messages = await messagesOf(accepted.conversationId);
      expect(messages.map((message) => message.text)).toEqual(SAID.map((said) => said.text));
      for (const [index, message] of messages.entries()) {
        // The server measured where the sound is in what Recap decoded: within a fifth of a second.
        expect(Math.abs((message.timeOffset ?? -1) - (SAID[index]?.atSeconds ?? 0))).toBeLessThan(0.2);
        expect(message.duration).toBeGreaterThan(0.5);
        expect(message.from).toEqual({});
      }
      const job = await read<Body.Job>(`/v1/job/${accepted.jobId}`);
      expect(job).toEqual({ id: accepted.jobId, status: "completed", progress: 100 });
      const conversation = await read<{ name: string }>(`/v1/conversations/${accepted.conversationId}`);
      expect(conversation.name).toBe("Budget");
      const actions = await read<{ actionItems: { text: string }[] }>(
        `/v1/conversations/${accepted.conversationId}/action-items`,
      );
      expect(actions.actionItems.map((item) => item.text).join(" ")).toMatch(/Dana will send the numbers/);
    },
    60_000,
  );

  it("sends the engine the model, the language and the vocabulary, as 16 kHz WAV", async () => {
    speech.requests.length = 0;
    const accepted = await completed(
      await upload(
        "/v1/process/audio?languageCode=en-GB&customVocabulary=Dana&customVocabulary=Friday",
        oneVoice,
        "audio/wav",
      ),
    );
    const [sent] = speech.requests;
    expect(sent?.fields).toMatchObject({
      model: ["whisper-large-v3"],
      language: ["en"],
      prompt: ["Dana, Friday"],
      response_format: ["verbose_json"],
    });
    expect(sent?.seconds).toBeCloseTo(12, 1);
    // The engine's word times reach the API as Symbl's verbose messages gave them.
    const verbose = await read<{ messages: (Message & { words: { word: string; timeOffset: number }[] })[] }>(
      `/v1/conversations/${accepted.conversationId}/messages?verbose=true`,
    );
    const [first] = verbose.messages;
    expect(first?.words.map((word) => word.word)).toEqual(["Welcome", "to", "the", "budget", "review"]);
    expect(Math.abs((first?.words[0]?.timeOffset ?? -1) - 0.3)).toBeLessThan(0.2);
    expect((await messagesOf(accepted.conversationId))[0]).not.toHaveProperty("words");
    // The language the submission named is the conversation's, not one detected from the text.
    const conversation = await read<{ languageCode: string }>(`/v1/conversations/${accepted.conversationId}`);
    expect(conversation.languageCode).toBe("en-GB");
  });

  it.each(["whisper.cpp", "vllm", "localai"] as const)(
    "reads a %s server's answers alike",
    async (dialect) => {
      speech.dialect = dialect;
      try {
        const accepted = await completed(await upload("/v1/process/audio", oneVoice, "audio/wav"));
        const messages = await messagesOf(accepted.conversationId);
        expect(messages.map((message) => message.text)).toEqual(SAID.map((said) => said.text));
        expect(messages.map((message) => Math.round(message.timeOffset ?? -1))).toEqual([0, 4, 8]);
      } finally {
        speech.dialect = "openai";
      }
    },
    60_000,
  );

  it("sends a file longer than RECAP_ASR_PART_SECONDS in parts, keeping each part's offset", async () => {
    const long = await kit.speech(
      [
        { text: "Welcome to the budget review", atSeconds: 4 },
        { text: "Thanks everyone that is all for today", atSeconds: 38 },
      ],
      45,
    );
    speech.requests.length = 0;
    // Each part is heard on its own: the first utterance 4 s into the first part, the second 8 s into the second.
    speech.textAt = (seconds) =>
      seconds < 6 ? "Welcome to the budget review" : "Thanks everyone that is all for today";
    try {
      const accepted = await completed(await upload("/v1/process/audio", long, "audio/wav"));
      // The first part ends in the silence of its last tenth (27-30 s), the second takes the rest.
      const [first, second] = speech.requests.map((request) => request.seconds);
      expect(speech.requests).toHaveLength(2);
      expect(first).toBeGreaterThan(27);
      expect(first).toBeLessThanOrEqual(30);
      expect((first ?? 0) + (second ?? 0)).toBeCloseTo(45, 1);
      const messages = await messagesOf(accepted.conversationId);
      expect(messages.map((message) => [message.text, Math.round(message.timeOffset ?? -1)])).toEqual([
        ["Welcome to the budget review", 4],
        ["Thanks everyone that is all for today", 38],
      ]);
    } finally {
      speech.textAt = nearest;
    }
  }, 60_000);

  it("cuts a recording longer than RECAP_ASR_PART_SECONDS in a pause, so no utterance is split between parts", async () => {
    // The second utterance runs across the 30 s point: the part must end before it, in the pause.
    const across = await kit.speech(
      [
        { text: "Welcome to the budget review", atSeconds: 20 },
        { text: "Dana will send the numbers by Friday", atSeconds: 28.8 },
      ],
      36,
    );
    speech.requests.length = 0;
    // Speech late in a part is the first utterance; early in a part, the second.
    speech.textAt = (seconds) =>
      seconds >= 10 ? "Welcome to the budget review" : "Dana will send the numbers by Friday";
    try {
      const accepted = await completed(await upload("/v1/process/audio", across, "audio/wav"));
      const [first, second] = speech.requests;
      expect(speech.requests).toHaveLength(2);
      expect(first?.seconds).toBeGreaterThan(27);
      expect(first?.seconds).toBeLessThan(28.8);
      // Each part's sound lies inside it: nothing runs up to the cut.
      expect(first?.voiced.every(([, end]) => end < (first.seconds ?? 0) - 0.1)).toBe(true);
      expect(second?.voiced[0]?.[0]).toBeGreaterThan(0.1);
      const messages = await messagesOf(accepted.conversationId);
      expect(messages.map((message) => message.text)).toEqual([
        "Welcome to the budget review",
        "Dana will send the numbers by Friday",
      ]);
      expect(Math.abs((messages[1]?.timeOffset ?? -1) - 28.8)).toBeLessThan(0.3);
    } finally {
      speech.textAt = nearest;
    }
  }, 60_000);

  it("transcribes a video's sound track, uploaded or fetched from a URL", async () => {
    const video = await kit.video(oneVoice, 12);
    const uploaded = await completed(await upload("/v1/process/video", video, "video/mp4"));
    expect((await messagesOf(uploaded.conversationId)).map((message) => message.text)).toEqual(
      SAID.map((said) => said.text),
    );
    host.files.set("/meeting.mp4", video);
    const fetched = await completed(
      await server.api(token, "/v1/process/video/url", {
        method: "POST",
        body: { url: host.url("/meeting.mp4", "localhost"), name: "From a URL" },
      }),
    );
    expect((await messagesOf(fetched.conversationId)).map((message) => message.text)).toEqual(
      SAID.map((said) => said.text),
    );
  }, 60_000);

  it("gives each channel of a call its speaker from channelMetadata, in time order", async () => {
    const agent = await kit.speech([{ text: "Welcome to the budget review", atSeconds: 0.3 }], 12);
    const customer = await kit.speech(
      [
        { text: "Dana will send the numbers by Friday", atSeconds: 4, voice: "en-gb" },
        { text: "Thanks everyone that is all for today", atSeconds: 8, voice: "en-gb" },
      ],
      12,
    );
    const call = await kit.encode(await kit.channels([agent, customer]), "m4a");
    host.files.set("/call.m4a", call);
    speech.requests.length = 0;
    const accepted = await completed(
      await server.api(token, "/v1/process/audio/url", {
        method: "POST",
        body: {
          url: host.url("/call.m4a", "localhost"),
          channelMetadata: [
            { channel: 2, speaker: { name: "Customer", email: "customer@example.com" } },
            { channel: 1, speaker: { name: "Agent", email: "agent@example.com" } },
          ],
        },
      }),
    );
    // One request per channel, each with only that channel's speech.
    expect(speech.requests.map((request) => request.voiced.length)).toEqual([1, 2]);
    const messages = await messagesOf(accepted.conversationId);
    expect(messages.map((message) => [message.from.name, message.from.email, message.text])).toEqual([
      ["Agent", "agent@example.com", "Welcome to the budget review"],
      ["Customer", "customer@example.com", "Dana will send the numbers by Friday"],
      ["Customer", "customer@example.com", "Thanks everyone that is all for today"],
    ]);
    const members = await read<{ members: { name: string; email?: string }[] }>(
      `/v1/conversations/${accepted.conversationId}/members`,
    );
    expect(members.members.map((member) => member.name).sort()).toEqual(["Agent", "Customer"]);
  }, 60_000);

  it("transcribes what arrived of an MP3 cut short", async () => {
    const mp3 = readFileSync(await kit.encode(oneVoice, "mp3"));
    const cut = join(kit.dir, "cut.mp3");
    writeFileSync(cut, mp3.subarray(0, Math.floor(mp3.length * 0.6)));
    const accepted = await completed(await upload("/v1/process/audio", cut, "audio/mpeg"));
    expect((await messagesOf(accepted.conversationId)).map((message) => message.text)).toEqual(
      SAID.slice(0, 2).map((said) => said.text),
    );
  }, 60_000);

  it("appends a second file after the first, in order, with PUT", async () => {
    const first = await completed(await upload("/v1/process/audio", oneVoice, "audio/wav"));
    const second = await kit.speech([{ text: "Dana will send the numbers by Friday", atSeconds: 4 }], 6);
    await completed(await upload(`/v1/process/audio/${first.conversationId}`, second, "audio/wav", "PUT"));
    const messages = await messagesOf(first.conversationId);
    expect(messages).toHaveLength(4);
    // The second file's speech is 4 s into it, after the first file's 12 s.
    expect(messages[3]?.timeOffset).toBeGreaterThan(15.5);
    expect(messages[3]?.timeOffset).toBeLessThan(16.5);
  }, 60_000);

  it("refuses what is not media, with no audio, too long or of a wrong type, storing nothing", async () => {
    const before = await conversationCount();
    const notMedia = join(kit.dir, "notes.txt");
    writeFileSync(notMedia, "This is a text file, not a recording.\n".repeat(50));
    // Random bytes, the same each run; sent as MP3, so Recap stores them as `.mp3`, the name ffprobe guesses from.
    const noise = join(kit.dir, "noise.bin");
    let seed = 35;
    writeFileSync(
      noise,
      Uint8Array.from({ length: 200_000 }, () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) >>> 23),
    );
    for (const file of [notMedia, noise]) {
      const refused = await upload("/v1/process/audio", file, "audio/mpeg");
      expect(refused.status).toBe(400);
      const { message } = (await refused.json()) as { message: string };
      expect(message).toBe(
        "body: the file is not a media file Recap reads (one audio or video recording: WAV, MP3, M4A/MP4/MOV, " +
          "AAC, FLAC, Ogg/Opus, WebM/MKV, AIFF, CAF, WMA/WMV, AVI, MPEG-TS or AMR; playlists and lists of other " +
          "files are not read)",
      );
    }

    const silentVideo = await kit.video(null, 2);
    const noAudio = await upload("/v1/process/video", silentVideo, "video/mp4");
    expect(noAudio.status).toBe(400);
    expect(((await noAudio.json()) as { message: string }).message).toMatch(/no audio stream/);

    const long = await kit.speech([], 90);
    const tooLong = await upload("/v1/process/audio", long, "audio/wav");
    expect(tooLong.status).toBe(413);
    expect(((await tooLong.json()) as { message: string }).message).toMatch(/RECAP_MEDIA_MAX_SECONDS/);

    // A decompression bomb: two hours of silence in 1.3 MB of FLAC. ffprobe reads its length from the headers.
    const bomb = join(kit.dir, "bomb.flac");
    await promisify(execFile)("ffmpeg", [
      ...[
        "-v",
        "error",
        "-y",
        "-f",
        "lavfi",
        "-i",
        "anullsrc=r=8000:cl=mono",
        "-t",
        "7200",
        "-c:a",
        "flac",
        bomb,
      ],
    ]);
    const bombed = await upload("/v1/process/audio", bomb, "audio/flac");
    expect(bombed.status).toBe(413);
    expect(((await bombed.json()) as { message: string }).message).toMatch(
      /7200 seconds long; the limit is 60/,
    );

    // An MP4 cut short loses its index (the moov box comes last): ffmpeg cannot read it.
    const m4a = readFileSync(await kit.encode(oneVoice, "m4a"));
    const cut = join(kit.dir, "cut.m4a");
    writeFileSync(cut, m4a.subarray(0, Math.floor(m4a.length / 2)));
    const truncated = await upload("/v1/process/audio", cut, "audio/mp4");
    expect(truncated.status).toBe(400);

    const credentials = await server.api(token, "/v1/process/audio/url", {
      method: "POST",
      body: { url: "http://user:secret@localhost/a.mp3" },
    });
    expect(credentials.status).toBe(400);
    expect(((await credentials.json()) as { message: string }).message).toMatch(
      /url must not contain user credentials/,
    );

    const wrongType = await upload("/v1/process/audio", oneVoice, "application/json");
    expect(wrongType.status).toBe(415);
    const channels = await upload(
      `/v1/process/audio?channelMetadata=${encodeURIComponent('[{"channel":3,"speaker":{"name":"X"}}]')}`,
      oneVoice,
      "audio/wav",
    );
    expect(channels.status).toBe(400);
    expect(((await channels.json()) as { message: string }).message).toMatch(
      /channelMetadata\[0\]\.channel is 3 but the audio has 1 channel/,
    );
    expect(await conversationCount()).toBe(before);
    expect(readdirSync(join(kit.dir, "store", "incoming"))).toEqual([]);
  }, 60_000);

  it("refuses a playlist naming another app's recording, uploaded or fetched, and never transcribes that recording", async () => {
    // Another app's upload, stored where Recap keeps uploads.
    const other = await server.newApp();
    const theirs = await fetch(`${server.url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${other.token}`, "content-type": "audio/mpeg" },
      body: readFileSync(await kit.encode(oneVoice, "mp3")),
    });
    expect(theirs.status).toBe(201);
    const { conversationId, jobId } = (await theirs.json()) as Body.Accepted;
    expect(await waitForJob(server, other.token, jobId)).toBe("completed");
    const { stored_file } = await server.database.db
      .selectFrom("media")
      .select("stored_file")
      .where("conversation_id", "=", conversationId)
      .executeTakeFirstOrThrow();
    const playlist = join(kit.dir, "playlist.m3u8");
    const target = join(kit.dir, "store", "uploads", stored_file ?? "");
    writeFileSync(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:12\n#EXTINF:12.0,\n${target}\n#EXT-X-ENDLIST\n`);
    const before = await conversationCount();
    const heard = speech.requests.length;

    const uploaded = await upload("/v1/process/audio", playlist, "audio/mpeg");
    expect(uploaded.status).toBe(400);
    const { message } = (await uploaded.json()) as { message: string };
    expect(message).toMatch(
      /^body: the file is not a media file Recap reads .*playlists and lists of other files are not read/,
    );
    expect(message).not.toContain(kit.dir);
    expect(await conversationCount()).toBe(before);
    expect(readdirSync(join(kit.dir, "store", "incoming"))).toEqual([]);

    host.files.set("/playlist.m3u8", playlist);
    const fetched = await server.api(token, "/v1/process/audio/url", {
      method: "POST",
      body: { url: host.url("/playlist.m3u8", "localhost") },
    });
    expect(fetched.status).toBe(201);
    const accepted = (await fetched.json()) as Body.Accepted;
    expect(await waitForJob(server, token, accepted.jobId)).toBe("failed");
    const job = await server.database.db
      .selectFrom("jobs")
      .select("error")
      .where("id", "=", accepted.jobId)
      .executeTakeFirstOrThrow();
    expect(job.error).toMatch(/^the file is not a media file Recap reads /);
    expect(await messagesOf(accepted.conversationId)).toEqual([]);
    expect(speech.requests.length).toBe(heard);
  }, 60_000);

  it("fails the job, saying why, for silence, an unreachable or refused URL, or one that never ends", async () => {
    const failedWith = async (body: object) => {
      const response = await server.api(token, "/v1/process/audio/url", { method: "POST", body });
      expect(response.status, await response.clone().text()).toBe(201);
      const accepted = (await response.json()) as Body.Accepted;
      expect(await waitForJob(server, token, accepted.jobId)).toBe("failed");
      return accepted;
    };
    host.files.set("/silence.wav", await kit.speech([], 3));
    await failedWith({ url: host.url("/silence.wav", "localhost") });
    await failedWith({ url: host.url("/missing.wav", "localhost") });
    // localhost is allowed; a redirect to 127.0.0.1 is checked again and refused.
    await failedWith({
      url: host.url(`/redirect?to=${encodeURIComponent(host.url("/silence.wav"))}`, "localhost"),
    });
    await failedWith({ url: host.url("/slow", "localhost") });
    const errors = await server.database.db
      .selectFrom("jobs")
      .select(["error"])
      .where("status", "=", "failed")
      .execute();
    expect(errors.map((row) => row.error)).toEqual(
      expect.arrayContaining([
        "no speech was recognised in the media",
        "fetching the url answered HTTP 404",
        expect.stringMatching(/refused: 127\.0\.0\.1 is an internal address/),
        "fetching the url took longer than 3 seconds",
      ]),
    );
  }, 60_000);

  it("refuses a URL at an internal address at submission, naming the rule", async () => {
    const response = await server.api(token, "/v1/process/audio/url", {
      method: "POST",
      body: { url: host.url("/silence.wav") },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /url must not point at an internal address.*RECAP_MEDIA_ALLOW_HOSTS/,
    );
  });

  it("imports a recording through the console, showing the job's progress, then its conversation", async () => {
    const { appId, appSecret, token: ownToken } = await server.newApp();
    const client = new ConsoleClient(server);
    expect((await client.signIn(appId, appSecret)).status).toBe(303);
    const mp3 = readFileSync(await kit.encode(oneVoice, "mp3"));
    const form = new FormData();
    form.set("name", "Recorded standup");
    form.set("file", new Blob([new Uint8Array(mp3)], { type: "audio/mpeg" }), "standup.mp3");
    const asked = speech.requests.length;
    speech.delayMs = 2000;
    let jobPath = "";
    try {
      const imported = await client.request("/console/import", { method: "POST", body: form });
      expect(imported.status, await imported.clone().text()).toBe(303);
      jobPath = imported.headers.get("location") ?? "";
      expect(jobPath).toMatch(/^\/console\/jobs\//);
      // While the engine works, the job's page shows how far it has got.
      await until(() => speech.requests.length > asked, "the engine to be asked");
      const running = await (await client.request(jobPath)).text();
      expect(running).toMatch(/Transcribed\s*<progress max="100" value="\d+"/);
    } finally {
      speech.delayMs = 0;
    }
    expect(await waitForJob(server, ownToken, jobPath.split("/").pop() ?? "")).toBe("completed");
    const job = await (await client.request(jobPath)).text();
    expect(job).toContain("Completed");
    const conversationPath =
      /href="(\/console\/conversations\/\d+)">Open the conversation</.exec(job)?.[1] ?? "";
    const conversation = await (await client.request(conversationPath)).text();
    expect(conversation).toContain("Recorded standup");
  }, 60_000);

  it("plays the conversation's own recording on a video page, under the link only, with range requests", async () => {
    const accepted = await completed(await upload("/v1/process/audio", oneVoice, "audio/wav"));
    const created = await server.api(token, `/v1/conversations/${accepted.conversationId}/experiences`, {
      method: "POST",
      body: { name: "video-summary" },
    });
    expect(created.status, await created.clone().text()).toBe(200);
    const link = (await created.json()) as { id: string; url: string };
    const pageUrl = server.url + new URL(link.url).pathname;
    const page = await (await fetch(pageUrl)).text();
    const src = /<(?:video|audio)[^>]*\ssrc="([^"]+)"/.exec(page)?.[1] ?? "";
    const linkToken = new URL(link.url).pathname.split("/")[2] ?? "";
    expect(src).toBe(`/s/${linkToken}/media/recording.wav`);
    const stored = readFileSync(oneVoice);
    const ranged = await fetch(server.url + src, { headers: { range: "bytes=100-199" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 100-199/${stored.length}`);
    expect(ranged.headers.get("content-type")).toBe("audio/wav");
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(stored.subarray(100, 200));
    const revoked = await server.api(
      token,
      `/v1/conversations/${accepted.conversationId}/experiences/${link.id}`,
      {
        method: "DELETE",
      },
    );
    expect(revoked.status).toBe(200);
    expect((await fetch(server.url + src)).status).toBe(410);
    expect((await fetch(`${server.url}/s/not-a-token/media/recording.wav`)).status).toBe(404);
  }, 60_000);

  it("deletes the stored upload with its conversation", async () => {
    const accepted = await completed(await upload("/v1/process/audio", oneVoice, "audio/wav"));
    const uploads = join(kit.dir, "store", "uploads");
    const before = readdirSync(uploads).length;
    const response = await server.api(token, `/v1/conversations/${accepted.conversationId}`, {
      method: "DELETE",
    });
    expect(response.status).toBe(200);
    expect(readdirSync(uploads).length).toBe(before - 1);
  }, 60_000);
});

describe.each(await dialects())("a media job stopped mid-transcription on %s", (dialect) => {
  const kit = new MediaKit();
  let speech: SpeechServer;
  let hooks: Server;
  const events: { jobId: string; status: string }[] = [];
  beforeAll(async () => {
    speech = await startSpeechServer("openai", nearest);
    hooks = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        events.push(JSON.parse(body) as { jobId: string; status: string });
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await speech.close();
    hooks.closeAllConnections();
    await new Promise((resolve) => hooks.close(resolve));
    kit.close();
  });

  it("abandons the engine's work, resumes after a restart, and reports every status by webhook", async () => {
    const testDatabase = await createTestDatabase(dialect);
    const env = {
      RECAP_ASR_URL: speech.url,
      RECAP_MEDIA_DIR: join(kit.dir, "store"),
      RECAP_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
    };
    try {
      const first = await startTestServer(dialect, { testDatabase, env });
      const { token } = await first.newApp();
      speech.delayMs = 60_000;
      const webhookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
      const response = await fetch(
        `${first.url}/v1/process/audio?webhookUrl=${encodeURIComponent(webhookUrl)}`,
        {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
          body: readFileSync(await kit.speech(SAID, 12)),
        },
      );
      expect(response.status).toBe(201);
      const { jobId, conversationId } = (await response.json()) as Body.Accepted;
      await until(() => speech.requests.length === 1, "the engine to be asked");
      await first.close();
      await until(() => speech.abandoned === 1, "the engine's request to be abandoned");

      speech.delayMs = 0;
      const second = await startTestServer(dialect, { testDatabase, env });
      try {
        expect(await waitForJob(second, token, jobId)).toBe("completed");
        const messages = (await (
          await second.api(token, `/v1/conversations/${conversationId}/messages`)
        ).json()) as {
          messages: Message[];
        };
        expect(messages.messages.map((message) => message.text)).toEqual(SAID.map((said) => said.text));
        await until(
          () => events.some((event) => event.jobId === jobId && event.status === "completed"),
          "webhooks",
        );
        const statuses = events.filter((event) => event.jobId === jobId).map((event) => event.status);
        expect(statuses[0]).toBe("scheduled");
        expect(statuses).toContain("in_progress");
        expect(statuses.at(-1)).toBe("completed");
        expect(readdirSync(join(kit.dir, "store", "work"))).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      await testDatabase.drop();
    }
  }, 90_000);
});

describe.each(await dialects())("speakers labelled by the speech server on %s", (dialect) => {
  const kit = new MediaKit();
  let speech: SpeechServer;
  let server: TestServer;
  beforeAll(async () => {
    speech = await startSpeechServer("diarized", nearest);
    server = await startTestServer(dialect, {
      env: {
        RECAP_ASR_URL: speech.url,
        RECAP_ASR_RESPONSE_FORMAT: "diarized_json",
        RECAP_MEDIA_DIR: join(kit.dir, "store"),
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await speech.close();
    kit.close();
  });

  it("names the speakers Speaker 1, Speaker 2 in order, renamed through the members API", async () => {
    const { token } = await server.newApp();
    const file = await kit.speech(SAID, 12);
    const response = await fetch(
      `${server.url}/v1/process/audio?enableSpeakerDiarization=true&diarizationSpeakerCount=2`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
        body: readFileSync(file),
      },
    );
    expect(response.status).toBe(201);
    const accepted = (await response.json()) as Body.Accepted;
    expect(await waitForJob(server, token, accepted.jobId)).toBe("completed");
    expect(speech.requests[0]?.fields.response_format).toEqual(["diarized_json"]);
    const path = `/v1/conversations/${accepted.conversationId}`;
    const messages = (await (await server.api(token, `${path}/messages`)).json()) as { messages: Message[] };
    expect(messages.messages.map((message) => message.from.name)).toEqual([
      "Speaker 1",
      "Speaker 2",
      "Speaker 1",
    ]);
    const members = (await (await server.api(token, `${path}/members`)).json()) as {
      members: { id: string; name: string }[];
    };
    const first = members.members.find((member) => member.name === "Speaker 1");
    const renamed = await server.api(token, `${path}/members/${first?.id}`, {
      method: "PUT",
      body: { id: first?.id, name: "Dana", email: "dana@example.com" },
    });
    expect(renamed.status).toBe(200);
    const after = (await (await server.api(token, `${path}/messages`)).json()) as { messages: Message[] };
    expect(after.messages.map((message) => message.from.name)).toEqual(["Dana", "Speaker 2", "Dana"]);
  }, 60_000);
});

describe.each(await dialects())("the local engine on %s", (dialect) => {
  const kit = new MediaKit();
  let server: TestServer;
  beforeAll(async () => {
    // The local engine's real code (sherpa-onnx) on models the tests generate: a CTC recogniser that hears
    // a 300 Hz tone as "lo" and a 2 kHz tone as "hi", an energy VAD, and diarization models that tell the
    // two tones apart as two voices (scripts/speech-models/models.ts).
    const modelsDir = join(kit.dir, "models");
    const engine = installToneEngine(modelsDir);
    installToneDiarization(modelsDir);
    server = await startTestServer(dialect, {
      env: {
        ...engine,
        RECAP_MEDIA_DIR: join(kit.dir, "store"),
      },
    });
  });
  afterAll(async () => {
    await server.close();
    kit.close();
  });

  it("transcribes and diarizes a recording with no network, naming speakers in order", async () => {
    const ready = (await (await fetch(`${server.url}/readyz`)).json()) as {
      speech: { engine: string; vad: string; diarization: string };
    };
    expect(ready.speech.engine).toBe("local tone-ctc");
    expect(ready.speech.vad).toMatch(/^silero-vad installed in /);
    expect(ready.speech.diarization).toMatch(/^local /);
    const { token } = await server.newApp();
    const flac = join(kit.dir, "voices.flac");
    writeRecording(flac, [
      { silence: 0.5 },
      { tone: VOICES[0], seconds: 1.5 },
      { silence: 1 },
      { tone: VOICES[1], seconds: 1.5 },
      { silence: 1 },
      { tone: VOICES[0], seconds: 1.5 },
      { silence: 1 },
    ]);
    const file = await kit.encode(flac, "m4a");
    const messages = await transcribed(server, token, file, {
      query: "?enableSpeakerDiarization=true&diarizationSpeakerCount=2",
      type: "audio/mp4",
    });
    expect(messages.map((message) => [message.from.name, message.text])).toEqual([
      ["Speaker 1", "lo"],
      ["Speaker 2", "hi"],
      ["Speaker 1", "lo"],
    ]);
    expect(messages.map((message) => Math.round((message.timeOffset ?? -1) * 10) / 10)).toEqual([
      0.5, 3, 5.5,
    ]);
  }, 60_000);
});

describe.each(await dialects())("the local engine on a real voice on %s", (dialect) => {
  const kit = new MediaKit();
  let server: TestServer;
  beforeAll(async () => {
    // Only a recogniser is installed, so the engine cuts with the Silero VAD Recap ships; the recogniser says
    // "speech" for every utterance it is given, so each message is where the VAD cut.
    const modelsDir = join(kit.dir, "models");
    installOneWordRecogniser(modelsDir, "one-word", "speech");
    server = await startTestServer(dialect, {
      env: {
        RECAP_MODELS_DIR: modelsDir,
        RECAP_ASR_MODEL: "one-word",
        RECAP_MEDIA_DIR: join(kit.dir, "store"),
      },
    });
  });
  afterAll(async () => {
    await server.close();
    kit.close();
  });

  it.each([16_000, 8_000] as const)(
    "turns jfk.wav recorded at %i Hz into a message per phrase, where the phrase was said",
    async (rate) => {
      const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { speech: { vad: string } };
      expect(ready.speech.vad).toBe("Silero VAD v4 shipped with Recap");
      const { token } = await server.newApp();
      const file = join(kit.dir, `jfk-${rate}.wav`);
      await promisify(execFile)("ffmpeg", ["-v", "error", "-y", "-i", JFK, "-ar", String(rate), file]);
      const messages = await transcribed(server, token, file);
      const heard = messages.map(({ text, timeOffset, duration }) => ({
        text,
        start: timeOffset ?? -1,
        end: (timeOffset ?? -1) + (duration ?? 0),
      }));
      expect(heard.map(({ text }) => text)).toEqual(JFK_PHRASES.map(() => "speech"));
      heard.forEach(({ start, end }, index) => {
        const said = JFK_PHRASES[index]!;
        expect(Math.abs(start - said.start), `start of "${said.text}" at ${start}`).toBeLessThanOrEqual(
          VAD_TOLERANCE_SECONDS[rate],
        );
        expect(Math.abs(end - said.end), `end of "${said.text}" at ${end}`).toBeLessThanOrEqual(
          VAD_TOLERANCE_SECONDS[rate],
        );
      });
    },
    60_000,
  );
});

describe.each(await dialects())("the size limit on %s", (dialect) => {
  const kit = new MediaKit();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, {
      env: {
        RECAP_ASR_URL: "http://127.0.0.1:9/v1",
        RECAP_MEDIA_DIR: join(kit.dir, "store"),
        RECAP_MEDIA_MAX_BYTES: "100000",
      },
    });
  });
  afterAll(async () => {
    await server.close();
    kit.close();
  });

  it("answers 413 above RECAP_MEDIA_MAX_BYTES, declared or streamed, and keeps nothing", async () => {
    const { token } = await server.newApp();
    const file = readFileSync(
      await kit.speech([{ text: "Hello there, this is long enough", atSeconds: 0 }], 5),
    );
    expect(file.length).toBeGreaterThan(100_000);
    const declared = await fetch(`${server.url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: file,
    });
    expect(declared.status).toBe(413);
    // Sent in chunks with no Content-Length: counted as it arrives.
    const streamed = await fetch(`${server.url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < file.length; at += 16_384) controller.enqueue(file.subarray(at, at + 16_384));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { message: string }).message).toMatch(/RECAP_MEDIA_MAX_BYTES/);
    const listed = await server.api(token, "/v1/conversations");
    expect(((await listed.json()) as { conversations: unknown[] }).conversations).toEqual([]);
    expect(readdirSync(join(kit.dir, "store", "incoming"))).toEqual([]);
  });
});

describe.each(await dialects())("media without a speech engine on %s", (dialect) => {
  let server: TestServer;
  const kit = new MediaKit();
  beforeAll(async () => {
    server = await startTestServer(dialect, { env: { RECAP_MEDIA_DIR: join(kit.dir, "store") } });
  });
  afterAll(async () => {
    await server.close();
    kit.close();
  });

  it("refuses media with how to set an engine up, stores nothing, and says so on /readyz", async () => {
    const { token } = await server.newApp();
    const file = await kit.speech([{ text: "Hello", atSeconds: 0 }], 1);
    const response = await fetch(`${server.url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: readFileSync(file),
    });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /bin\/recap models pull moonshine-base-en.*RECAP_ASR_URL/,
    );
    const listed = await server.api(token, "/v1/conversations");
    expect(((await listed.json()) as { conversations: unknown[] }).conversations).toEqual([]);
    const ready = (await (await fetch(`${server.url}/readyz`)).json()) as { speech: { engine: string } };
    expect(ready.speech.engine).toBe("none");
  });
});

// The log is the server's own output, so this runs `src/main.ts` as a process (one dialect: what is logged does
// not depend on the database).
describe("the speech engine in the start-up log", () => {
  const kit = new MediaKit();
  afterAll(() => kit.close());

  /** The line a started server logs about speech, as written and its message. */
  async function speechLine(env: Record<string, string>): Promise<{ written: string; msg: string }> {
    const database = await createTestDatabase("sqlite");
    const server = startMain(database, 0, [], { RECAP_MEDIA_DIR: join(kit.dir, "store"), ...env });
    try {
      const line = await untilValue(
        () =>
          server
            .output()
            .split("\n")
            .filter((text) => text.startsWith("{"))
            .map((written) => ({ written, ...(JSON.parse(written) as { msg: string; speech?: unknown }) }))
            .find((logged) => logged.speech !== undefined),
        60_000,
      );
      if (!line) throw new Error(`no line on speech:\n${server.output()}`);
      return line;
    } finally {
      server.process.kill("SIGKILL");
      await database.drop();
    }
  }

  it("says which engine is ready, or what is missing and how to get it, in each set-up", async () => {
    const remote = await speechLine({ RECAP_ASR_URL: "http://127.0.0.1:9/v1" });
    expect(remote.written).not.toMatch(/No speech engine/);
    expect(remote.msg).toMatch(
      /^Speech engine ready: remote whisper-1 at http:\/\/127\.0\.0\.1:9\/v1\. VAD: Silero VAD v4 shipped with Recap\. Speaker diarization: not set up/,
    );

    const models = join(kit.dir, "models");
    installEnergyVad(models);
    installToneRecogniser(models, "tone-ctc");
    const { msg: local } = await speechLine({ RECAP_MODELS_DIR: models, RECAP_ASR_MODEL: "tone-ctc" });
    expect(local).toContain(
      `Speech engine ready: local tone-ctc. VAD: silero-vad installed in ${models}. Speaker diarization: not set up`,
    );

    const { msg: none } = await speechLine({ RECAP_MODELS_DIR: join(kit.dir, "no-models") });
    expect(none).toBe(
      "No speech engine is set up. Either install " +
        "the local engine's models with `bin/recap models pull moonshine-base-en`, or set RECAP_ASR_URL to an " +
        "OpenAI-compatible transcription server (whisper.cpp's server, " +
        "speaches, LocalAI, vLLM, OpenAI); docs/MEDIA.md says how. Until one is, media submissions are refused (503).",
    );

    // A recogniser and no VAD installed: the local engine needs nothing more, it cuts with the shipped VAD.
    const byHand = join(kit.dir, "by-hand");
    installToneRecogniser(byHand, "tone-ctc");
    const { msg: noVad } = await speechLine({ RECAP_MODELS_DIR: byHand, RECAP_ASR_MODEL: "tone-ctc" });
    expect(noVad).toMatch(
      /^Speech engine ready: local tone-ctc\. VAD: Silero VAD v4 shipped with Recap\. Speaker diarization: not set up/,
    );

    // A recogniser Recap's catalogue does not know, not installed: where it must go, never a pull.
    const { msg: unknown } = await speechLine({ RECAP_MODELS_DIR: byHand, RECAP_ASR_MODEL: "my-own-model" });
    expect(unknown).toContain(
      `install RECAP_ASR_MODEL's "my-own-model", which is not in Recap's catalogue, in ${byHand}/my-own-model by hand`,
    );
    expect(unknown).not.toMatch(/pull my-own-model/);
  }, 120_000);
});

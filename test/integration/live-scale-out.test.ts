// Live streaming with several processes on one PostgreSQL database and one Redis (docs/LIVE.md, Scale-out): a
// connection is served by the process it reached, joins its connection id's conversation wherever that started,
// counts against the app's limit on every process, and a process killed mid-stream loses no stored line.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBody } from "../helpers/api.ts";
import { startMain, startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { createLink, onServer } from "../helpers/factories.ts";
import { connect, linear16, startStream, stream } from "../helpers/live.ts";
import { MediaKit } from "../helpers/media.ts";
import type { Child } from "../helpers/processes.ts";
import { connectRedis, testRedisUrl } from "../helpers/redis.ts";
import { installEnergyVad, installToneRecogniser, VOICES } from "../../scripts/speech-models/models.ts";
import { until, untilValue } from "../helpers/wait.ts";

/** A stream's hold lapses this long after its process dies; short, so the test waits it out. */
const LEASE_SECONDS = 3;

const redisUrl = await testRedisUrl();

describe.runIf((await dialects()).includes("postgres") && redisUrl !== null)(
  "live streaming on two processes sharing PostgreSQL and Redis",
  () => {
    const kit = new MediaKit();
    const modelsDir = join(kit.dir, "models");
    const env = {
      RECAP_MODELS_DIR: modelsDir,
      RECAP_ASR_MODEL: "tone-ctc",
      RECAP_JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      RECAP_LIVE_MAX_CONNECTIONS_PER_APP: "2",
    };
    let testDatabase: TestDatabase;
    let here: TestServer;
    let child: (Child & { url: string }) | null = null;
    let there: { url: string; ws: string };

    /** `src/main.ts` as its own process on the database and Redis, on a port of its choosing. */
    async function startProcess(): Promise<Child & { url: string }> {
      const started = startMain(testDatabase, 0, [], { ...env, REDIS_URL: redisUrl ?? "" });
      const url = await untilValue(
        () => /Recap listening on (http:\/\/[\d.]+:\d+)/.exec(started.output())?.[1],
        60_000,
      );
      if (url === undefined) throw new Error(`the server did not start:\n${started.output()}`);
      return { ...started, url };
    }

    beforeAll(async () => {
      installEnergyVad(modelsDir);
      installToneRecogniser(modelsDir, "tone-ctc");
      testDatabase = await createTestDatabase("postgres");
      here = await startTestServer("postgres", { testDatabase, env, redis: connectRedis(redisUrl ?? "") });
      child = await startProcess();
      there = { url: child.url, ws: child.url.replace(/^http/, "ws") };
    }, 120_000);
    afterAll(async () => {
      child?.process.kill("SIGKILL");
      await here?.close();
      await testDatabase?.drop();
      kit.close();
    });

    const hereWs = () => here.url.replace(/^http/, "ws");
    const tone = (name: string, voice: number) =>
      linear16(kit, name, [{ tone: voice, seconds: 1 }, { silence: 1 }], 16_000);

    it("joins a connection id's conversation from the other process, each participant's lines under their name", async () => {
      const { token } = await here.newApp();
      const path = `/v1/streaming/standup-9?access_token=${token}`;
      const ada = await startStream(there.ws + path, { speaker: { userId: "ada", name: "Ada" } });
      const grace = await startStream(hereWs() + path, { speaker: { userId: "grace", name: "Grace" } });
      expect(grace.conversationId).toBe(ada.conversationId);
      for (const [client, voice] of [
        [ada, VOICES[0]],
        [grace, VOICES[1]],
      ] as const) {
        await stream((frame) => client.socket.send(frame), tone(`join-${voice}`, voice), 16_000, 100, 10);
        await until(() => client.received.events.some((e) => e.type === "message_response"), "a message");
        client.socket.send(JSON.stringify({ type: "stop_request" }));
        await until(() => client.received.close !== null, "the close");
      }
      const stored = await readBody<{ messages: { text: string; from: { name: string } }[] }>(
        here,
        token,
        `/v1/conversations/${ada.conversationId}/messages`,
      );
      expect(stored.messages.map((m) => [m.from.name, m.text])).toEqual([
        ["Ada", "lo"],
        ["Grace", "hi"],
      ]);
    });

    it("counts an app's connections on both processes against RECAP_LIVE_MAX_CONNECTIONS_PER_APP", async () => {
      const { token } = await here.newApp();
      const first = await startStream(`${there.ws}/v1/streaming/one?access_token=${token}`);
      const second = await startStream(`${hereWs()}/v1/streaming/two?access_token=${token}`);
      const third = await connect(`${there.ws}/v1/streaming/three?access_token=${token}`);
      await until(() => third.received.close !== null, "the refusal");
      expect(third.received.close?.code).toBe(4429);
      expect(
        third.received.events.map((event) => (event as { message: { details: string } }).message.details),
      ).toEqual([
        expect.stringMatching(/already has 2 live connections \(RECAP_LIVE_MAX_CONNECTIONS_PER_APP\)/),
      ]);
      // Another app is not held back by this one's connections.
      const other = await here.newApp();
      const elsewhere = await startStream(`${hereWs()}/v1/streaming/x?access_token=${other.token}`);
      // Once one ends, on either process, a connection is admitted again.
      first.socket.send(JSON.stringify({ type: "stop_request" }));
      await until(() => first.received.close !== null, "the first's close");
      const again = await startStream(`${hereWs()}/v1/streaming/four?access_token=${token}`);
      for (const client of [second, elsewhere, again]) client.socket.close();
    });

    it("keeps the lines of a process killed mid-stream and analyses them once its hold lapses; the page then stops saying live", async () => {
      const { token } = await here.newApp();
      const streamed = await startStream(`${there.ws}/v1/streaming/crash-1?access_token=${token}`, {
        config: { meetingTitle: "Crash review" },
      });
      await stream((frame) => streamed.socket.send(frame), tone("crash", VOICES[1]), 16_000, 100, 10);
      await until(
        () => streamed.received.events.some((event) => event.type === "message_response"),
        "the message",
      );
      const link = onServer(
        here,
        (await createLink(here, token, streamed.conversationId, { name: "verbose-text-summary" })).url,
      );
      const isLive = async () =>
        ((await (await fetch(`${link}.json`)).json()) as { live?: boolean }).live === true;
      expect(await isLive()).toBe(true);

      child?.process.kill("SIGKILL");
      const job = await untilValue(
        () =>
          here.database.db
            .selectFrom("jobs")
            .select(["id", "status"])
            .where("conversation_id", "=", streamed.conversationId)
            .where("status", "=", "completed")
            .executeTakeFirst(),
        60_000,
        200,
      );
      expect(job).toBeDefined();
      expect(await waitForJob(here, token, job?.id ?? "")).toBe("completed");
      expect(await isLive()).toBe(false);
      const page = (await (await fetch(`${link}.json`)).json()) as { messages: { text: string }[] };
      expect(page.messages.map((message) => message.text)).toEqual(["hi"]);
    });
  },
);

// The server's files on disk, on the real process (src/main.ts): who may read them, and what an upload cut by
// SIGTERM or a job that ended leaves behind once the server has stopped and started again.
import { randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startMain, startTestServer } from "../helpers/app.ts";
import { writeRecording } from "../helpers/audio.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { untilOutput, type Child } from "../helpers/processes.ts";
import { freePort, until } from "../helpers/wait.ts";

/** A folder's entries; none while it does not exist yet. */
const listOf = (path: string) => (existsSync(path) ? readdirSync(path) : []);
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe.each(await dialects())("the server's files on %s", (dialect) => {
  const dir = mkdtempSync(join(tmpdir(), "recap-files-"));
  let recording = Buffer.alloc(0);
  let child: Child | undefined;
  let database: TestDatabase;
  const umask = process.umask();
  beforeAll(() => {
    const file = join(dir, "tone.wav");
    writeRecording(file, [{ tone: 440, seconds: 1 }]);
    recording = readFileSync(file);
  });
  // A database each, so that no test's jobs are run by another's server.
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
  });
  afterEach(async () => {
    child?.process.kill("SIGKILL");
    process.umask(umask);
    await database.drop();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Starts src/main.ts on the database with its data in `data`, an engine named (no job gets far). */
  const start = async (data: string) => {
    const port = await freePort();
    const server = startMain(database, port, [], {
      RECAP_DATA_DIR: data,
      RECAP_ASR_URL: "http://127.0.0.1:9/v1",
    });
    child = server;
    await untilOutput(server, "Recap listening on");
    return { server, url: `http://127.0.0.1:${port}` };
  };
  /** An app's token, made through the kit's in-process server on the same database. */
  const newToken = async () => {
    const helper = await startTestServer(dialect, { runJobs: false, testDatabase: database });
    try {
      return (await helper.newApp()).token;
    } finally {
      await helper.close();
    }
  };
  const stop = async (server: Child) => {
    const exited = new Promise<number | null>((resolve) => server.process.once("exit", resolve));
    server.process.kill("SIGTERM");
    expect(await exited).toBe(0);
  };

  it("makes the database, uploads and folders readable by their owner only, under umask 022", async () => {
    process.umask(0o022);
    const data = join(dir, "modes");
    const media = join(data, "media");
    const { server, url } = await start(data);
    const token = await newToken();
    const response = await fetch(`${url}/v1/process/audio`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: recording,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    const uploads = join(media, "uploads");
    const [stored = ""] = readdirSync(uploads);
    const modes: Record<string, string> = {
      "data/": modeOf(data),
      "media/": modeOf(media),
      "uploads/": modeOf(uploads),
      "incoming/": modeOf(join(media, "incoming")),
      "uploads/<file>": modeOf(join(uploads, stored)),
    };
    const expected: Record<string, string> = {
      "data/": "700",
      "media/": "700",
      "uploads/": "700",
      "incoming/": "700",
      "uploads/<file>": "600",
    };
    if (database.target.dialect === "sqlite") {
      const path = database.target.path;
      for (const suffix of ["", "-wal", "-shm"]) {
        modes[`recap.db${suffix}`] = modeOf(path + suffix);
        expected[`recap.db${suffix}`] = "600";
      }
    }
    expect(modes).toEqual(expected);
    await stop(server);
  }, 120_000);

  it("removes an upload cut by SIGTERM, and at start the files no upload or unfinished job owns", async () => {
    const token = await newToken();
    const data = join(dir, "leftovers");
    const media = join(data, "media");
    const { server, url } = await start(data);
    // An upload that stops half-way, its client still connected, when the server is told to stop.
    const { port } = new URL(url);
    const socket = connect(Number(port), "127.0.0.1");
    socket.on("error", () => undefined);
    socket.write(
      `POST /v1/process/audio HTTP/1.1\r\nHost: recap.test\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: audio/wav\r\nContent-Length: ${recording.length}\r\n\r\n`,
    );
    socket.write(recording.subarray(0, recording.length / 2));
    const incoming = join(media, "incoming");
    await until(() => listOf(incoming).length === 1, "the upload's file");
    await stop(server);
    socket.destroy();
    expect(readdirSync(incoming)).toEqual([]);

    // Left behind by a process killed outright: an upload's file, the working folders of a finished job and of
    // an unknown one; and, of a process still running beside this one, an upload being written and the
    // working folder of a job scheduled.
    const helper = await startTestServer(dialect, { runJobs: false, testDatabase: database });
    const message = { payload: { content: "Dana will send the numbers by Friday." } };
    const submitted = async () =>
      (
        (await (
          await helper.api(token, "/v1/process/text", { method: "POST", body: { messages: [message] } })
        ).json()) as {
          jobId: string;
        }
      ).jobId;
    const scheduled = await submitted();
    const finished = await submitted();
    await helper.database.db
      .updateTable("jobs")
      .set({ status: "completed" })
      .where("id", "=", finished)
      .execute();
    await helper.close();
    const work = join(media, "work");
    for (const id of [scheduled, finished, randomUUID()]) {
      mkdirSync(join(work, id), { recursive: true });
      writeFileSync(join(work, id, "source"), recording);
    }
    const stale = join(incoming, `${randomUUID()}.wav`);
    writeFileSync(stale, recording);
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(stale, hourAgo, hourAgo);
    const writing = join(incoming, `${randomUUID()}.wav`);
    writeFileSync(writing, recording);

    const restarted = await start(data);
    expect(readdirSync(incoming)).toEqual([writing.split("/").pop()]);
    expect(readdirSync(work)).toEqual([scheduled]);
    await stop(restarted.server);
  }, 120_000);
});

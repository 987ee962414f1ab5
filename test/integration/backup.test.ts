// Backups as an operator makes them (docs/OPERATIONS.md, Backup and restore): `bin/recap backup` run as its own
// process while a server writes to the SQLite file, `bin/recap restore` into an empty data directory, and a
// server started on it that must hold every write acknowledged before the backup began. PostgreSQL is backed up
// with pg_dump and restored with pg_restore, the commands the docs give.
import { execFile } from "node:child_process";
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { createGunzip, createGzip } from "node:zlib";
import Database from "better-sqlite3";
import pg from "pg";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations } from "../../src/db/database.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import { writeRecording } from "../helpers/audio.ts";
import type * as Body from "../helpers/bodies.ts";
import { createTestDatabase, dialects, POSTGRES_ADMIN_URL, type TestDatabase } from "../helpers/databases.ts";
import { createLink, onServer } from "../helpers/factories.ts";
import { ROOT, startChild } from "../helpers/processes.ts";
import { startSpeechServer, type SpeechServer } from "../helpers/speech-server.ts";

const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment bin/recap and the servers read for a data directory: the SQLite file and secret file in it. */
const environment = (dataDir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  NODE_ENV: "test",
  RECAP_DATA_DIR: dataDir,
  DATABASE_URL: "",
  RECAP_SECRET: "",
  RECAP_FONT_CATALOGUE_URL: "off",
});

/** Runs bin/recap; resolves with its exit code and output whatever the code. */
async function recap(args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(join(ROOT, "bin", "recap"), args, { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A test server on the SQLite file of `dataDir`, signing with the secret file kept there (as in development). */
function serverOn(dataDir: string, env: Record<string, string> = {}): Promise<TestServer> {
  const database: TestDatabase = {
    target: { dialect: "sqlite", path: join(dataDir, "recap.db") },
    drop: () => Promise.resolve(),
  };
  return startTestServer("sqlite", {
    testDatabase: database,
    env: { RECAP_DATA_DIR: dataDir, RECAP_SECRET: "", ...env },
  });
}

/** A write the server acknowledged, when its answer arrived, and what a server must show for it. */
interface Acknowledged {
  at: number;
  what: string;
  check: (server: TestServer, token: string) => Promise<void>;
}

const SPEAKERS = 300;

/** An archive's entry as a test rewrites it: its bytes, or so many zeros (a bomb's body, never held in memory). */
interface Entry {
  name: string;
  body: Buffer | { zeros: number };
}

async function readArchive(file: string): Promise<Entry[]> {
  const extract = tar.extract();
  const feeding = pipeline(
    Readable.from([readFileSync(file)]),
    createGunzip(),
    extract as unknown as NodeJS.WritableStream,
  );
  const entries: Entry[] = [];
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry as AsyncIterable<Buffer>) chunks.push(chunk);
    entries.push({ name: entry.header.name, body: Buffer.concat(chunks) });
  }
  await feeding;
  return entries;
}

async function writeArchive(file: string, entries: Entry[]): Promise<void> {
  const pack = tar.pack();
  const written = pipeline(pack as unknown as Readable, createGzip({ level: 1 }), createWriteStream(file));
  for (const { name, body } of entries) {
    const size = Buffer.isBuffer(body) ? body.length : body.zeros;
    await new Promise<void>((done, fail) => {
      const entry = pack.entry({ name, size, mode: 0o600 }, (error) => (error ? fail(error) : done()));
      const chunk = Buffer.alloc(1024 * 1024);
      const source = Buffer.isBuffer(body)
        ? Readable.from([body])
        : Readable.from(
            (function* () {
              for (let left = size; left > 0; left -= chunk.length)
                yield chunk.subarray(0, Math.min(left, chunk.length));
            })(),
          );
      source.pipe(entry);
    });
  }
  pack.finalize();
  await written;
}

describe("bin/recap backup and restore on SQLite", () => {
  const root = mkdtempSync(join(tmpdir(), "recap-backup-"));
  const source = join(root, "data");
  const archive = join(root, "recap-backup.tar.gz");
  let speech: SpeechServer;
  let server: TestServer;
  let token = "";
  afterAll(async () => {
    await server.close();
    await speech.close();
    rmSync(root, { recursive: true, force: true });
  });

  beforeAll(async () => {
    speech = await startSpeechServer("openai", () => "The recording speaks.");
    server = await serverOn(source, { RECAP_ASR_URL: speech.url });
    token = (await server.newApp()).token;
  }, 60_000);

  it("backs up while a server writes, and a server on the restored directory has every acknowledged write", async () => {
    // A stored recording, played under its link.
    const recording = join(root, "recording.wav");
    writeRecording(recording, [{ tone: 440, seconds: 2 }]);
    const uploaded = await fetch(`${server.url}/v1/process/audio?name=Recorded`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "audio/wav" },
      body: readFileSync(recording),
    });
    expect(uploaded.status).toBe(201);
    const media = (await uploaded.json()) as Body.Accepted;
    expect(await waitForJob(server, token, media.jobId)).toBe("completed");
    const mediaLink = await createLink(server, token, media.conversationId, { name: "audio-summary" });

    // A voice profile and its reference embedding (written as enrolment writes them: it needs speaker models).
    const { appId } = (await (await server.api(token, "/v1/app")).json()) as Body.AppSettings;
    const voiceId = "5f2a8c4e-1b3d-4e6f-8a9b-0c1d2e3f4a5b";
    const vector = Buffer.from(new Float32Array([0.25, -1.5, 3]).buffer);
    await server.database.db
      .insertInto("voice_profiles")
      .values({
        id: voiceId,
        app_id: appId,
        name: "Ada",
        email: null,
        email_key: null,
        model: "campplus-en-voxceleb",
        dimension: 3,
        created_at: "2026-11-29T10:00:00.000Z",
        updated_at: "2026-11-29T10:00:00.000Z",
      })
      .execute();
    await server.database.db
      .insertInto("voice_references")
      .values({
        id: "0e1f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b",
        profile_id: voiceId,
        conversation_id: media.conversationId,
        member_id: "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d",
        vector,
        speech_seconds: 4,
        created_at: "2026-11-29T10:00:00.000Z",
      })
      .execute();

    // Conversations whose speakers the load renames, each once.
    const crowds = await Promise.all(
      [0, 1, 2].map(async (writer) => {
        const messages = Array.from({ length: SPEAKERS }, (_, index) => ({
          payload: { content: `Line ${index} of crowd ${writer}.` },
          from: { name: `Speaker ${writer}-${index}` },
        }));
        const { conversationId } = await server.ingest(token, { name: `Crowd ${writer}`, messages });
        const { members } = (await (
          await server.api(token, `/v1/conversations/${conversationId}/members`)
        ).json()) as Body.MemberList;
        return { conversationId, members };
      }),
    );

    // A reader holding an older snapshot (a long report, another backup) keeps SQLite from checkpointing past it:
    // the load's writes then live in the write-ahead log alone, which a copy of the database file would miss.
    const reader = new Database(join(source, "recap.db"), { readonly: true });
    reader.exec("BEGIN");
    reader.prepare("SELECT count(*) FROM apps").get();

    const acknowledged: Acknowledged[] = [];
    const acknowledge = (what: string, check: Acknowledged["check"]) =>
      acknowledged.push({ at: performance.now(), what, check });
    const messagesOf = async (target: TestServer, conversationId: string) => {
      const response = await target.api(token, `/v1/conversations/${conversationId}/messages`);
      expect(response.status).toBe(200);
      return ((await response.json()) as Body.MessageList).messages.map((message) => message.text);
    };

    let writing = true;
    const writer = async (id: number) => {
      const crowd = crowds[id];
      if (!crowd) throw new Error("no crowd");
      for (let round = 0; writing; round += 1) {
        const first = `Load ${id}-${round} opens.`;
        const posted = await server.api(token, "/v1/process/text", {
          method: "POST",
          body: {
            name: `Load ${id}-${round}`,
            messages: [
              { payload: { content: first }, from: { name: "Ann", email: `ann-${id}@example.com` } },
            ],
          },
        });
        expect(posted.status).toBe(201);
        const { conversationId } = (await posted.json()) as Body.Accepted;
        acknowledge(`conversation ${conversationId}`, async (target) =>
          expect(await messagesOf(target, conversationId)).toContain(first),
        );

        const appended = `Load ${id}-${round} appends.`;
        const put = await server.api(token, `/v1/process/text/${conversationId}`, {
          method: "PUT",
          body: { messages: [{ payload: { content: appended }, from: { name: "Bob" } }] },
        });
        expect(put.status).toBe(201);
        acknowledge(`append to ${conversationId}`, async (target) =>
          expect(await messagesOf(target, conversationId)).toContain(appended),
        );

        const linked = await server.api(token, `/v1/conversations/${conversationId}/experiences`, {
          method: "POST",
          body: { name: "verbose-text-summary" },
        });
        expect(linked.status).toBe(200);
        const { url } = (await linked.json()) as Body.ExperienceCreated;
        acknowledge(`link ${url}`, async (target) =>
          expect((await fetch(onServer(target, url))).status).toBe(200),
        );

        const member = crowd.members[round];
        if (member) {
          const name = `Renamed ${id}-${round}`;
          const renamed = await server.api(
            token,
            `/v1/conversations/${crowd.conversationId}/members/${member.id}`,
            { method: "PUT", body: { id: member.id, name } },
          );
          expect(renamed.status).toBe(200);
          acknowledge(`member ${member.id} renamed`, async (target) => {
            const response = await target.api(token, `/v1/conversations/${crowd.conversationId}/members`);
            const { members } = (await response.json()) as Body.MemberList;
            expect(members.find((found) => found.id === member.id)?.name).toBe(name);
          });
        }
      }
    };
    const writers = [0, 1, 2].map(writer);
    // The load runs a while before the backup starts, and on until it has finished.
    while (acknowledged.length < 30) await new Promise((resolve) => setTimeout(resolve, 20));
    const backupStarted = performance.now();
    const backup = startChild(join(ROOT, "bin", "recap"), ["backup", archive], environment(source));
    const code = await new Promise<number | null>((resolve) => backup.process.once("exit", resolve));
    const backupEnded = performance.now();
    writing = false;
    await Promise.all(writers);
    reader.exec("COMMIT");
    reader.close();
    expect(code, backup.output()).toBe(0);
    const latest = Object.keys(migrations).at(-1) ?? "";
    expect(backup.output()).toContain(
      `recap.db (schema ${latest}), 1 recording(s), 0 font file(s) and the signing secret file to ${archive}`,
    );
    const before = acknowledged.filter((write) => write.at < backupStarted);
    const during = acknowledged.filter((write) => write.at >= backupStarted && write.at <= backupEnded);
    expect(before.length).toBeGreaterThanOrEqual(30);
    // The backup ran while the server was acknowledging writes.
    expect(during.length).toBeGreaterThan(0);
    await server.close();

    const restoredDir = join(root, "restored");
    const restored = await recap(["restore", archive], environment(restoredDir));
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain("Restored ");
    expect(readFileSync(join(restoredDir, "secret"))).toEqual(readFileSync(join(source, "secret")));

    // The restored server signs with the restored secret: the token and links made before still work.
    server = await serverOn(restoredDir);
    for (const write of before) {
      try {
        await write.check(server, token);
      } catch (error) {
        throw new Error(`lost in the restore: ${write.what}`, { cause: error });
      }
    }
    const voice = await server.api(token, `/v1/voices/${voiceId}`);
    expect(voice.status).toBe(200);
    expect(await voice.json()).toMatchObject({
      name: "Ada",
      speechSeconds: 4,
      conversations: [media.conversationId],
    });
    const [reference] = await server.database.db
      .selectFrom("voice_references")
      .select("vector")
      .where("profile_id", "=", voiceId)
      .execute();
    expect(Buffer.from(reference?.vector ?? [])).toEqual(vector);
    const linkToken = new URL(mediaLink.url).pathname.split("/")[2] ?? "";
    const played = await fetch(`${server.url}/s/${linkToken}/media/recording.wav`);
    expect(played.status).toBe(200);
    expect(Buffer.from(await played.arrayBuffer())).toEqual(readFileSync(recording));
  }, 180_000);

  it("refuses an archive whose recording was altered, removed, added or swollen past its manifest, naming the file and writing nothing", async () => {
    const made = join(root, "made");
    const writer = await serverOn(made, { RECAP_ASR_URL: speech.url });
    const recording = join(root, "kept.wav");
    writeRecording(recording, [{ tone: 330, seconds: 2 }]);
    try {
      const { token: own } = await writer.newApp();
      const uploaded = await fetch(`${writer.url}/v1/process/audio?name=Kept`, {
        method: "POST",
        headers: { authorization: `Bearer ${own}`, "content-type": "audio/wav" },
        body: readFileSync(recording),
      });
      expect(uploaded.status).toBe(201);
      expect(await waitForJob(writer, own, ((await uploaded.json()) as Body.Accepted).jobId)).toBe(
        "completed",
      );
    } finally {
      await writer.close();
    }
    const backup = join(root, "made.tar.gz");
    expect((await recap(["backup", backup], environment(made))).code).toBe(0);
    const entries = await readArchive(backup);
    const stored = entries.find((entry) => entry.name.startsWith("media/uploads/"));
    if (!stored || !Buffer.isBuffer(stored.body)) throw new Error("the backup holds no recording");
    const manifestText = (entries[0]?.body as Buffer).toString("utf8");
    const manifest = JSON.parse(manifestText) as { files: { name: string; bytes: number }[] };
    expect(manifest.files.map((file) => file.name)).toEqual(["recap.db", "secret", stored.name]);

    const target = join(root, "untouched");
    const refusedWith = async (name: string, changed: Entry[]) => {
      const file = join(root, `${name}.tar.gz`);
      await writeArchive(file, changed);
      const outcome = await recap(["restore", file], environment(target));
      expect(outcome.code).not.toBe(0);
      expect(readdirSync(target)).toEqual([]);
      return outcome.stderr;
    };
    const others = entries.filter((entry) => entry !== stored);

    // The same size, one byte changed: only its checksum tells.
    const tampered = Buffer.from(stored.body);
    tampered[tampered.length - 1] = (tampered.at(-1) ?? 0) ^ 0xff;
    expect(await refusedWith("tampered", [...others, { name: stored.name, body: tampered }])).toContain(
      `is damaged: ${stored.name} differs from its manifest (SHA-256): nothing was restored`,
    );
    expect(await refusedWith("missing", others)).toContain(
      `its manifest lists ${stored.name}, which it does not hold`,
    );
    expect(
      await refusedWith("unlisted", [...entries, { name: "media/uploads/planted.wav", body: stored.body }]),
    ).toContain("it holds media/uploads/planted.wav, which its manifest does not list");
    // A gzip bomb: 256 MiB of zeros (about 250 KB compressed) where the manifest lists the recording's size.
    const bomb = 256 * 1024 * 1024;
    expect(await refusedWith("bomb", [...others, { name: stored.name, body: { zeros: bomb } }])).toContain(
      `is damaged: ${stored.name} is ${bomb} bytes in the archive, its manifest says ${stored.body.length}`,
    );
    // A manifest that declares more than the disk holds is refused before any entry is unpacked.
    const swollen = JSON.parse(manifestText) as {
      bytes: number;
      files: { name: string; bytes: number }[];
    };
    const declared = 2 ** 50;
    const listed = swollen.files.find((file) => file.name === stored.name);
    if (!listed) throw new Error("the manifest does not list the recording");
    swollen.bytes += declared - listed.bytes;
    listed.bytes = declared;
    const swollenManifest = { name: "manifest.json", body: Buffer.from(JSON.stringify(swollen)) };
    expect(await refusedWith("swollen", [swollenManifest, ...entries.slice(1)])).toMatch(
      /needs more room than .*media\/uploads has \(the manifest lists \d+ bytes; 64\.0 MB are kept free\): nothing was restored/,
    );

    // The archive as made restores, recording and all.
    const restored = await recap(["restore", backup], environment(target));
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(target, stored.name))).toEqual(stored.body);
  }, 120_000);

  it("refuses a data directory that is not empty, a database a server holds, a file that is not a backup, a cut one, and a newer schema", async () => {
    const served = join(root, "served");
    const running = await serverOn(served);
    const backup = join(root, "served.tar.gz");
    try {
      expect((await recap(["backup", backup], environment(served))).code).toBe(0);
      const held = await recap(["restore", "--force", backup], environment(served));
      expect(held.code).not.toBe(0);
      expect(held.stderr).toMatch(/a server has .*recap\.db open: stop every Recap process using it/);
    } finally {
      await running.close();
    }

    const target = join(root, "occupied");
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, "secret"), "a secret already here");
    const occupied = await recap(["restore", backup], environment(target));
    expect(occupied.code).not.toBe(0);
    expect(occupied.stderr).toMatch(/the data directory is not empty \(.*secret\).*--force/);
    expect(readFileSync(join(target, "secret"), "utf8")).toBe("a secret already here");
    const forced = await recap(["restore", "--force", backup], environment(target));
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(join(target, "secret"))).toEqual(readFileSync(join(served, "secret")));

    const empty = join(root, "empty");
    const notes = join(root, "notes.txt");
    writeFileSync(notes, "These are meeting notes, not a backup.\n");
    const notGzip = await recap(["restore", notes], environment(empty));
    expect(notGzip.code).not.toBe(0);
    expect(notGzip.stderr).toContain(`${notes} is not a Recap backup`);
    const otherArchive = join(root, "other.tar.gz");
    await run("tar", ["-czf", otherArchive, "-C", root, "notes.txt"]);
    const other = await recap(["restore", otherArchive], environment(empty));
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain(
      `${otherArchive} is not a Recap backup (it does not start with manifest.json)`,
    );

    const whole = readFileSync(backup);
    const cut = join(root, "cut.tar.gz");
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const cutShort = await recap(["restore", cut], environment(empty));
    expect(cutShort.code).not.toBe(0);
    expect(cutShort.stderr).toContain(`${cut} is cut short`);
    expect(readdirSync(empty)).toEqual([]);

    // A database a newer Recap migrated: it has a migration this one does not know.
    const sqlite = new Database(join(served, "recap.db"));
    sqlite
      .prepare("INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)")
      .run("099_from_the_future", new Date().toISOString());
    sqlite.close();
    const newer = join(root, "newer.tar.gz");
    expect((await recap(["backup", newer], environment(served))).code).toBe(0);
    const refused = await recap(["restore", newer], environment(empty));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      "holds a database of a newer schema than this Recap's (migrations 099_from_the_future are unknown here",
    );
    expect(existsSync(join(empty, "recap.db"))).toBe(false);
  }, 120_000);
});

const hasPostgres = (await dialects()).includes("postgres");

describe.skipIf(!hasPostgres)("PostgreSQL with pg_dump and pg_restore", () => {
  const root = mkdtempSync(join(tmpdir(), "recap-pg-dump-"));
  let source: TestDatabase;
  let server: TestServer | undefined;
  const scratch = `recap_restore_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    source = await createTestDatabase("postgres");
  });
  afterAll(async () => {
    await server?.close();
    await source.drop();
    await admin(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    rmSync(root, { recursive: true, force: true });
  });

  it("bin/recap backup points at pg_dump; the documented pg_dump -Fc and pg_restore round trip keeps every write", async () => {
    if (source.target.dialect !== "postgres") throw new Error("PostgreSQL only");
    const sourceUrl = source.target.url;
    const refused = await recap(["backup", join(root, "x.tar.gz")], {
      ...environment(root),
      DATABASE_URL: sourceUrl,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('pg_dump -Fc --dbname="$DATABASE_URL" --file recap.dump');

    server = await startTestServer("postgres", { testDatabase: source });
    const { token } = await server.newApp();
    const { conversationId } = await server.ingest(token, {
      name: "Dumped",
      messages: [
        { payload: { content: "Dana will send the budget by Friday." }, from: { name: "Bob" } },
        { payload: { content: "Sure, I will." }, from: { name: "Dana", email: "dana@example.com" } },
      ],
    });
    const { members } = (await (
      await server.api(token, `/v1/conversations/${conversationId}/members`)
    ).json()) as Body.MemberList;
    const bob = members.find((member) => member.name === "Bob");
    if (!bob) throw new Error("no member Bob");
    expect(
      (
        await server.api(token, `/v1/conversations/${conversationId}/members/${bob.id}`, {
          method: "PUT",
          body: { id: bob.id, name: "Robert" },
        })
      ).status,
    ).toBe(200);
    const link = await createLink(server, token, conversationId, { name: "verbose-text-summary" });

    // docs/OPERATIONS.md: the dump is taken while the server runs; the restore goes into an empty database.
    const dump = join(root, "recap.dump");
    await run("pg_dump", ["-Fc", `--dbname=${sourceUrl}`, "--file", dump]);
    await server.close();
    server = undefined;
    await admin(`CREATE DATABASE ${scratch}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${scratch}`;
    await run("pg_restore", [
      "--no-owner",
      "--single-transaction",
      "--exit-on-error",
      `--dbname=${url.toString()}`,
      dump,
    ]);

    server = await startTestServer("postgres", {
      testDatabase: { target: { dialect: "postgres", url: url.toString() }, drop: () => Promise.resolve() },
    });
    const messages = (await (
      await server.api(token, `/v1/conversations/${conversationId}/messages`)
    ).json()) as Body.MessageList;
    expect(messages.messages.map((message) => message.text)).toEqual([
      "Dana will send the budget by Friday.",
      "Sure, I will.",
    ]);
    const restoredMembers = (await (
      await server.api(token, `/v1/conversations/${conversationId}/members`)
    ).json()) as Body.MemberList;
    expect(restoredMembers.members.map((member) => member.name)).toEqual(["Robert", "Dana"]);
    expect((await fetch(onServer(server, link.url))).status).toBe(200);
  }, 120_000);
});

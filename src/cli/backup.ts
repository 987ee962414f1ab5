// `recap backup FILE` and `recap restore FILE` (docs/OPERATIONS.md, Backup and restore): one gzip-compressed tar
// archive holding a manifest, a consistent copy of the SQLite database, the development signing secret, the
// stored recordings and the fetched web fonts, under fixed names whatever folders the configuration names.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { constants as zlibConstants, createGunzip, createGzip } from "node:zlib";
import tar from "tar-stream";
import { loadConfig, type Config } from "../config.ts";
import { migrations } from "../db/database.ts";
import { migrationsOf, snapshotSqlite, SQLITE_FILE_SUFFIXES, sqliteInUse } from "../db/sqlite-files.ts";

const FORMAT = "recap-backup";
/** The archive layout this code writes and reads; a later layout gets a higher number. */
const FORMAT_VERSION = 1;

/** The archive's entries: the manifest first, then the database, then the rest. */
const MANIFEST = "manifest.json";
const DATABASE = "recap.db";
const SECRET = "secret";
const FONTS = "fonts/";
const UPLOADS = "media/uploads/";
/** A file name within fonts/ or media/uploads/: one path segment, so no entry can name a place outside them. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Files being written (web-fonts.ts writes `….partial` and renames) are not part of a backup. */
const UNFINISHED = /\.partial$/;
const MAX_MANIFEST_BYTES = 1024 * 1024;

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  createdAt: string;
  database: {
    dialect: "sqlite";
    bytes: number;
    sha256: string;
    /** The migrations applied to it, in order (the schema's level). */
    migrations: string[];
  };
}

/** What a backup holds, or what a restore wrote. */
export interface BackupContents {
  file: string;
  database: string;
  schema: string;
  recordings: number;
  fonts: number;
  secret: boolean;
}

/** The SQLite file a backup or restore works on; PostgreSQL is backed up with its own tools. */
function sqliteDatabase(config: Readonly<Config>, command: "backup" | "restore"): string {
  if (config.database.dialect === "sqlite") return config.database.path;
  const tool =
    command === "backup"
      ? `pg_dump -Fc --dbname="$DATABASE_URL" --file recap.dump`
      : `pg_restore --no-owner --single-transaction --exit-on-error --dbname="$DATABASE_URL" recap.dump (into an empty database)`;
  throw new Error(
    `the database is PostgreSQL (DATABASE_URL): ${command} it with PostgreSQL's own tools, ${tool}, and ` +
      `copy the recordings (${join(config.media.dir, "uploads")}) and fonts (${config.fontCacheDir}) beside ` +
      `it (docs/OPERATIONS.md, Backup and restore)`,
  );
}

const schemaOf = (names: string[]) => names.at(-1) ?? "none";

/** The regular files directly in `dir` whose names an archive may carry (none when it does not exist). */
async function filesIn(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && FILE_NAME.test(entry.name) && !UNFINISHED.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

async function digestOf(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { bytes, sha256: hash.digest("hex") };
}

/** Adds bytes held in memory as the entry `name`. */
function addBytes(pack: tar.Pack, name: string, body: Buffer): Promise<void> {
  return new Promise((done, fail) => {
    pack.entry({ name, size: body.length, mode: 0o600, mtime: new Date() }, body, (error) =>
      error ? fail(error) : done(),
    );
  });
}

/**
 * Adds the file at `path` as the entry `name`, read from a descriptor opened first: a file removed after that
 * is still read whole, and one removed before (a recording whose conversation was deleted while the backup
 * ran) is left out. Says whether it was added.
 */
async function addFile(pack: tar.Pack, name: string, path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return false;
    const header = { name, size: info.size, mode: 0o600, mtime: info.mtime };
    if (info.size === 0) {
      await addBytes(pack, name, Buffer.alloc(0));
      return true;
    }
    await new Promise<void>((done, fail) => {
      const entry = pack.entry(header, (error) => (error ? fail(error) : done()));
      const source = handle.createReadStream({ start: 0, end: info.size - 1, autoClose: false });
      source.on("error", fail);
      source.pipe(entry);
    });
    return true;
  } finally {
    await handle.close();
  }
}

/**
 * Writes a backup of the configured SQLite database, with the signing secret file, the stored recordings and the
 * font cache, to `file` (whole or not at all, readable by its owner only). Servers may keep running and writing:
 * the database copy is one consistent snapshot; recordings are stored before their rows, so each one the
 * snapshot names is there, unless deleted since. Throws for PostgreSQL (pg_dump) and when there is no database.
 */
export async function createBackup(config: Readonly<Config>, file: string): Promise<BackupContents> {
  const database = sqliteDatabase(config, "backup");
  if (!existsSync(database)) throw new Error(`there is no database at ${database} to back up`);
  const output = resolve(file);
  if (!existsSync(dirname(output)))
    throw new Error(`there is no folder ${dirname(output)} to write ${file} in`);
  const partial = `${output}.${process.pid}.partial`;
  const snapshot = `${output}.${process.pid}.db`;
  try {
    await snapshotSqlite(database, snapshot);
    const applied = migrationsOf(snapshot);
    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      database: { dialect: "sqlite", ...(await digestOf(snapshot)), migrations: applied },
    };
    const uploadsDir = join(config.media.dir, "uploads");
    const [fontFiles, uploadFiles] = await Promise.all([filesIn(config.fontCacheDir), filesIn(uploadsDir)]);

    const pack = tar.pack();
    // Recordings are compressed already: the fastest level saves time on them and still shrinks the database.
    const written = pipeline(
      pack as unknown as Readable,
      createGzip({ level: zlibConstants.Z_BEST_SPEED }),
      createWriteStream(partial, { flags: "wx", mode: 0o600 }),
    );
    const contents = {
      file: output,
      database,
      schema: schemaOf(applied),
      recordings: 0,
      fonts: 0,
      secret: false,
    };
    const filling = (async () => {
      await addBytes(pack, MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      await addFile(pack, DATABASE, snapshot);
      contents.secret = await addFile(pack, SECRET, join(config.dataDir, "secret"));
      for (const name of fontFiles) {
        if (await addFile(pack, FONTS + name, join(config.fontCacheDir, name))) contents.fonts += 1;
      }
      for (const name of uploadFiles) {
        if (await addFile(pack, UPLOADS + name, join(uploadsDir, name))) contents.recordings += 1;
      }
      pack.finalize();
    })();
    await Promise.all([written, filling]);
    await rename(partial, output);
    return contents;
  } finally {
    await rm(snapshot, { force: true });
    await rm(partial, { force: true });
  }
}

/** Reads and checks the manifest: a Recap backup, of a layout and a schema this Recap knows. */
function checkManifest(file: string, text: string): Manifest {
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(text) as Partial<Manifest>;
  } catch {
    throw new Error(`${file} is not a Recap backup (its ${MANIFEST} is not JSON)`);
  }
  if (manifest.format !== FORMAT || typeof manifest.formatVersion !== "number") {
    throw new Error(`${file} is not a Recap backup (its ${MANIFEST} does not say format "${FORMAT}")`);
  }
  if (manifest.formatVersion > FORMAT_VERSION) {
    throw new Error(
      `${file} was made by a newer Recap (backup format ${manifest.formatVersion}; this one reads format ${FORMAT_VERSION}): restore it with that version`,
    );
  }
  const database = manifest.database;
  if (
    typeof database?.sha256 !== "string" ||
    typeof database.bytes !== "number" ||
    !Array.isArray(database.migrations) ||
    !database.migrations.every((name) => typeof name === "string")
  ) {
    throw new Error(`${file} is not a Recap backup (its ${MANIFEST} does not describe the database)`);
  }
  const unknown = database.migrations.filter((name) => !(name in migrations));
  if (unknown.length > 0) {
    throw new Error(
      `${file} holds a database of a newer schema than this Recap's (migrations ${unknown.join(", ")} are unknown ` +
        `here; this Recap's latest is ${schemaOf(Object.keys(migrations))}): restore it with the Recap version ` +
        `that made it, or a newer one`,
    );
  }
  return manifest as Manifest;
}

/** What a restore would replace; it refuses unless told to (--force). */
async function occupied(config: Readonly<Config>, database: string): Promise<string[]> {
  const found = SQLITE_FILE_SUFFIXES.map((suffix) => database + suffix).filter((path) => existsSync(path));
  const secret = join(config.dataDir, "secret");
  if (existsSync(secret)) found.push(secret);
  for (const dir of [join(config.media.dir, "uploads"), config.fontCacheDir]) {
    if ((await filesIn(dir)).length > 0) found.push(`${dir}/`);
  }
  return found;
}

async function readAll(stream: AsyncIterable<Buffer>, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > limit) throw new Error(`more than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Writes an entry's bytes to a new file, returning their digest. */
async function writeEntry(entry: Readable, path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  entry.on("data", (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  await pipeline(entry, createWriteStream(path, { flags: "wx", mode: 0o600 }));
  return { bytes, sha256: hash.digest("hex") };
}

/** Why an archive could not be read, said as what it means for a restore. */
function unreadable(file: string, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return new Error(`there is no file ${file}`);
  if (code === "Z_DATA_ERROR" || /tar header/i.test(message)) {
    return new Error(`${file} is not a Recap backup (not a gzip-compressed tar archive: ${message})`);
  }
  if (code === "Z_BUF_ERROR" || /unexpected end/i.test(message)) {
    return new Error(`${file} is cut short (${message}): nothing was restored`);
  }
  return error instanceof Error ? error : new Error(message);
}

/**
 * Restores a backup made by createBackup into the configured places: the SQLite file, the signing secret file,
 * the recordings folder and the font cache. Refuses, before writing anything, a file that is not a Recap backup
 * or holds a newer schema, a database a server has open, and (unless `force`) anything already there. The
 * archive is read whole into staging places beside the targets and checked against its manifest before they
 * replace anything, so a bad archive leaves everything as it was.
 */
export async function restoreBackup(
  config: Readonly<Config>,
  file: string,
  options: { force?: boolean } = {},
): Promise<BackupContents> {
  const database = sqliteDatabase(config, "restore");
  const input = resolve(file);
  if (sqliteInUse(database)) {
    throw new Error(`a server has ${database} open: stop every Recap process using it, then restore`);
  }
  const present = await occupied(config, database);
  if (present.length > 0 && !options.force) {
    throw new Error(
      `the data directory is not empty (${present.join(", ")}): restore writes into an empty one; ` +
        `pass --force to replace these`,
    );
  }

  const uploadsDir = join(config.media.dir, "uploads");
  const staged = {
    database: `${database}.restoring`,
    secret: join(config.dataDir, "secret.restoring"),
    fonts: `${config.fontCacheDir}.restoring`,
    uploads: `${uploadsDir}.restoring`,
  };
  const clearStaging = () =>
    Promise.all(Object.values(staged).map((path) => rm(path, { recursive: true, force: true })));
  await clearStaging();
  await mkdir(config.dataDir, { recursive: true });

  let manifest: Manifest | null = null;
  const contents = { file: input, database, schema: "", recordings: 0, fonts: 0, secret: false };
  let restoredDatabase: { bytes: number; sha256: string } | null = null;
  try {
    const extract = tar.extract();
    const feeding = pipeline(
      createReadStream(input),
      createGunzip(),
      extract as unknown as NodeJS.WritableStream,
    );
    // Awaited after the entries; a failure (a cut archive) may come first, while they are read.
    feeding.catch(() => undefined);
    try {
      for await (const entry of extract) {
        const { name, type } = entry.header;
        const stream = entry as unknown as Readable;
        if (manifest === null) {
          if (name !== MANIFEST || type !== "file") {
            throw new Error(`${input} is not a Recap backup (it does not start with ${MANIFEST})`);
          }
          manifest = checkManifest(input, (await readAll(stream, MAX_MANIFEST_BYTES)).toString("utf8"));
          contents.schema = schemaOf(manifest.database.migrations);
          continue;
        }
        if (type !== "file")
          throw new Error(`${input} holds an entry Recap does not write: ${name} (${type})`);
        if (name === DATABASE) {
          await mkdir(dirname(staged.database), { recursive: true });
          restoredDatabase = await writeEntry(stream, staged.database);
        } else if (name === SECRET) {
          await writeEntry(stream, staged.secret);
          contents.secret = true;
        } else if (name.startsWith(FONTS) && FILE_NAME.test(name.slice(FONTS.length))) {
          await mkdir(staged.fonts, { recursive: true });
          await writeEntry(stream, join(staged.fonts, name.slice(FONTS.length)));
          contents.fonts += 1;
        } else if (name.startsWith(UPLOADS) && FILE_NAME.test(name.slice(UPLOADS.length))) {
          await mkdir(staged.uploads, { recursive: true });
          await writeEntry(stream, join(staged.uploads, name.slice(UPLOADS.length)));
          contents.recordings += 1;
        } else {
          throw new Error(`${input} holds an entry Recap does not write: ${name}`);
        }
      }
      await feeding;
    } catch (error) {
      await feeding.catch(() => undefined);
      throw unreadable(input, error);
    }
    if (manifest === null) throw new Error(`${input} is not a Recap backup (it is empty)`);
    if (
      restoredDatabase === null ||
      restoredDatabase.sha256 !== manifest.database.sha256 ||
      restoredDatabase.bytes !== manifest.database.bytes
    ) {
      throw new Error(`${input} is damaged: its database is missing or differs from its manifest`);
    }

    // Everything is read and checked: replace what was there.
    for (const suffix of SQLITE_FILE_SUFFIXES) await rm(database + suffix, { force: true });
    await rename(staged.database, database);
    await rm(join(config.dataDir, "secret"), { force: true });
    if (contents.secret) await rename(staged.secret, join(config.dataDir, "secret"));
    for (const [from, to] of [
      [staged.fonts, config.fontCacheDir],
      [staged.uploads, uploadsDir],
    ] as const) {
      await rm(to, { recursive: true, force: true });
      if (await stat(from).catch(() => null)) {
        await mkdir(dirname(to), { recursive: true });
        await rename(from, to);
      }
    }
    return contents;
  } finally {
    await clearStaging();
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function describe(contents: BackupContents): string {
  const secret = contents.secret ? " and the signing secret file" : "";
  return (
    `${contents.database} (schema ${contents.schema}), ${contents.recordings} recording(s), ` +
    `${contents.fonts} font file(s)${secret}`
  );
}

/** `recap backup FILE`. */
export async function backupCommand(file: string): Promise<void> {
  const made = await createBackup(loadConfig(process.env), file);
  console.log(`Backed up ${describe(made)} to ${made.file} (${megabytes((await stat(made.file)).size)})`);
}

/** `recap restore FILE [--force]`. */
export async function restoreCommand(file: string, options: { force?: boolean }): Promise<void> {
  const config = loadConfig(process.env);
  const restored = await restoreBackup(config, file, options);
  console.log(`Restored ${describe(restored)} from ${restored.file}`);
  if (config.signingSecret !== null && restored.secret) {
    console.log(
      "RECAP_SECRET is set, so the server signs with it, not with the restored secret file: tokens and summary " +
        "links made under the restored file's secret work only if RECAP_SECRET is that same secret",
    );
  } else if (config.signingSecret === null && !restored.secret) {
    console.log(
      "The backup holds no signing secret (its server had RECAP_SECRET): set the same RECAP_SECRET, or its " +
        "tokens and summary links stop working",
    );
  }
  console.log("Start the server on it: npm start");
}

// `recap backup FILE` and `recap restore FILE` (docs/OPERATIONS.md, Backup and restore): one gzip-compressed tar
// archive holding a manifest, a consistent copy of the SQLite database, the development signing secret, the
// stored recordings and the fetched web fonts, under fixed names whatever folders the configuration names. The
// manifest lists every other entry with its size and SHA-256, so a restore refuses an archive altered after it
// was made, and unpacks no more than it declares.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, open, readdir, rename, rm, rmdir, stat, statfs } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { constants as zlibConstants, createGunzip, createGzip } from "node:zlib";
import tar from "tar-stream";
import { loadConfig, type Config } from "../config.ts";
import { migrations } from "../db/database.ts";
import { migrationsOf, snapshotSqlite, SQLITE_FILE_SUFFIXES, sqliteInUse } from "../db/sqlite-files.ts";

const FORMAT = "recap-backup";
/**
 * The archive layout this code writes; a later layout gets a higher number. Format 1 checksummed the database
 * only; format 2 lists every entry (`files`).
 */
const FORMAT_VERSION = 2;

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
/** Room for the manifest of about 100,000 files. */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
const SHA256 = /^[0-9a-f]{64}$/;
/**
 * What a restore leaves free on each file system it writes to: an archive that would take more (its manifest's
 * sizes, or a format 1 archive's entries as they come) is refused, so no archive can fill the disk.
 */
const RESERVE_BYTES = 64 * 1024 * 1024;
/** How often a backup starts again when a file it listed was removed or changed before it was copied. */
const BACKUP_ATTEMPTS = 3;

/** One entry of the archive after the manifest, as the manifest lists it. */
export interface ManifestFile {
  name: string;
  bytes: number;
  sha256: string;
}

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
  /** Every entry after the manifest, the database first, in the archive's order (format 2 on). */
  files: ManifestFile[];
  /** The sum of their sizes: what a restore writes. */
  bytes: number;
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
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

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

/** A file listed in the manifest was removed or changed before it was copied: the backup starts again. */
class FileChanged extends Error {}

/**
 * Adds the file at `path` as the entry `name`, read from a descriptor opened first (a file removed after that is
 * still read whole), and checked against what the manifest lists for it while it is read. Throws FileChanged
 * when it is gone or differs (a recording whose conversation was deleted while the backup ran).
 */
async function addFile(pack: tar.Pack, listed: ManifestFile, path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new FileChanged(`${path} was removed`);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size !== listed.bytes) throw new FileChanged(`${path} changed`);
    const hash = createHash("sha256");
    if (info.size === 0) await addBytes(pack, listed.name, Buffer.alloc(0));
    else {
      await new Promise<void>((done, fail) => {
        const header = { name: listed.name, size: info.size, mode: 0o600, mtime: info.mtime };
        const entry = pack.entry(header, (error) => (error ? fail(error) : done()));
        const source = handle.createReadStream({ start: 0, end: info.size - 1, autoClose: false });
        source.on("data", (chunk) => hash.update(chunk));
        source.on("error", fail);
        source.pipe(entry);
      });
    }
    if (hash.digest("hex") !== listed.sha256) throw new FileChanged(`${path} changed`);
  } finally {
    await handle.close();
  }
}

/** The files a backup lists, each read once for its size and SHA-256; one removed meanwhile is left out. */
async function listFiles(
  sources: { name: string; path: string }[],
): Promise<(ManifestFile & { path: string })[]> {
  const listed = [];
  for (const source of sources) {
    try {
      listed.push({ ...source, ...(await digestOf(source.path)) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return listed;
}

/**
 * Writes a backup of the configured SQLite database, with the signing secret file, the stored recordings and the
 * font cache, to `file` (whole or not at all, readable by its owner only). Servers may keep running and writing:
 * the database copy is one consistent snapshot; recordings are stored before their rows, so each one the
 * snapshot names is there, unless deleted since. Every file is read twice, for the manifest and into the archive;
 * one removed or changed in between (a conversation deleted meanwhile) starts the backup again, at most
 * BACKUP_ATTEMPTS times. Throws for PostgreSQL (pg_dump) and when there is no database.
 */
export async function createBackup(config: Readonly<Config>, file: string): Promise<BackupContents> {
  const database = sqliteDatabase(config, "backup");
  if (!existsSync(database)) throw new Error(`there is no database at ${database} to back up`);
  const output = resolve(file);
  if (!existsSync(dirname(output)))
    throw new Error(`there is no folder ${dirname(output)} to write ${file} in`);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await writeBackup(config, database, output);
    } catch (error) {
      if (!(error instanceof FileChanged) || attempt === BACKUP_ATTEMPTS) throw error;
    }
  }
}

async function writeBackup(
  config: Readonly<Config>,
  database: string,
  output: string,
): Promise<BackupContents> {
  const partial = `${output}.${process.pid}.partial`;
  const snapshot = `${output}.${process.pid}.db`;
  try {
    await snapshotSqlite(database, snapshot);
    const applied = migrationsOf(snapshot);
    const uploadsDir = join(config.media.dir, "uploads");
    const [fontFiles, uploadFiles] = await Promise.all([filesIn(config.fontCacheDir), filesIn(uploadsDir)]);
    const files = await listFiles([
      { name: DATABASE, path: snapshot },
      { name: SECRET, path: join(config.dataDir, "secret") },
      ...fontFiles.map((name) => ({ name: FONTS + name, path: join(config.fontCacheDir, name) })),
      ...uploadFiles.map((name) => ({ name: UPLOADS + name, path: join(uploadsDir, name) })),
    ]);
    const databaseFile = files[0];
    if (databaseFile?.name !== DATABASE) throw new Error(`the copy of ${database} is gone`);
    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      database: {
        dialect: "sqlite",
        bytes: databaseFile.bytes,
        sha256: databaseFile.sha256,
        migrations: applied,
      },
      files: files.map(({ name, bytes, sha256 }) => ({ name, bytes, sha256 })),
      bytes: files.reduce((sum, listed) => sum + listed.bytes, 0),
    };

    const pack = tar.pack();
    // Recordings are compressed already: the fastest level saves time on them and still shrinks the database.
    const written = pipeline(
      pack as unknown as Readable,
      createGzip({ level: zlibConstants.Z_BEST_SPEED }),
      createWriteStream(partial, { flags: "wx", mode: 0o600 }),
    );
    const filling = (async () => {
      await addBytes(pack, MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      for (const listed of files) await addFile(pack, listed, listed.path);
      pack.finalize();
    })();
    // A file found changed ends the archive at once; the failure to report is then that, not the stream's.
    filling.catch((error: unknown) => pack.destroy(error as Error));
    const [wrote, filled] = await Promise.allSettled([written, filling]);
    if (filled.status === "rejected") throw filled.reason;
    if (wrote.status === "rejected") throw wrote.reason;
    await rename(partial, output);
    return {
      file: output,
      database,
      schema: schemaOf(applied),
      recordings: files.filter((listed) => listed.name.startsWith(UPLOADS)).length,
      fonts: files.filter((listed) => listed.name.startsWith(FONTS)).length,
      secret: files.some((listed) => listed.name === SECRET),
    };
  } finally {
    await rm(snapshot, { force: true });
    await rm(partial, { force: true });
  }
}

/** Whether an archive may hold an entry of this name: one of the fixed names, or one file in a fixed folder. */
const isEntryName = (name: string) =>
  name === DATABASE ||
  name === SECRET ||
  (name.startsWith(FONTS) && FILE_NAME.test(name.slice(FONTS.length))) ||
  (name.startsWith(UPLOADS) && FILE_NAME.test(name.slice(UPLOADS.length)));

/**
 * The entries a format 2 manifest lists, by name, each once, with sizes adding up to its total and the database
 * first, as its `database` describes it; null for format 1, which lists none. Throws naming what is wrong.
 */
function listedFiles(file: string, manifest: Manifest): Map<string, ManifestFile> | null {
  if (manifest.formatVersion < 2) return null;
  const wrong = (what: string) => new Error(`${file} is not a Recap backup (its ${MANIFEST} ${what})`);
  const files: unknown = manifest.files;
  if (!Array.isArray(files)) throw wrong("does not list its files");
  const listed = new Map<string, ManifestFile>();
  let total = 0;
  for (const [index, entry] of (files as Partial<ManifestFile>[]).entries()) {
    const { name, bytes, sha256 } = entry;
    if (typeof name !== "string" || !isEntryName(name) || listed.has(name)) {
      throw wrong(
        `lists a file Recap does not write, or twice: files[${index}].name ${JSON.stringify(name)}`,
      );
    }
    if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes < 0) {
      throw wrong(`gives no size for ${name}`);
    }
    if (typeof sha256 !== "string" || !SHA256.test(sha256)) throw wrong(`gives no SHA-256 for ${name}`);
    listed.set(name, { name, bytes, sha256 });
    total += bytes;
  }
  if (total !== manifest.bytes) throw wrong(`says ${manifest.bytes} bytes in all, its files ${total}`);
  const database = listed.get(DATABASE);
  if (database?.bytes !== manifest.database.bytes || database.sha256 !== manifest.database.sha256) {
    throw wrong("lists a database other than the one it describes");
  }
  return listed;
}

/**
 * The bytes a restore may still write to each file system, found where it writes (the nearest folder that
 * exists), less RESERVE_BYTES: `take` throws once an archive would need more than is free.
 */
class DiskBudget {
  private readonly left = new Map<string, number>();

  constructor(private readonly file: string) {}

  async take(dir: string, bytes: number, what: string): Promise<void> {
    let left = this.left.get(dir);
    if (left === undefined) {
      let existing = dir;
      while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
      const free = await statfs(existing);
      left = free.bavail * free.bsize - RESERVE_BYTES;
    }
    left -= bytes;
    this.left.set(dir, left);
    if (left < 0) {
      throw new Error(
        `${this.file} needs more room than ${dir} has (${what}; ${megabytes(RESERVE_BYTES)} are kept free): ` +
          `nothing was restored`,
      );
    }
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

/**
 * Writes an entry's bytes to a new file, returning their digest; stops at the first byte past `limit`, throwing
 * `tooLarge`, so an entry larger than it says (a decompression bomb) writes no more than that.
 */
async function writeEntry(
  entry: Readable,
  path: string,
  limit: number,
  tooLarge: () => Error,
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > limit) return done(tooLarge());
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(entry, bounded, createWriteStream(path, { flags: "wx", mode: 0o600 }));
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
  // A refused restore leaves no folder behind either: those staging makes are removed again when empty.
  const made = [dirname(staged.fonts), dirname(staged.uploads)].filter(
    (dir) => dir !== config.dataDir && !existsSync(dir),
  );
  const clearStaging = async () => {
    await Promise.all(Object.values(staged).map((path) => rm(path, { recursive: true, force: true })));
    for (const dir of made) await rmdir(dir).catch(() => undefined);
  };
  await clearStaging();
  await mkdir(config.dataDir, { recursive: true });

  let manifest: Manifest | null = null;
  let listed: Map<string, ManifestFile> | null = null;
  const budget = new DiskBudget(input);
  const contents = { file: input, database, schema: "", recordings: 0, fonts: 0, secret: false };
  const written = new Map<string, { bytes: number; sha256: string }>();
  /** Where an entry is staged, and the folder whose file system it fills. */
  const placeOf = (name: string): { path: string; dir: string } => {
    if (name === DATABASE) return { path: staged.database, dir: dirname(database) };
    if (name === SECRET) return { path: staged.secret, dir: config.dataDir };
    if (name.startsWith(FONTS)) {
      return { path: join(staged.fonts, name.slice(FONTS.length)), dir: config.fontCacheDir };
    }
    return { path: join(staged.uploads, name.slice(UPLOADS.length)), dir: uploadsDir };
  };
  const damaged = (why: string) => new Error(`${input} is damaged: ${why}: nothing was restored`);
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
        const { name, type, size } = entry.header;
        const stream = entry as unknown as Readable;
        if (manifest === null) {
          if (name !== MANIFEST || type !== "file") {
            throw new Error(`${input} is not a Recap backup (it does not start with ${MANIFEST})`);
          }
          manifest = checkManifest(input, (await readAll(stream, MAX_MANIFEST_BYTES)).toString("utf8"));
          contents.schema = schemaOf(manifest.database.migrations);
          listed = listedFiles(input, manifest);
          // What the manifest declares must fit before anything is unpacked.
          for (const declared of listed?.values() ?? []) {
            await budget.take(
              placeOf(declared.name).dir,
              declared.bytes,
              `the manifest lists ${manifest.bytes} bytes`,
            );
          }
          continue;
        }
        if (type !== "file" || !isEntryName(name)) {
          throw new Error(
            `${input} holds an entry Recap does not write: ${name}${type === "file" ? "" : ` (${type})`}`,
          );
        }
        const declared = listed?.get(name);
        if (listed !== null && (declared === undefined || written.has(name))) {
          throw damaged(
            declared ? `it holds ${name} twice` : `it holds ${name}, which its manifest does not list`,
          );
        }
        // A format 1 archive lists nothing: each entry is held to what its tar header says, and to the room left.
        const limit = declared?.bytes ?? size ?? 0;
        if (declared !== undefined && size !== declared.bytes) {
          throw damaged(`${name} is ${size} bytes in the archive, its manifest says ${declared.bytes}`);
        }
        const place = placeOf(name);
        if (declared === undefined) await budget.take(place.dir, limit, `${name} is ${limit} bytes`);
        await mkdir(dirname(place.path), { recursive: true });
        const digest = await writeEntry(stream, place.path, limit, () =>
          damaged(`${name} holds more than the ${limit} bytes its ${declared ? "manifest" : "header"} says`),
        );
        if (declared !== undefined && digest.sha256 !== declared.sha256) {
          throw damaged(`${name} differs from its manifest (SHA-256)`);
        }
        written.set(name, digest);
        if (name === SECRET) contents.secret = true;
        else if (name.startsWith(FONTS)) contents.fonts += 1;
        else if (name.startsWith(UPLOADS)) contents.recordings += 1;
      }
      await feeding;
    } catch (error) {
      await feeding.catch(() => undefined);
      throw unreadable(input, error);
    }
    if (manifest === null) throw new Error(`${input} is not a Recap backup (it is empty)`);
    const missing = [...(listed?.keys() ?? [])].filter((name) => !written.has(name));
    if (missing.length > 0) {
      throw damaged(`its manifest lists ${missing.join(", ")}, which it does not hold`);
    }
    const restoredDatabase = written.get(DATABASE);
    if (
      restoredDatabase === undefined ||
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

/**
 * What the minimal servers share: the one statement per route they prepare, on the database Recap uses, and a
 * new link's values and answer.
 */
import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import SQLite from "better-sqlite3";

/** Opens the file with Recap's pragmas (WAL, synchronous=FULL), so a write costs what Recap's does. */
export function openLikeRecap(path: string): SQLite.Database {
  const db = new SQLite(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  return db;
}

/**
 * Tenancy, the secret generation and the members in one query: no row when the app cannot see the
 * conversation or the token's generation is not the app's; one row with null member fields when it has none.
 */
export const MEMBERS_SQL = `
  SELECT m.id, m.name, m.email
  FROM conversations c
  JOIN apps a ON a.id = c.app_id AND a.secret_generation = ?
  LEFT JOIN members m ON m.conversation_id = c.id
  WHERE c.id = ? AND c.app_id = ?
  ORDER BY m.position`;

/** MEMBERS_SQL with PostgreSQL's placeholders, for the `pg` servers. */
export const MEMBERS_PG_SQL = numberedPlaceholders(MEMBERS_SQL);

/** SQLite's `?` placeholders as PostgreSQL's `$1`, `$2`… in order. */
function numberedPlaceholders(text: string): string {
  let count = 0;
  return text.replace(/\?/g, () => `$${++count}`);
}

export interface MemberRow {
  id: string | null;
  name: string | null;
  email: string | null;
}

/** Recap's member JSON, in its field order: e-mail only when there is one. */
export function membersJson(rows: MemberRow[]): string {
  const members = rows
    .filter((row) => row.id !== null)
    .map((row) =>
      row.email === null ? { id: row.id, name: row.name } : { id: row.id, name: row.name, email: row.email },
    );
  return JSON.stringify({ members });
}

/** A link row inserted only when the app sees the conversation under the token's secret generation. */
export const INSERT_LINK_SQL = `
  INSERT INTO experiences (id, app_id, conversation_id, name, token_hash, settings, read_only,
    custom_domain, expires_at, revoked_at, created_at)
  SELECT ?, c.app_id, c.id, ?, ?, ?, 0, NULL, ?, NULL, ?
  FROM conversations c JOIN apps a ON a.id = c.app_id AND a.secret_generation = ?
  WHERE c.id = ? AND c.app_id = ?`;

const EXPIRES_IN = 2_592_000;

/**
 * A new summary link as Recap makes one for `{"name": "verbose-text-summary"}`: a signed token (a nonce and its
 * truncated HMAC), the row's values for INSERT_LINK_SQL (its hash, the settings Recap stores, the expiry) and
 * the JSON to answer once the row is in.
 */
export function newLink(
  name: string,
  claims: { appId: string; generation: number },
  conversationId: string,
  keys: { linkKey: Buffer; publicUrl: string },
): { values: unknown[]; json: string } {
  const nonce = randomBytes(16);
  const tag = createHmac("sha256", keys.linkKey).update(nonce).digest().subarray(0, 16);
  const token = Buffer.concat([nonce, tag]).toString("base64url");
  const settings = {
    name,
    color: {},
    font: {},
    summaryURLExpiresIn: EXPIRES_IN,
    readOnly: false,
    enableCustomDomain: false,
    speakerAvatarURLs: {},
    hideShareButton: false,
  };
  const now = new Date();
  const id = randomUUID();
  const values = [
    id,
    name,
    createHash("sha256").update(token).digest("hex"),
    JSON.stringify(settings),
    new Date(now.getTime() + EXPIRES_IN * 1000).toISOString(),
    now.toISOString(),
    claims.generation,
    conversationId,
    claims.appId,
  ];
  return { values, json: JSON.stringify({ name, url: `${keys.publicUrl}/s/${token}`, id }) };
}

/**
 * The minimal node:http server doing the members route's work on PostgreSQL, for bench/http/postgres.ts:
 * the token checked by hand (hs256.ts), then tenancy, the secret generation and the members in one named
 * prepared statement through a `pg` pool as large as Recap's. Configured by the environment: BENCH_DATABASE_URL,
 * BENCH_SECRET, BENCH_PORT.
 */
import { createServer, type ServerResponse } from "node:http";
import pg from "pg";
import { deriveKey } from "../../src/keys.ts";
import { checkToken } from "./hs256.ts";
import { MEMBERS_PG_SQL, membersJson, type MemberRow } from "./statements.ts";

const env = (name: string) => process.env[name] ?? "";
const pool = new pg.Pool({ connectionString: env("BENCH_DATABASE_URL"), max: 10 });
const tokenKey = deriveKey(env("BENCH_SECRET"), "access-token");

function answer(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
}

const server = createServer((request, response) => {
  const match = /^\/v1\/conversations\/([^/]+)\/members$/.exec(request.url ?? "");
  if (match?.[1] === undefined) return answer(response, 404, '{"message":"not found"}');
  const claims = checkToken(request.headers.authorization, tokenKey);
  if (claims === null) return answer(response, 401, '{"message":"Invalid access token"}');
  pool
    .query<MemberRow>({
      name: "members",
      text: MEMBERS_PG_SQL,
      values: [claims.generation, match[1], claims.appId],
    })
    .then(({ rows }) => {
      if (rows.length === 0) return answer(response, 404, '{"message":"conversation not found"}');
      answer(response, 200, membersJson(rows));
    })
    .catch((error: unknown) => answer(response, 500, JSON.stringify({ message: String(error) })));
});
server.listen(Number(env("BENCH_PORT")), "127.0.0.1", () => console.log("minimal-pg listening"));

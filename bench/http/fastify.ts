/**
 * The members route on bare Fastify 5 doing the minimal servers' work (the token checked by hand, one prepared
 * statement, identical JSON) and writing Recap's one log line per request (OneLinePerRequest) to standard
 * output as Recap does (logDestination), which the bench sends to a file as it does Recap's: the floor of any
 * Fastify service that logs its requests, for bench/http/run.ts (SQLite, as minimal.ts) and
 * bench/http/postgres.ts (PostgreSQL through a `pg` pool of Recap's size, as minimal-pg.ts). No hooks, no
 * schemas, no query builder. Configured by BENCH_DB or BENCH_DATABASE_URL, BENCH_SECRET and BENCH_PORT.
 */
import Fastify, { type FastifyReply } from "fastify";
import { deriveKey } from "../../src/keys.ts";
import { logDestination, OneLinePerRequest } from "../../src/http/logging.ts";
import { checkToken } from "./hs256.ts";
import { MEMBERS_PG_SQL, MEMBERS_SQL, membersJson, openLikeRecap, type MemberRow } from "./statements.ts";

type Members = (
  generation: number,
  conversationId: string,
  appId: string,
) => MemberRow[] | Promise<MemberRow[]>;

const env = (name: string) => process.env[name] ?? "";
const key = deriveKey(env("BENCH_SECRET"), "access-token");

/** The members statement on the database the environment names: prepared SQLite, or named on PostgreSQL. */
async function membersStatement(): Promise<Members> {
  const url = env("BENCH_DATABASE_URL");
  if (url === "") {
    const statement = openLikeRecap(env("BENCH_DB")).prepare<[number, string, string], MemberRow>(
      MEMBERS_SQL,
    );
    return (...values) => statement.all(...values);
  }
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (...values) =>
    (await pool.query<MemberRow>({ name: "members", text: MEMBERS_PG_SQL, values })).rows;
}

function answer(reply: FastifyReply, rows: MemberRow[]): FastifyReply {
  if (rows.length === 0) return reply.code(404).send({ message: "conversation not found" });
  return reply.type("application/json; charset=utf-8").send(membersJson(rows));
}

const members = await membersStatement();
const app = Fastify({
  logger: { level: "info", stream: logDestination() },
  logController: new OneLinePerRequest(),
});
app.get<{ Params: { conversationId: string } }>(
  "/v1/conversations/:conversationId/members",
  (request, reply) => {
    const claims = checkToken(request.headers.authorization, key);
    if (claims === null) return reply.code(401).send({ message: "Invalid access token" });
    const rows = members(claims.generation, request.params.conversationId, claims.appId);
    return rows instanceof Promise ? rows.then((list) => answer(reply, list)) : answer(reply, rows);
  },
);
await app.listen({ port: Number(env("BENCH_PORT")), host: "127.0.0.1" });
console.log("fastify listening");

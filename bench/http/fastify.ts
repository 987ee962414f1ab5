/**
 * Two of the minimal servers' routes on bare Fastify 5, doing their work (the token checked by hand, one
 * prepared statement, identical JSON) and writing Recap's one log line per request (OneLinePerRequest) to
 * standard output as Recap does (logDestination), which the bench sends to a file as it does Recap's: the floor
 * of any Fastify service that logs its requests. For bench/http/run.ts on SQLite, members and POST experiences
 * as minimal.ts does them (Fastify's own JSON body parser); for bench/http/postgres.ts, members through a `pg`
 * pool of Recap's size, as minimal-pg.ts. No hooks, no schemas, no query builder. Configured by BENCH_DB or
 * BENCH_DATABASE_URL, BENCH_SECRET, BENCH_PUBLIC_URL and BENCH_PORT.
 */
import type SQLite from "better-sqlite3";
import Fastify, { type FastifyReply } from "fastify";
import { deriveKey } from "../../src/keys.ts";
import { logDestination, OneLinePerRequest } from "../../src/http/logging.ts";
import { checkToken } from "./hs256.ts";
import {
  INSERT_LINK_SQL,
  MEMBERS_PG_SQL,
  MEMBERS_SQL,
  membersJson,
  newLink,
  openLikeRecap,
  type MemberRow,
} from "./statements.ts";

type Members = (
  generation: number,
  conversationId: string,
  appId: string,
) => MemberRow[] | Promise<MemberRow[]>;

const env = (name: string) => process.env[name] ?? "";
const key = deriveKey(env("BENCH_SECRET"), "access-token");
const links = { linkKey: deriveKey(env("BENCH_SECRET"), "summary-link"), publicUrl: env("BENCH_PUBLIC_URL") };
const databaseUrl = env("BENCH_DATABASE_URL");
const sqlite = databaseUrl === "" ? openLikeRecap(env("BENCH_DB")) : null;

/** The members statement: prepared on the SQLite file, or named on PostgreSQL. */
async function membersStatement(): Promise<Members> {
  if (sqlite !== null) {
    const statement = sqlite.prepare<[number, string, string], MemberRow>(MEMBERS_SQL);
    return (...values) => statement.all(...values);
  }
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  return async (...values) =>
    (await pool.query<MemberRow>({ name: "members", text: MEMBERS_PG_SQL, values })).rows;
}

function answer(reply: FastifyReply, status: number, json: string): FastifyReply {
  return reply.code(status).type("application/json; charset=utf-8").send(json);
}

function membersAnswer(reply: FastifyReply, rows: MemberRow[]): FastifyReply {
  if (rows.length === 0) return answer(reply, 404, '{"message":"conversation not found"}');
  return answer(reply, 200, membersJson(rows));
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
    if (claims === null) return answer(reply, 401, '{"message":"Invalid access token"}');
    const rows = members(claims.generation, request.params.conversationId, claims.appId);
    return rows instanceof Promise
      ? rows.then((list) => membersAnswer(reply, list))
      : membersAnswer(reply, rows);
  },
);

/** POST experiences: one insert of a signed link, as minimal.ts makes it. */
function linkRoute(database: SQLite.Database): void {
  const insertLink = database.prepare(INSERT_LINK_SQL);
  app.post<{ Params: { conversationId: string }; Body: { name?: unknown } }>(
    "/v1/conversations/:conversationId/experiences",
    (request, reply) => {
      const claims = checkToken(request.headers.authorization, key);
      if (claims === null) return answer(reply, 401, '{"message":"Invalid access token"}');
      if (request.body.name !== "verbose-text-summary") return answer(reply, 400, '{"message":"name"}');
      const link = newLink(request.body.name, claims, request.params.conversationId, links);
      if (insertLink.run(...link.values).changes === 0) {
        return answer(reply, 404, '{"message":"conversation not found"}');
      }
      return answer(reply, 200, link.json);
    },
  );
}

if (sqlite !== null) linkRoute(sqlite);
await app.listen({ port: Number(env("BENCH_PORT")), host: "127.0.0.1" });
console.log("fastify listening");

/**
 * The members route on bare Fastify 5 doing the minimal server's work (the token checked by hand, one prepared
 * statement, identical JSON) and writing Recap's one log line per request (OneLinePerRequest) to standard
 * output as Recap does (logDestination), which the bench sends to a file as it does Recap's: the floor of any
 * Fastify service that logs its requests, for bench/http/run.ts. No hooks, no schemas, no query builder.
 * Configured by BENCH_DB, BENCH_SECRET and BENCH_PORT.
 */
import Fastify from "fastify";
import { deriveKey } from "../../src/keys.ts";
import { logDestination, OneLinePerRequest } from "../../src/http/logging.ts";
import { checkToken } from "./hs256.ts";
import { MEMBERS_SQL, membersJson, openLikeRecap, type MemberRow } from "./statements.ts";

const env = (name: string) => process.env[name] ?? "";
const db = openLikeRecap(env("BENCH_DB"));
const members = db.prepare<[number, string, string], MemberRow>(MEMBERS_SQL);
const key = deriveKey(env("BENCH_SECRET"), "access-token");

const app = Fastify({
  logger: { level: "info", stream: logDestination() },
  logController: new OneLinePerRequest(),
});
app.get<{ Params: { conversationId: string } }>(
  "/v1/conversations/:conversationId/members",
  (request, reply) => {
    const claims = checkToken(request.headers.authorization, key);
    if (claims === null) return reply.code(401).send({ message: "Invalid access token" });
    const rows = members.all(claims.generation, request.params.conversationId, claims.appId);
    if (rows.length === 0) return reply.code(404).send({ message: "conversation not found" });
    return reply.type("application/json; charset=utf-8").send(membersJson(rows));
  },
);
await app.listen({ port: Number(env("BENCH_PORT")), host: "127.0.0.1" });
console.log("fastify listening");

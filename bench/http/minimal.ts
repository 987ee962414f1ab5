/**
 * The minimal node:http server doing the work of three Recap routes, for bench/http/run.ts:
 * GET /v1/conversations/:id/members (token, tenancy and secret generation, members: one prepared statement),
 * POST /v1/conversations/:id/experiences (token, tenancy, one insert, a signed link token) and GET /s/<any>
 * (the page's bytes from memory). Configured by the environment: BENCH_DB, BENCH_SECRET, BENCH_PUBLIC_URL,
 * BENCH_PAGE_FILE, BENCH_PORT.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { deriveKey } from "../../src/keys.ts";
import { checkToken } from "./hs256.ts";
import {
  INSERT_LINK_SQL,
  MEMBERS_SQL,
  membersJson,
  newLink,
  openLikeRecap,
  type MemberRow,
} from "./statements.ts";

const env = (name: string) => process.env[name] ?? "";
const db = openLikeRecap(env("BENCH_DB"));
const members = db.prepare<[number, string, string], MemberRow>(MEMBERS_SQL);
const insertLink = db.prepare(INSERT_LINK_SQL);
const tokenKey = deriveKey(env("BENCH_SECRET"), "access-token");
const links = { linkKey: deriveKey(env("BENCH_SECRET"), "summary-link"), publicUrl: env("BENCH_PUBLIC_URL") };
const page = readFileSync(env("BENCH_PAGE_FILE"));

function answer(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  response.end(body);
}

function createLink(request: IncomingMessage, response: ServerResponse, conversationId: string): void {
  const claims = checkToken(request.headers.authorization, tokenKey);
  if (claims === null) return answer(response, 401, '{"message":"Invalid access token"}');
  let text = "";
  request.setEncoding("utf8");
  request.on("data", (chunk: string) => (text += chunk));
  request.on("end", () => {
    let body: { name?: unknown };
    try {
      body = JSON.parse(text) as { name?: unknown };
    } catch {
      return answer(response, 400, '{"message":"body is not valid JSON"}');
    }
    if (body.name !== "verbose-text-summary") return answer(response, 400, '{"message":"name"}');
    const link = newLink(body.name, claims, conversationId, links);
    if (insertLink.run(...link.values).changes === 0) {
      return answer(response, 404, '{"message":"conversation not found"}');
    }
    answer(response, 200, link.json);
  });
}

const server = createServer((request, response) => {
  const url = request.url ?? "";
  if (url.startsWith("/s/")) {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": page.length });
    return response.end(page);
  }
  const match = /^\/v1\/conversations\/([^/]+)\/(members|experiences)$/.exec(url);
  if (match?.[1] === undefined) return answer(response, 404, '{"message":"not found"}');
  if (match[2] === "experiences" && request.method === "POST") return createLink(request, response, match[1]);
  const claims = checkToken(request.headers.authorization, tokenKey);
  if (claims === null) return answer(response, 401, '{"message":"Invalid access token"}');
  const rows = members.all(claims.generation, match[1], claims.appId);
  if (rows.length === 0) return answer(response, 404, '{"message":"conversation not found"}');
  answer(response, 200, membersJson(rows));
});
server.listen(Number(env("BENCH_PORT")), "127.0.0.1", () => console.log("minimal listening"));

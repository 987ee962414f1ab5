/**
 * The members route in Express 5 with jsonwebtoken, on the same prepared statement as the minimal server,
 * for bench/http/run.ts. Configured by BENCH_DB, BENCH_SECRET and BENCH_PORT.
 */
import express from "express";
import jwt from "jsonwebtoken";
import { deriveKey } from "../../src/keys.ts";
import { MEMBERS_SQL, membersJson, openLikeRecap, type MemberRow } from "./statements.ts";

const db = openLikeRecap(process.env.BENCH_DB ?? "");
const members = db.prepare<[number, string, string], MemberRow>(MEMBERS_SQL);
const key = deriveKey(process.env.BENCH_SECRET ?? "", "access-token");

const app = express();
app.get("/v1/conversations/:conversationId/members", (request, response) => {
  const authorization = request.get("authorization") ?? "";
  let claims: jwt.JwtPayload;
  try {
    const verified = jwt.verify(authorization.replace(/^Bearer +/, ""), key, { algorithms: ["HS256"] });
    if (typeof verified === "string" || typeof verified.sub !== "string") throw new Error("claims");
    claims = verified;
  } catch {
    response.status(401).json({ message: "Invalid access token" });
    return;
  }
  const rows = members.all(Number(claims.gen ?? 0), request.params.conversationId, claims.sub ?? "");
  if (rows.length === 0) {
    response.status(404).json({ message: "conversation not found" });
    return;
  }
  response.type("application/json; charset=utf-8").send(membersJson(rows));
});
app.listen(Number(process.env.BENCH_PORT), "127.0.0.1", () => console.log("express listening"));

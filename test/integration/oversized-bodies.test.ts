// A body over RECAP_BODY_LIMIT_BYTES is answered 413, and a client that sends its body whole before it
// reads, as simple HTTP clients do, reads that answer instead of losing it to a broken pipe or a reset.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { dialects } from "../helpers/databases.ts";
import { rawRequest } from "../helpers/raw-http.ts";

const LIMIT = 65_536;

/**
 * Sends `head` and `body` on a socket and reads nothing until the whole body is written: resolves with the
 * status line then read, or with the error that came instead ("EPIPE", "ECONNRESET").
 */
function sendWholeThenRead(url: string, head: string, body: Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.pause();
    let answer = "";
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.write(head);
    socket.write(body, (error) => {
      if (error) return;
      socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
      socket.on("end", () => resolve(answer.split("\r\n")[0] ?? ""));
      socket.resume();
    });
  });
}

describe.each(await dialects())("bodies over the limit on %s", (dialect) => {
  let server: TestServer;
  let token = "";
  beforeAll(async () => {
    server = await startTestServer(dialect, { env: { RECAP_BODY_LIMIT_BYTES: String(LIMIT) } });
    token = (await server.newApp()).token;
  });
  afterAll(() => server.close());

  it("lets 30 clients that send a body over the limit whole, at once, each read its 413, and refuses a huge one at once", async () => {
    const body = Buffer.alloc(64 * LIMIT, "x");
    const head = (length: string) =>
      `POST /v1/process/text HTTP/1.1\r\nHost: recap.test\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\n${length}\r\n\r\n`;
    const chunked = Buffer.concat([
      Buffer.from(`${body.length.toString(16)}\r\n`),
      body,
      Buffer.from("\r\n0\r\n\r\n"),
    ]);
    const answers = await Promise.all([
      ...Array.from({ length: 15 }, () =>
        sendWholeThenRead(server.url, head(`Content-Length: ${body.length}`), body),
      ),
      ...Array.from({ length: 15 }, () =>
        sendWholeThenRead(server.url, head("Transfer-Encoding: chunked"), chunked),
      ),
    ]);
    expect(answers).toEqual(Array(30).fill("HTTP/1.1 413 Payload Too Large"));
    // A body declared larger than the server reads to discard it is refused at once, before any arrives.
    const huge = await rawRequest(server.url, head(`Content-Length: ${1024 * 1024 * 1024}`));
    expect(huge.status).toBe(413);
    // The server still answers, and takes a body within the limit.
    const fine = await server.api(token, "/v1/process/text", {
      method: "POST",
      body: { messages: [{ payload: { content: "Hello." }, from: { name: "Ann" } }] },
    });
    expect(fine.status).toBe(201);
  });
});

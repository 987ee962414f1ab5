import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { dialects } from "../helpers/databases.ts";

/**
 * Opens a real socket, sends `head`, then one more byte every 200 ms for as long as the server keeps the
 * connection open; resolves with everything the server answered once it closes the connection.
 */
function trickle(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let answer = "";
    const drip = setInterval(() => socket.writable && socket.write("x"), 200);
    socket.on("data", (chunk) => (answer += chunk.toString()));
    // The server closes while bytes are still arriving, so a reset may follow its answer.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(drip);
      resolve(answer);
    });
  });
}

/** Fails the test with `what` if `work` has not settled within `seconds` (a hang, not a timing). */
function within<T>(seconds: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still open after ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([work, hang]).finally(() => clearTimeout(timer));
}

describe.each(await dialects())("slow requests on %s", (dialect) => {
  let server: TestServer;
  let token = "";
  beforeAll(async () => {
    server = await startTestServer(dialect, { env: { RECAP_REQUEST_TIMEOUT_SECONDS: "1" } });
    token = (await server.newApp()).token;
  });
  afterAll(() => server.close());

  it("answers 408 and closes connections whose body or headers arrive too slowly", async () => {
    const slowBody = (path: string) =>
      `POST ${path} HTTP/1.1\r\nHost: recap.test\r\nAuthorization: Bearer ${token}\r\n` +
      "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{";
    const clients = [
      ...Array.from({ length: 20 }, () => trickle(server.url, slowBody("/oauth2/token:generate"))),
      ...Array.from({ length: 20 }, () => trickle(server.url, slowBody("/v1/process/text"))),
      ...Array.from({ length: 10 }, () =>
        trickle(server.url, "POST /v1/process/text HTTP/1.1\r\nHost: recap.test\r\nX-Slow: "),
      ),
    ];
    const answers = await within(10, "slow connections", Promise.all(clients));
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { message: string };
      expect(body.message).toBe("The whole request must arrive within 1 s");
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 20_000);

  it("closes, once its answer is sent, a keep-alive connection whose request was in flight at close", async () => {
    const closingServer = await startTestServer(dialect);
    const { appId, appSecret } = await closingServer.newApp();
    const body = JSON.stringify({ type: "application", appId, appSecret });
    const { hostname, port } = new URL(closingServer.url);
    const socket = connect(Number(port), hostname);
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    const ended = new Promise((resolve) => socket.on("close", resolve));
    socket.write(
      "POST /oauth2/token:generate HTTP/1.1\r\nHost: recap.test\r\nContent-Type: application/json\r\n" +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = closingServer.close();
    socket.write(body.slice(10));
    await within(20, "the server", closed);
    await within(5, "the connection", ended);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\nconnection: keep-alive\r\n/i);
  }, 40_000);

  it("still takes a request that arrives in time", async () => {
    const response = await server.api(token, "/v1/process/text", {
      method: "POST",
      body: { messages: [{ payload: { content: "On time." } }] },
    });
    expect(response.status).toBe(201);
  });
});

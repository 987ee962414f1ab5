// SIGTERM on the real server process (src/main.ts): requests in flight are answered, a client whose body
// never finishes arriving does not hold the shutdown, and the process closes its runtime and exits 0.
// The database plays no part in what is tested, so this runs on an SQLite file only.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMain, startTestServer } from "../helpers/app.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { untilOutput, type Child } from "../helpers/processes.ts";
import { freePort } from "../helpers/wait.ts";

/** Resolves with the status line the server answered on `socket`, or the error that came instead. */
function answerOn(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on("close", () => resolve(answer.split("\r\n")[0] || "closed without an answer"));
  });
}

describe("shutting down on SIGTERM", () => {
  let database: TestDatabase;
  let token = "";
  let child: Child | undefined;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const helper = await startTestServer("sqlite", { runJobs: false, testDatabase: database });
    token = (await helper.newApp()).token;
    await helper.close();
  });
  afterAll(async () => {
    child?.process.kill("SIGKILL");
    await database.drop();
  });

  it("answers the requests in flight, cuts a body that never ends, closes its runtime and exits 0", async () => {
    const port = await freePort();
    const server = startMain(database, port);
    child = server;
    await untilOutput(server, "Recap listening on");

    const body = JSON.stringify({
      messages: [{ payload: { content: "Hello there." }, from: { name: "Ann" } }],
    });
    const head = (length: number) =>
      `POST /v1/process/text HTTP/1.1\r\nHost: recap.test\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    // One client sends a byte of its body now and then, and would hold the connection for the request
    // timeout (30 s).
    const slow = connect(port, "127.0.0.1");
    slow.on("error", () => undefined);
    await new Promise<void>((resolve) => slow.write(`${head(1000)}{`, () => resolve()));
    const drip = setInterval(() => slow.writable && slow.write(" "), 200);
    // Thirteen requests are sent whole just before the signal: some already being handled, some still
    // waiting to be read or accepted.
    const sockets = Array.from({ length: 13 }, () => connect(port, "127.0.0.1"));
    const answers = sockets.map(answerOn);
    await Promise.all(
      sockets.map(
        (socket) => new Promise<void>((resolve) => socket.write(head(body.length) + body, () => resolve())),
      ),
    );

    const exited = new Promise<number | null>((resolve) => server.process.once("exit", resolve));
    server.process.kill("SIGTERM");
    try {
      expect(await Promise.all(answers)).toEqual(Array(13).fill("HTTP/1.1 201 Created"));
      expect(await exited).toBe(0);
    } finally {
      clearInterval(drip);
    }
    const log = server.output();
    expect(log).toContain('"msg":"shutting down"');
    // Logged once the database, the analysis worker and the rest of the runtime are closed.
    expect(log).toContain('"msg":"stopped"');
  }, 60_000);
});

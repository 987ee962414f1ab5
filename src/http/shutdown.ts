import type { IncomingMessage, ServerResponse } from "node:http";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { FastifyInstance } from "fastify";

/** Once closing, how long a request still receiving its body may take to send the rest. */
export const BODY_GRACE_MS = 2_000;
/** Once closing, how long the requests being handled may take before their connections are cut. */
export const HANDLER_GRACE_MS = 10_000;
/** Once closing, how long at most the listener still accepts the connections the kernel has queued. */
const ACCEPT_LIMIT_MS = 1_000;

/**
 * How the app lets go of its connections when it closes (docs/ARCHITECTURE.md, "Shutting down"): requests
 * already sent are read and answered (each answer says `Connection: close`), not reset; a request whose
 * body is still arriving after BODY_GRACE_MS has its connection cut, so one slow sender cannot hold the
 * shutdown for the request timeout; connections still busy after HANDLER_GRACE_MS are cut, so close()
 * always ends and the runtime after it is closed.
 */
export function letConnectionsGoOnClose(app: FastifyInstance): void {
  let accepted = 0;
  app.server.on("connection", () => accepted++);
  const inFlight = new Set<IncomingMessage>();
  app.server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    inFlight.add(request);
    response.once("close", () => inFlight.delete(request));
  });
  let closing = false;
  const timers: NodeJS.Timeout[] = [];
  app.addHook("preClose", async () => {
    closing = true;
    timers.push(
      setTimeout(() => {
        for (const request of inFlight) if (!request.complete) request.socket.destroy();
      }, BODY_GRACE_MS).unref(),
      setTimeout(() => app.server.closeAllConnections(), HANDLER_GRACE_MS).unref(),
    );
    // Closing the listener resets the connections the kernel still queues for it (clients that sent their
    // request before the signal), and ending idle connections resets those whose request has arrived but
    // not been read. Each turn of the event loop polls, accepting what is queued (Node took one connection
    // a turn here) and reading what has arrived; so the listener stays open until two turns in a row
    // accept nothing, for ACCEPT_LIMIT_MS at most.
    const until = Date.now() + ACCEPT_LIMIT_MS;
    for (let quietTurns = 0; quietTurns < 2 && Date.now() < until;) {
      const before = accepted;
      await nextTurn();
      quietTurns = accepted === before ? quietTurns + 1 : 0;
    }
  });
  // close() ends the connections that are idle when it is called; one whose answer was still being made
  // or sent then stays open after it, for Node's keep-alive timeout (72 s), so each is ended as its
  // answer finishes.
  app.addHook("onResponse", (_request, _reply, done) => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
    done();
  });
  app.addHook("onClose", (_instance, done) => {
    for (const timer of timers) clearTimeout(timer);
    done();
  });
}

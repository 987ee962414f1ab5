import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/** How often the requests still arriving are looked at (Node's own check of headers runs as often). */
const CHECK_EVERY_MS = 1_000;

/** The uploads a route has marked, with the least rate each must keep (bytes a second). */
const uploadRates = new WeakMap<IncomingMessage, number>();

/**
 * Marks a request as an upload: instead of arriving whole within the request timeout, its body must keep
 * arriving at `minBytesPerSecond` or more, measured over each window of the request timeout's length.
 * Call it from the route's onRequest hook, before the body is read.
 */
export function allowSlowUpload(request: IncomingMessage, minBytesPerSecond: number): void {
  uploadRates.set(request, minBytesPerSecond);
}

interface Arriving {
  response: ServerResponse;
  socket: Socket;
  /** When the request's headers were read, or its current window began. */
  since: number;
  /** The socket's bytes read at `since`. */
  bytesAtStart: number;
}

/**
 * RECAP_REQUEST_TIMEOUT_SECONDS for bodies, kept by the app rather than by Node (whose one timeout covers
 * every route), so that an upload of gigabytes is held to a rate rather than a time: a request whose body
 * has not all arrived `seconds` after its headers is cut; an upload (allowSlowUpload) is cut only when a
 * window of `seconds` passes in which less than its rate arrived. `cut` answers 408 and closes the
 * connection; an answer already started (a refusal while the body still arrives) just has its connection
 * closed. Node still times the headers (headersTimeout).
 */
export function limitRequestTime(
  app: FastifyInstance,
  options: { seconds: number; cut: (socket: Socket, reason: "request" | "upload") => void },
): void {
  const windowMs = options.seconds * 1000;
  const arriving = new Map<IncomingMessage, Arriving>();
  app.server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    arriving.set(request, {
      response,
      socket: request.socket,
      since: Date.now(),
      bytesAtStart: request.socket.bytesRead,
    });
    response.once("close", () => arriving.delete(request));
  });
  const check = () => {
    const now = Date.now();
    for (const [request, state] of arriving) {
      if (request.complete || state.socket.destroyed) {
        arriving.delete(request);
        continue;
      }
      if (now - state.since < windowMs) continue;
      const rate = uploadRates.get(request);
      const bytes = state.socket.bytesRead - state.bytesAtStart;
      if (rate !== undefined && bytes >= rate * options.seconds) {
        state.since = now;
        state.bytesAtStart = state.socket.bytesRead;
        continue;
      }
      arriving.delete(request);
      if (state.response.headersSent) state.socket.destroy();
      else options.cut(state.socket, rate === undefined ? "request" : "upload");
    }
  };
  const timer = setInterval(check, CHECK_EVERY_MS).unref();
  app.addHook("onClose", (_instance, done) => {
    clearInterval(timer);
    done();
  });
}

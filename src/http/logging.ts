import { LogController, type FastifyReply, type FastifyRequest } from "fastify";
import { pino, type DestinationStream } from "pino";

/**
 * Standard output, written without waiting: each write goes out as the previous one finishes, carrying every
 * line logged meanwhile, so under load one write carries many lines and at rest a line goes out at once.
 * pino's default, one synchronous write per line, cost 6.0 µs of CPU a request line against 3.4 µs
 * (`npm run bench`, bench/request-log.bench.ts): a few per cent of a members request. pino writes out what
 * is left as the process exits; a SIGKILL loses the lines still waiting for the write under way to finish.
 */
export function logDestination(dest: number | string = 1): DestinationStream {
  return pino.destination({ dest, sync: false });
}

/**
 * One log line per request, written when it completes: Fastify's default two lines cost about a third
 * of throughput (measured on this service when it was built). The request id is on the line through the request's child logger.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: request.url.split("?")[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request");
  }
}

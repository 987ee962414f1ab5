import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

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

import type { FastifyReply } from "fastify";

/** The console's routes are pages, not API: they stay out of the OpenAPI document. */
export const hidden = { hide: true } as const;

/** Answers a rendered console page. */
export function sendPage(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply.status(status).type("text/html; charset=utf-8").send(html);
}

import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifySchemaValidationError } from "fastify/types/schema.js";
import { DomainError, type ErrorCode } from "../errors.ts";

/** The one table from domain error codes to HTTP statuses. */
const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  gone: 410,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  too_many_requests: 429,
  unavailable: 503,
};

/** The status a domain error answers with, wherever it is answered (JSON here, a page's own formats there). */
export function statusOf(error: DomainError): number {
  return STATUS_BY_CODE[error.code];
}

/** The name users know for a value inside a request part: messages[0].payload, query.limit, params.jobId. */
export function fieldName(part: string, path: readonly (string | number)[]): string {
  let name = part === "body" ? "" : part === "querystring" ? "query" : part;
  for (const key of path) {
    name += typeof key === "number" || /^\d+$/.test(key) ? `[${key}]` : name === "" ? key : `.${key}`;
  }
  return name || "body";
}

/** Turns an Ajv instance path (/messages/0/payload) into the field name users know (messages[0].payload). */
function fieldAt(dataVar: string, instancePath: string, property?: string): string {
  const parts = instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (property !== undefined) parts.push(property);
  return fieldName(dataVar, parts);
}

/** Keywords whose own wording (a regular expression, a format name, "equal to constant") means little to a caller. */
const DESCRIBED_KEYWORDS = new Set(["pattern", "format", "const"]);

interface SchemaNode {
  description?: unknown;
  enum?: unknown;
  properties?: Record<string, unknown>;
}

/** The failing schema, present when the validator runs with `verbose`. */
function failingSchema(error: FastifySchemaValidationError): SchemaNode | undefined {
  const schema = (error as { parentSchema?: unknown }).parentSchema;
  return typeof schema === "object" && schema !== null ? schema : undefined;
}

function propertySchema(error: FastifySchemaValidationError, property: string): SchemaNode | undefined {
  const schema = failingSchema(error)?.properties?.[property];
  return typeof schema === "object" && schema !== null ? schema : undefined;
}

function descriptionOf(schema: SchemaNode | undefined): string | undefined {
  return typeof schema?.description === "string" && schema.description !== ""
    ? schema.description
    : undefined;
}

const oneOf = (values: unknown[]) => `one of: ${values.map(String).join(", ")}`;

/**
 * Fastify's schemaErrorFormatter: one sentence naming the field and the rule it broke. A pattern, format or
 * constant that fails on a schema with a `description` is worded "<field> must be <description>", so a
 * schema states its rule once for the validator, the OpenAPI document and the message alike; a missing or
 * wrong enum value lists the allowed ones.
 */
export function formatSchemaError(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const error = errors[0];
  if (!error) return new Error(`${dataVar} is invalid`);
  const params = error.params;
  if (error.keyword === "required") {
    const missing = String(params.missingProperty);
    const name = fieldAt(dataVar, error.instancePath, missing);
    const allowed = propertySchema(error, missing)?.enum;
    return new Error(
      Array.isArray(allowed) ? `${name} is required: ${oneOf(allowed)}` : `${name} is required`,
    );
  }
  const field = fieldAt(dataVar, error.instancePath);
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    return new Error(`${field} must be ${oneOf(params.allowedValues)}`);
  }
  if (error.keyword === "additionalProperties") {
    return new Error(`${field} has an unknown property "${String(params.additionalProperty)}"`);
  }
  const description = descriptionOf(failingSchema(error));
  if (DESCRIBED_KEYWORDS.has(error.keyword) && description !== undefined) {
    return new Error(`${field} must be ${description}`);
  }
  if (error.keyword === "const") {
    return new Error(`${field} must be ${JSON.stringify(params.allowedValue)}`);
  }
  if (error.keyword === "anyOf" || error.keyword === "oneOf") {
    return new Error(`${field} does not match any allowed shape`);
  }
  return new Error(`${field} ${error.message ?? "is invalid"}`);
}

function send(reply: FastifyReply, status: number, message: string): FastifyReply {
  if (status === 401) reply.header("www-authenticate", "Bearer");
  return reply.status(status).type("application/json; charset=utf-8").send({ message });
}

/**
 * Reads and discards what is left of a refused body, up to `limit` bytes, before the answer is sent: a
 * client that writes its body whole before reading (as simple clients do) would otherwise have the
 * connection reset under it, the body still arriving, and never read the answer. Resolves at the body's
 * end, past `limit` (at once when the declared length is past it), or when the connection ends; the request
 * timeout bounds the wait. Nothing is kept, so a refusal costs no memory.
 */
function discardBody(raw: IncomingMessage, limit: number): Promise<void> {
  if (raw.complete || raw.destroyed || Number(raw.headers["content-length"]) > limit)
    return Promise.resolve();
  return new Promise((resolve) => {
    let discarded = 0;
    const finish = () => {
      raw.off("data", onData).off("end", finish).off("close", finish).off("error", finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limit) finish();
    };
    raw.on("data", onData).once("end", finish).once("close", finish).once("error", finish);
    raw.resume();
  });
}

/**
 * Installs the error and not-found handlers: every failure answers `{"message"}` with the right status.
 * A body over the limit is answered 413 once up to `discardBytes` more of it has been read and dropped.
 */
export function registerErrorHandling(app: FastifyInstance, options: { discardBytes: number }): void {
  app.setErrorHandler(async (error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError) return send(reply, statusOf(error), error.message);
    if (error.validation) return send(reply, 400, error.message);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
        return send(
          reply,
          415,
          `Content-Type ${request.headers["content-type"] ?? "(none)"} is not supported here`,
        );
      }
      if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
        await discardBody(request.raw, options.discardBytes);
        return send(reply, 413, "Request body is larger than the server accepts");
      }
      return send(reply, status, error.message);
    }
    request.log.error({ err: error }, "request failed");
    return send(reply, 500, "Internal Server Error");
  });
  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, `Route ${request.method} ${request.url.split("?")[0]} not found`),
  );
}

/**
Fastify's frameworkErrors: the router's own refusals, answered before any hook or handler runs. A path
 * that is not validly percent-encoded is a 400, a path segment longer than the router accepts a 414.
 */
export function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === "FST_ERR_BAD_URL") {
    void send(reply, 400, "The request path is not validly percent-encoded");
  } else if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    void send(reply, 414, "A segment of the request path is longer than the server accepts");
  } else {
    request.log.error({ err: error }, "request failed");
    void send(reply, 500, "Internal Server Error");
  }
}

/**
 * Fastify's clientErrorHandler, for what Node refuses before a route sees it: a request not received
 * within the time allowed (408), headers too large (431) or malformed HTTP (400). Answers `{"message"}`
 * and closes the connection. Nothing reliable is known of such a request's path, so the answer carries
 * `headers` (the page headers, docs/PAGES.md "Security headers") whatever it was for.
 */
export function answerClientError(requestTimeoutSeconds: number, headers: Record<string, string>) {
  // Node's parser says what it refused ("Invalid header value char"), never echoing the request.
  const reasonOf = (error: Error): string => {
    const reason = (error as { reason?: unknown }).reason;
    return typeof reason === "string" && reason !== "" ? `: ${reason}` : "";
  };
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const [status, message] =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, requestTimeoutMessage(requestTimeoutSeconds)]
        : error.code === "HPE_HEADER_OVERFLOW"
          ? [431, "Request headers are larger than the server accepts"]
          : [400, `The request is not valid HTTP/1.1${reasonOf(error)}`];
    answerOnSocket(socket, status, message, headers, error);
  };
}

export const requestTimeoutMessage = (seconds: number) => `The whole request must arrive within ${seconds} s`;

/**
 * Writes `{"message"}` at `status` straight to the socket, with `Connection: close` and `headers`, and
 * destroys it: for a request Fastify is not answering (one Node refused, or one cut while its body arrives).
 */
export function answerOnSocket(
  socket: Socket,
  status: number,
  message: string,
  headers: Record<string, string>,
  error?: Error,
): void {
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${extra.join("")}\r\n${body}`,
    );
  }
  socket.destroy(error);
}

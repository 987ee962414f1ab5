import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
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
};

/** Turns an Ajv instance path (/messages/0/payload) into the field name users know (messages[0].payload). */
function fieldName(dataVar: string, instancePath: string, property?: string): string {
  const parts = instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (property !== undefined) parts.push(property);
  let name = dataVar === "body" ? "" : dataVar === "querystring" ? "query" : dataVar;
  for (const key of parts) name += /^\d+$/.test(key) ? `[${key}]` : name === "" ? key : `.${key}`;
  return name || "body";
}

/** Fastify's schemaErrorFormatter: one sentence naming the field and the rule it broke. */
export function formatSchemaError(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const error = errors[0];
  if (!error) return new Error(`${dataVar} is invalid`);
  const params = error.params;
  if (error.keyword === "required") {
    return new Error(`${fieldName(dataVar, error.instancePath, String(params.missingProperty))} is required`);
  }
  const field = fieldName(dataVar, error.instancePath);
  if (error.keyword === "enum" && Array.isArray(params.allowedValues)) {
    return new Error(`${field} must be one of: ${params.allowedValues.map(String).join(", ")}`);
  }
  if (error.keyword === "additionalProperties") {
    return new Error(`${field} has an unknown property "${String(params.additionalProperty)}"`);
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

/** Installs the error and not-found handlers: every failure answers `{"message"}` with the right status. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError) return send(reply, STATUS_BY_CODE[error.code], error.message);
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

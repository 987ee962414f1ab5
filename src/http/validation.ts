import { Ajv, type Options } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";
import { isHttpUrl } from "../urls.ts";

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function createAjv(options: Options): Ajv {
  // verbose: errors carry the failing schema, whose description http/errors.ts uses as the rule's wording.
  const ajv = new Ajv({
    allErrors: false,
    useDefaults: true,
    removeAdditional: false,
    verbose: true,
    ...options,
  });
  // `http-url`: see isHttpUrl; Ajv's own `uri` refuses names with spaces that browsers accept.
  return addFormats(ajv).addFormat("http-url", isHttpUrl);
}

/**
 * Bodies are validated exactly as sent (a number is never quietly accepted as a string), while path and
 * query values, which are always text, are coerced to the types their schemas declare.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const strict = createAjv({ coerceTypes: false });
  const coercing = createAjv({ coerceTypes: "array" });
  return ({ schema, httpPart }) => (httpPart === "body" ? strict : coercing).compile(schema as object);
}

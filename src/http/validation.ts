import { Ajv, type Options } from "ajv";
import addFormatsModule from "ajv-formats";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * `http-url`: an absolute http(s) URL as browsers read it (WHATWG URL), so a media file named with a space
 * or an accent is accepted; whoever stores it keeps `new URL(value).href`, the percent-encoded form.
 */
function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

function createAjv(options: Options): Ajv {
  // verbose: errors carry the failing schema, whose description http/errors.ts uses as the rule's wording.
  const ajv = new Ajv({
    allErrors: false,
    useDefaults: true,
    removeAdditional: false,
    verbose: true,
    ...options,
  });
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

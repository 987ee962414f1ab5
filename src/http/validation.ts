import { Ajv, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats.js";
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
  return addFormats(ajv).addFormat("http-url", isHttpUrl).addFormat("date-time", isDateTime);
}

// ajv-formats types every format as a union; its date-time is an object with `validate`.
const rfc3339DateTime = fullFormats["date-time"] as { validate: (text: string) => boolean };

/**
 * RFC 3339 date-times that are also instants JavaScript can hold: ajv-formats accepts a leap second
 * (23:59:60), which no Date can represent, so it is refused rather than silently moved.
 */
function isDateTime(text: string): boolean {
  return rfc3339DateTime.validate(text) && Number.isFinite(Date.parse(text));
}

/**
 * Ajv coerces "Infinity" and "1e999" to numbers that then skip `minimum`/`maximum` (ajv#2212), so a
 * coerced path or query value that is not a finite number is refused here.
 */
function refusingNonFinite(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    const values = typeof data === "object" && data !== null ? Object.entries(data) : [];
    const nonFinite = values.find(([, value]) =>
      [value].flat().some((item) => typeof item === "number" && !Number.isFinite(item)),
    );
    checked.errors = nonFinite ? [nonFiniteError(nonFinite[0])] : null;
    return nonFinite === undefined;
  }) as ValidateFunction;
  return checked;
}

const nonFiniteError = (property: string): ErrorObject => ({
  keyword: "type",
  instancePath: `/${property.replace(/~/g, "~0").replace(/\//g, "~1")}`,
  schemaPath: "#/properties",
  params: {},
  message: "must be a finite number",
});

/**
 * Bodies are validated exactly as sent (a number is never quietly accepted as a string), while path and
 * query values, which are always text, are coerced to the types their schemas declare.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const strict = createAjv({ coerceTypes: false });
  const coercing = createAjv({ coerceTypes: "array" });
  return ({ schema, httpPart }) =>
    httpPart === "body"
      ? strict.compile(schema as object)
      : refusingNonFinite(coercing.compile(schema as object));
}

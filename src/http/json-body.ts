import secureJson from "secure-json-parse";

const badBody = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

/**
 * Parses a JSON body; an empty one is no body (Symbl's clients send a JSON type on bodiless requests).
 * As Fastify's own parser does, a `__proto__` or `constructor.prototype` key, which could poison objects
 * later merged from the body, is refused rather than kept. Throws an error with statusCode 400.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badBody("body is not valid JSON");
  }
  if (typeof parsed === "object" && parsed !== null) {
    try {
      secureJson.scan(parsed, { protoAction: "error", constructorAction: "error" });
    } catch {
      throw badBody("body must not contain a __proto__ or constructor.prototype property");
    }
  }
  return parsed;
}

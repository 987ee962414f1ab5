/** Domain errors: services throw these; src/http/errors.ts alone maps their codes to HTTP statuses. */
export type ErrorCode =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "gone"
  | "conflict"
  | "unsupported_media_type"
  | "payload_too_large"
  /** Well-formed, but what it names cannot be used as asked (a voice with too little speech). */
  | "unprocessable"
  /** A limit on what runs at once was reached (live connections): try again later. */
  | "too_many_requests"
  /** The server lacks what the request needs (no speech engine set up): the operator must act, not the caller. */
  | "unavailable";

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const invalid = (message: string) => new DomainError("invalid", message);
export const notFound = (what: string) => new DomainError("not_found", `${what} not found`);
export const unauthenticated = (message: string) => new DomainError("unauthenticated", message);
export const unprocessable = (message: string) => new DomainError("unprocessable", message);
export const forbidden = (message: string) => new DomainError("forbidden", message);

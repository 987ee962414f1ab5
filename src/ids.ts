import { randomInt, randomUUID } from "node:crypto";

/** A 16-digit numeric string, the id shape Symbl used for conversations, messages and insights. */
export function numericId(): string {
  return String(randomInt(1, 10)) + String(randomInt(0, 1e15)).padStart(15, "0");
}

export const uuid = (): string => randomUUID();

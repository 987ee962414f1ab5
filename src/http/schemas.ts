import { Type } from "typebox";

/** Shared response shapes. */
export const ErrorBody = Type.Object({ message: Type.String() }, { $id: "Error" });

/** A success that has nothing to return but a sentence saying so. */
export const MessageBody = Type.Object({ message: Type.String() });

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, Type.Ref("Error")]));

export const NumericId = Type.String({ pattern: "^[0-9]{1,32}$", description: "Numeric id" });
export const Uuid = Type.String({ pattern: "^[0-9a-fA-F-]{36}$", description: "UUID" });
export const DateTime = Type.String({
  format: "date-time",
  description: "an ISO-8601 date-time such as 2026-11-02T10:00:00Z (seconds 00 to 59)",
});

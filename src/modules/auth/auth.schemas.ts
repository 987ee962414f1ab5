import { Type } from "typebox";

export const TokenRequest = Type.Object(
  {
    type: Type.Literal("application", { description: '"application"' }),
    appId: Type.String({ minLength: 1, maxLength: 256 }),
    appSecret: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: true },
);

export const TokenResponse = Type.Object({
  accessToken: Type.String({ description: "A JWT with an exp claim" }),
  expiresIn: Type.Integer({ description: "Seconds until the token expires" }),
});

import type { FastifyReply, FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { Server } from "../../http/types.ts";
import type { PageAssets } from "./page-assets.ts";
import type { WebFonts } from "./web-fonts.ts";

export interface AssetRouteDeps {
  pageAssets: PageAssets;
  webFonts: WebFonts;
}

interface Validated {
  body: Buffer;
  contentType: string;
  /** A strong validator: the content's hash. */
  etag: string;
  modified: Date;
  /** The URL names the content (its hash is in it), so it never changes. */
  immutable: boolean;
}

/** True when the client's copy is current: If-None-Match first, If-Modified-Since only without it (RFC 9110). */
function isFresh(request: FastifyRequest, etag: string, modified: Date): boolean {
  const match = request.headers["if-none-match"];
  if (match !== undefined) {
    return match
      .split(",")
      .map((tag) => tag.trim().replace(/^W\//, ""))
      .some((tag) => tag === "*" || tag === etag);
  }
  const since = Date.parse(request.headers["if-modified-since"] ?? "");
  return Number.isFinite(since) && Math.floor(modified.getTime() / 1000) * 1000 <= since;
}

/** Answers a file with its validators, or 304 without a body when the client's copy is current. */
function sendValidated(request: FastifyRequest, reply: FastifyReply, file: Validated): FastifyReply {
  reply
    .header("etag", file.etag)
    .header("last-modified", file.modified.toUTCString())
    .header("x-content-type-options", "nosniff")
    .header("cache-control", file.immutable ? "public, max-age=31536000, immutable" : "public, max-age=300");
  if (isFresh(request, file.etag, file.modified)) return reply.status(304).send();
  return reply.header("content-type", file.contentType).send(file.body);
}

const fileName = { schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 64 }) }) } };

/** The page's script and stylesheet, and the web fonts served from this origin (docs/PAGES.md, "Fonts"). */
export function assetRoutes(app: Server, deps: AssetRouteDeps): void {
  const { pageAssets, webFonts } = deps;

  app.get("/assets/:name", fileName, async (request, reply) => {
    const asset = pageAssets.get(request.params.name);
    if (!asset) return reply.status(404).send({ message: "Asset not found" });
    return sendValidated(request, reply, {
      body: asset.body,
      contentType: asset.contentType,
      etag: `"${asset.version}"`,
      modified: asset.modified,
      immutable: (request.query as Record<string, unknown>).v === asset.version,
    });
  });

  app.get("/assets/fonts/:name", fileName, async (request, reply) => {
    const file = await webFonts.file(request.params.name);
    if (!file) return reply.status(404).send({ message: "Asset not found" });
    return sendValidated(request, reply, {
      ...file,
      etag: `"${request.params.name.replace(/\..*$/, "")}"`,
      immutable: true,
    });
  });
}

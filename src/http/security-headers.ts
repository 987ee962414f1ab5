import { randomBytes } from "node:crypto";
import type { FastifyReply } from "fastify";

/** A fresh nonce for the one inline <style> element a page may carry. */
export function styleNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The page CSP: scripts only from this origin (no inline scripts at all), styles and fonts from this
 * origin (web fonts are fetched by the server and served from here) and the nonce'd theme, media and images from any http(s) origin (they are the link's media,
 * logo and avatars), and framing only by the app's own origins.
 */
function pageContentSecurityPolicy(options: { styleNonce?: string; frameAncestors: string[] }): string {
  const ancestors = options.frameAncestors.length > 0 ? options.frameAncestors.join(" ") : "'none'";
  const styles = ["'self'"];
  if (options.styleNonce) styles.push(`'nonce-${options.styleNonce}'`);
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styles.join(" ")}`,
    "font-src 'self'",
    "img-src 'self' https: http: data:",
    "media-src 'self' https: http:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

/** Every header a page response carries, HTML, JSON or Markdown alike (docs/PAGES.md, "Security headers"). */
function pageSecurityHeaders(options: {
  styleNonce?: string;
  frameAncestors: string[];
}): Record<string, string> {
  return {
    "content-security-policy": pageContentSecurityPolicy(options),
    "referrer-policy": "no-referrer",
    "x-robots-tag": "noindex, nofollow",
    "x-content-type-options": "nosniff",
    "cache-control": "private, no-store",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
  };
}

export function setPageSecurityHeaders(
  reply: FastifyReply,
  options: { styleNonce?: string; frameAncestors: string[] },
): void {
  reply.headers(pageSecurityHeaders(options));
}

/** The headers of an answer that is not (yet) a link's page: nothing may frame it. */
export const LINK_ERROR_HEADERS = pageSecurityHeaders({ frameAncestors: [] });

/**
 * True for a request path under /s/ (summary links and their edits), every answer to which carries the
 * page headers, whatever answers it: a route, the not-found handler, the router's own errors.
 */
export function isUnderLinks(url: string): boolean {
  return /^\/s(?:[/?#]|$)/.test(url);
}

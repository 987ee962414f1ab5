import { randomBytes } from "node:crypto";
import type { FastifyReply } from "fastify";

/** A fresh nonce for the one inline <style> element a page may carry. */
export function styleNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The page CSP: scripts only from this origin (no inline scripts at all), styles from this origin, the
 * nonce'd theme and Google Fonts, media and images from any http(s) origin (they are the link's media,
 * logo and avatars), and framing only by the app's own origins.
 */
export function pageContentSecurityPolicy(options: {
  styleNonce?: string;
  frameAncestors: string[];
}): string {
  const ancestors = options.frameAncestors.length > 0 ? options.frameAncestors.join(" ") : "'none'";
  const styles = ["'self'", "https://fonts.googleapis.com"];
  if (options.styleNonce) styles.push(`'nonce-${options.styleNonce}'`);
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styles.join(" ")}`,
    "font-src https://fonts.gstatic.com",
    "img-src 'self' https: http: data:",
    "media-src https: http:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

/** Sets every header SPEC §8 asks of a page response (HTML, JSON or Markdown alike). */
export function setPageSecurityHeaders(
  reply: FastifyReply,
  options: { styleNonce?: string; frameAncestors: string[] },
): void {
  reply.header("content-security-policy", pageContentSecurityPolicy(options));
  reply.header("referrer-policy", "no-referrer");
  reply.header("x-robots-tag", "noindex, nofollow");
  reply.header("x-content-type-options", "nosniff");
  reply.header("cache-control", "private, no-store");
  reply.header("cross-origin-opener-policy", "same-origin");
  reply.header("permissions-policy", "camera=(), microphone=(), geolocation=()");
}

/**
 * An absolute http(s) URL as browsers read it (WHATWG URL), so a media file named with a space or an
 * accent is accepted; whoever stores it keeps `new URL(value).href`, the percent-encoded form.
 */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * A URL's host as one spelling: lower case (the URL parser already writes IPv4 numbers such as `127.1`
 * or `0x7f000001` as dotted quads), without IPv6 brackets or a trailing dot.
 */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

/** Characters that would make the URL parser read a Host value as more than a host (user info, a path). */
const NOT_IN_A_HOST = /[\s/\\@?#]/;

/** Node hands header bytes over as latin1: a UTF-8 Host header is read back as the text its client sent. */
function asSentText(value: string): string {
  if (!/[\x80-\xff]/.test(value) || /[\u0100-\uffff]/.test(value)) return value;
  const decoded = Buffer.from(value, "latin1").toString("utf8");
  return decoded.includes("\ufffd") ? value : decoded;
}

/**
 * The one spelling of a host, so that every spelling of the same host compares equal: lower case, an
 * internationalised name in punycode and percent-escapes decoded (WHATWG URL host parsing), no trailing
 * dot, no port. `value` is a Host header or a setting. Null when the value is not a host at all.
 */
export function canonicalHost(value: string): string | null {
  const text = asSentText(value);
  if (text === "" || NOT_IN_A_HOST.test(text)) return null;
  try {
    return new URL(`http://${text}`).hostname.replace(/\.+$/, "") || null;
  } catch {
    return null;
  }
}

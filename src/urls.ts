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

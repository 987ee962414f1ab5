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

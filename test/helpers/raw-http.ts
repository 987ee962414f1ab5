import { request as httpRequest } from "node:http";
import { connect } from "node:net";

/** Sends `text` as is on a real socket (no client tidies it) and resolves with the whole answer once the server closes. */
export function sendRaw(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("utf8")));
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

/** `sendRaw`, with the answer read into its status, headers (lower-case names) and body. */
export async function rawRequest(
  url: string,
  text: string,
): Promise<{ status: number; headers: Map<string, string>; body: string }> {
  const [head = "", body = ""] = (await sendRaw(url, text)).split("\r\n\r\n", 2);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = new Map(
    lines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

/** GET with an explicit Host header (fetch() does not let a caller choose it). */
export function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** GET with the given headers, the body's bytes as sent (not decompressed, unlike fetch()). */
export function getBytes(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

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

/**
 * Sends `head`, then `body` in `chunks` pieces, one every `everyMs` (all of it, or only `sendChunks` of
 * them); resolves with the answer once it is whole (its declared length arrived) or the server closes.
 */
export function sendSlowly(
  url: string,
  head: string,
  body: Buffer,
  pace: { chunks: number; everyMs: number; sendChunks?: number },
): Promise<string> {
  const { hostname, port } = new URL(url);
  const size = Math.ceil(body.length / pace.chunks);
  return new Promise((resolve) => {
    let answer = "";
    let sent = 0;
    let drip: NodeJS.Timeout | undefined;
    const socket = connect(Number(port), hostname, () => {
      socket.write(head);
      drip = setInterval(() => {
        if (sent >= (pace.sendChunks ?? pace.chunks) || !socket.writable) return clearInterval(drip);
        socket.write(body.subarray(sent * size, (sent + 1) * size));
        sent += 1;
      }, pace.everyMs);
    });
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("utf8");
      if (isWhole(answer)) socket.destroy();
    });
    // The server may close while bytes are still on their way: a reset can follow its answer.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(drip);
      resolve(answer);
    });
  });
}

/** Whether `answer` holds a whole response (its headers, and as much body as they declare). */
function isWhole(answer: string): boolean {
  const end = answer.indexOf("\r\n\r\n");
  const length = /\r\ncontent-length: (\d+)/i.exec(answer)?.[1];
  return end !== -1 && length !== undefined && Buffer.byteLength(answer.slice(end + 4)) >= Number(length);
}

/** Sends only `head` and resolves with the first bytes answered, the body never sent. */
export function answerToHeaders(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let answer = "";
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("utf8");
      if (isWhole(answer)) socket.destroy();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReleaseServer {
  /** The base URL to pull from (RECAP_MODELS_MIRROR). */
  url: string;
  /** The files served, by path (`/asr-models/x.tar.bz2`); tests change them between requests. */
  files: Map<string, Uint8Array>;
  /** Every path requested, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A local HTTP server in the layout of k2-fsa/sherpa-onnx's release downloads, on 127.0.0.1. */
export async function startReleaseServer(): Promise<ReleaseServer> {
  const files = new Map<string, Uint8Array>();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    requests.push(path);
    const body = files.get(path);
    if (body === undefined) {
      response.writeHead(404).end("Not Found");
      return;
    }
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    files,
    requests,
    close: () =>
      new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

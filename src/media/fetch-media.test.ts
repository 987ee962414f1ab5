import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookTargets } from "../modules/jobs/webhook-targets.ts";
import { fetchMedia } from "./fetch-media.ts";

// Garbage collection on demand, in this process: what a loaded server does on its own, now and then.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("a media URL that sends a little and then nothing", () => {
  let server: Server;
  const dir = mkdtempSync(join(tmpdir(), "recap-deadline-"));
  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "audio/mpeg" });
      response.write(Buffer.alloc(1024));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("is given up at RECAP_MEDIA_FETCH_TIMEOUT_SECONDS, not at the idle limit, while garbage is collected", async () => {
    const { port } = server.address() as AddressInfo;
    const collecting = setInterval(gc, 10);
    const fetched = fetchMedia(`http://127.0.0.1:${port}/slow.mp3`, join(dir, "slow"), {
      guard: new WebhookTargets(new Set(["127.0.0.1"]), {
        field: "url",
        allowVariable: "RECAP_MEDIA_ALLOW_HOSTS",
      }),
      maxBytes: 1_000_000,
      timeoutMs: 500,
      signal: new AbortController().signal,
    }).finally(() => clearInterval(collecting));
    await expect(fetched).rejects.toThrow("fetching the url took longer than 1 seconds");
  });
});

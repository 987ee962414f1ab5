import { createWriteStream } from "node:fs";
import http from "node:http";
import https from "node:https";
import { pipeline } from "node:stream/promises";
import { withDeadline } from "../deadline.ts";
import type { WebhookTargets } from "../modules/jobs/webhook-targets.ts";
import { MediaProblem } from "./problems.ts";

export interface FetchLimits {
  /** The guard every address connected to passes (RECAP_MEDIA_ALLOW_HOSTS). */
  guard: Pick<WebhookTargets, "refusal" | "lookup">;
  maxBytes: number;
  /** The whole fetch, redirects included. */
  timeoutMs: number;
  signal: AbortSignal;
  onBytes?: (received: number, expected: number | null) => void;
}

const MAX_REDIRECTS = 5;
/** A server that sends nothing for this long is given up on, whatever the overall limit. */
const IDLE_MS = 30_000;

/**
 * Fetches a media URL into `file`: http(s) only, no credentials, every hop's address checked (internal ones
 * refused unless allowed), at most five redirects each checked again, at most `maxBytes`, within
 * `timeoutMs`. Throws MediaProblem saying why for anything the URL's owner can fix.
 */
export async function fetchMedia(
  source: string,
  file: string,
  limits: FetchLimits,
): Promise<{ bytes: number; contentType: string | null }> {
  const deadline = withDeadline(limits.signal, limits.timeoutMs);
  try {
    return await fetchWithin(source, file, limits, deadline);
  } finally {
    deadline.clear();
  }
}

async function fetchWithin(
  source: string,
  file: string,
  limits: FetchLimits,
  deadline: ReturnType<typeof withDeadline>,
): Promise<{ bytes: number; contentType: string | null }> {
  const { signal } = deadline;
  let url = new URL(source);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new MediaProblem(`the url redirected to ${url.protocol} (only http and https are fetched)`);
    }
    if (url.username !== "" || url.password !== "") {
      throw new MediaProblem("the url (or a redirect) carries user credentials, which are never sent");
    }
    const refusal = limits.guard.refusal(url);
    if (refusal !== null) throw new MediaProblem(`the url is refused: ${refusal} (RECAP_MEDIA_ALLOW_HOSTS)`);
    let response: http.IncomingMessage;
    try {
      response = await get(url, limits.guard.lookup, signal);
    } catch (error) {
      throw fetchFailure(error, deadline, limits);
    }
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.resume();
      url = new URL(location, url);
      continue;
    }
    if (status !== 200) {
      response.resume();
      throw new MediaProblem(`fetching the url answered HTTP ${status}`);
    }
    const declared = Number(response.headers["content-length"]);
    const expected = Number.isFinite(declared) && declared >= 0 ? declared : null;
    if (expected !== null && expected > limits.maxBytes) {
      response.destroy();
      throw tooLarge(limits.maxBytes);
    }
    let received = 0;
    response.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) response.destroy(tooLarge(limits.maxBytes));
      else limits.onBytes?.(received, expected);
    });
    try {
      await pipeline(response, createWriteStream(file), { signal });
    } catch (error) {
      if (error instanceof MediaProblem) throw error;
      throw fetchFailure(error, deadline, limits);
    }
    const type = response.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
    return { bytes: received, contentType: type || null };
  }
  throw new MediaProblem(`the url redirected more than ${MAX_REDIRECTS} times`);
}

function get(url: URL, lookup: FetchLimits["guard"]["lookup"], signal: AbortSignal) {
  const client = url.protocol === "https:" ? https : http;
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    let answer: http.IncomingMessage | null = null;
    const request = client.get(
      url,
      { agent: false, lookup, signal, timeout: IDLE_MS, headers: { "user-agent": "Recap-Media/1" } },
      (response) => {
        answer = response;
        resolve(response);
      },
    );
    // Past the headers the answer's own stream carries the error (a socket destroyed under it reads as ECONNRESET).
    request.on("timeout", () => {
      const idle = new MediaProblem("the url's server stopped sending");
      answer?.destroy(idle);
      request.destroy(idle);
    });
    request.on("error", reject);
  });
}

function tooLarge(maxBytes: number): MediaProblem {
  return new MediaProblem(`the media is larger than the limit of ${maxBytes} bytes (RECAP_MEDIA_MAX_BYTES)`);
}

/** Why a fetch failed, for the job's error: the caller's own abort is passed on as it is. */
function fetchFailure(
  error: unknown,
  deadline: ReturnType<typeof withDeadline>,
  limits: FetchLimits,
): unknown {
  if (limits.signal.aborted || error instanceof MediaProblem) return error;
  if (deadline.timedOut()) {
    return new MediaProblem(
      `fetching the url took longer than ${Math.round(limits.timeoutMs / 1000)} seconds`,
    );
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ERECAPINTERNAL") {
    return new MediaProblem(`the url is refused: ${(error as Error).message} (RECAP_MEDIA_ALLOW_HOSTS)`);
  }
  return new MediaProblem(`the url could not be fetched (${code ?? (error as Error).message})`);
}

import { createServer } from "node:net";

/**
 * Waits for something outside the test process (a child process's output, a webhook delivery, a
 * restarted Redis): checks every `everyMs` and gives up, naming `what`, after `tries` checks. What the
 * test process owns (the job queue, time) is driven directly instead: `runJobs`, TestClock.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  { tries = 400, everyMs = 50 }: { tries?: number; everyMs?: number } = {},
): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Like `until`, for a probe that yields a value once there is one; undefined when it gave up. */
export async function untilValue<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  ms: number,
  everyMs = 5,
): Promise<T | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A TCP port free on 127.0.0.1 right now, for a child process that must be told its port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { withDeadline } from "./deadline.ts";

// Garbage collection on demand, in this process: what a loaded server does on its own, now and then.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collects garbage every few milliseconds while `work` runs. */
async function underCollection<T>(work: () => Promise<T>): Promise<T> {
  const collecting = setInterval(gc, 10);
  try {
    return await work();
  } finally {
    clearInterval(collecting);
  }
}

describe("withDeadline", () => {
  it("aborts at its deadline with a TimeoutError however often garbage is collected", async () => {
    const { signal, timedOut, clear } = withDeadline(new AbortController().signal, 200);
    const reason = await underCollection(
      () => new Promise((resolve) => signal.addEventListener("abort", () => resolve(signal.reason))),
    );
    clear();
    expect((reason as Error).name).toBe("TimeoutError");
    expect(timedOut()).toBe(true);
  });

  it("aborts when the signal it extends does, and is not timed out then", () => {
    const caller = new AbortController();
    const { signal, timedOut, clear } = withDeadline(caller.signal, 60_000);
    caller.abort();
    clear();
    expect(signal.aborted).toBe(true);
    expect(timedOut()).toBe(false);
  });
});

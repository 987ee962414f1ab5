import { describe, expect, it } from "vitest";
import { unlessAborted } from "./abortable.ts";

const never = new Promise<string>(() => undefined);

describe("unlessAborted", () => {
  it("passes the work's result or failure through", async () => {
    await expect(unlessAborted(Promise.resolve("done"), new AbortController().signal)).resolves.toBe("done");
    await expect(
      unlessAborted(Promise.reject(new Error("broke")), new AbortController().signal),
    ).rejects.toThrow("broke");
  });

  it("rejects at once when the signal aborts, or had aborted already, however long the work takes", async () => {
    const controller = new AbortController();
    const waiting = unlessAborted(never, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    await expect(unlessAborted(never, AbortSignal.abort())).rejects.toMatchObject({ name: "AbortError" });
    await expect(unlessAborted(never, AbortSignal.abort(new Error("stopping")))).rejects.toThrow("stopping");
  });
});

/**
 * `signal`, aborted also once `ms` have passed (with a TimeoutError, as AbortSignal.timeout aborts). Node's
 * AbortSignal.any holds its sources weakly, and AbortSignal.timeout's timer holds its signal weakly too, so
 * `AbortSignal.any([signal, AbortSignal.timeout(ms)])` never aborts once a garbage collection has taken the
 * timeout's signal: a stalled media URL ran on to its 30 s idle limit instead of its 3 s deadline under a loaded
 * test run. Here the timer holds the deadline itself; `clear` it when the work is done.
 */
export function withDeadline(
  signal: AbortSignal,
  ms: number,
): { signal: AbortSignal; timedOut: () => boolean; clear: () => void } {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException(`timed out after ${ms} ms`, "TimeoutError")),
    ms,
  );
  // The deadline never keeps a process alive on its own; the work it bounds does.
  timer.unref();
  return {
    signal: AbortSignal.any([signal, deadline.signal]),
    timedOut: () => deadline.signal.aborted,
    clear: () => clearTimeout(timer),
  };
}

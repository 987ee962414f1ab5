/**
 * Waits for native work that cannot be stopped (a decode, a diarization run) but answers an abort at once: the
 * promise rejects with the signal's reason (an AbortError) while the work finishes unseen.
 */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(
        signal.reason instanceof Error
          ? signal.reason
          : new DOMException("This operation was aborted", "AbortError"),
      );
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

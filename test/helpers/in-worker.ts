import { Worker } from "node:worker_threads";

/**
 * Calls `exportName` of the module at `moduleUrl` with `args` in a worker thread and resolves with its value
 * (rejects with its error's name and message). A call that has not answered within `ms` is stopped and
 * rejects, so a test detects a hang even in synchronous code, which no timer in its own thread could.
 */
export function callInWorker<T>(moduleUrl: URL, exportName: string, args: unknown[], ms: number): Promise<T> {
  const worker = new Worker(new URL("./worker-call.mjs", import.meta.url), {
    execArgv: ["--import", "tsx"],
    workerData: { moduleUrl: moduleUrl.href, exportName, args },
  });
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${exportName} did not answer within ${ms} ms`));
      void worker.terminate();
    }, ms);
    worker.once(
      "message",
      (answer: { ok: true; value: T } | { ok: false; name: string; message: string }) => {
        clearTimeout(timer);
        void worker.terminate();
        if (answer.ok) resolve(answer.value);
        else reject(Object.assign(new Error(answer.message), { name: answer.name }));
      },
    );
    worker.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

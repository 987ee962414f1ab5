// The thread side of callInWorker. It loads the module with require(), as piscina's worker does: tsx's
// require hook is in place as soon as the thread starts, its import() hooks only a little later.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { parentPort, workerData } from "node:worker_threads";

const require = createRequire(import.meta.url);
const { moduleUrl, exportName, args } = workerData;
try {
  const value = await require(fileURLToPath(moduleUrl))[exportName](...args);
  parentPort.postMessage({ ok: true, value });
} catch (error) {
  parentPort.postMessage({
    ok: false,
    name: error?.name ?? "Error",
    message: error?.message ?? String(error),
  });
}

/**
 * What Recap's request log line costs in CPU: the line OneLinePerRequest writes, logged through a request's
 * child logger 50 times per event-loop turn (a loaded server's pace), to a file through logDestination (Recap's)
 * and through pino's default synchronous destination, in interleaved rounds. CPU is the whole process's, so
 * the libuv thread that does the asynchronous writes is counted too; every line is on disk before a round ends.
 *
 * Usage: node --import tsx bench/request-log.bench.ts   (writes bench/results/request-log.txt)
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pino, type DestinationStream } from "pino";
import { logDestination } from "../src/http/logging.ts";
import { median } from "./timing.ts";

const ROOT = resolve(import.meta.dirname, "..");
const LINES = 100_000;
const PER_TURN = 50;
const ROUNDS = 6;
const LINE = {
  method: "GET",
  url: "/v1/conversations/1926eb8e-0b6f-4469-82d5-12b179c33831/members",
  status: 200,
  ms: 1.2,
};

type Destination = DestinationStream & { flush(callback?: (error?: Error) => void): void };

/** CPU µs per line for LINES lines through `destination`, every line written when it returns. */
async function cpuPerLine(destination: Destination): Promise<number> {
  const log = pino({ level: "info" }, destination).child({ reqId: "53b61ac3-6ec8-4da1-b20e-9b385ce5f76b" });
  const before = process.cpuUsage();
  for (let turn = 0; turn < LINES / PER_TURN; turn++) {
    for (let i = 0; i < PER_TURN; i++) log.info(LINE, "request");
    await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise<void>((resolve, reject) =>
    destination.flush((error) => (error ? reject(error) : resolve())),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / LINES;
}

const dir = mkdtempSync(join(tmpdir(), "recap-bench-log-"));
const ours: number[] = [];
const synchronous: number[] = [];
let bytes = 0;
try {
  const open = {
    ours: (file: string) => logDestination(file) as Destination,
    synchronous: (file: string) => pino.destination({ dest: file, sync: true }) as Destination,
  };
  await cpuPerLine(open.ours(join(dir, "warm-ours.log")));
  await cpuPerLine(open.synchronous(join(dir, "warm-sync.log")));
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of round % 2 === 0
      ? (["ours", "synchronous"] as const)
      : (["synchronous", "ours"] as const)) {
      const file = join(dir, `${which}-${round}.log`);
      (which === "ours" ? ours : synchronous).push(await cpuPerLine(open[which](file)));
      bytes = statSync(file).size;
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const per = ours.map((value, i) => value / (synchronous[i] ?? Number.NaN));
const report =
  [
    `Request log line bench (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"})`,
    `${LINES.toLocaleString("en")} request lines (${Math.round(bytes / LINES)} bytes each), ${PER_TURN} per event-loop turn, ` +
      `to a file; CPU of the whole process, medians of ${ROUNDS} interleaved rounds:`,
    `  logDestination (asynchronous):   ${median(ours).toFixed(2)} µs a line`,
    `  pino's default (synchronous):    ${median(synchronous).toFixed(2)} µs a line`,
    `  ratio: ${median(per).toFixed(2)}   rounds: ${per.map((x) => x.toFixed(2)).join(" ")}`,
  ].join("\n") + "\n";
process.stdout.write(report);
writeFileSync(join(ROOT, "bench/results/request-log.txt"), report);

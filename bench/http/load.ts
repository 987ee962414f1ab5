/** One autocannon run and what the bench keeps of it; the server's CPU time and resident memory from /proc. */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import autocannon from "autocannon";

export interface Target {
  /** Who answers: "recap", "minimal", "express", "static". */
  server: string;
  url: string;
  connections: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** The server's process, whose CPU time per request the run then reports. */
  pid?: number;
}

export interface Run {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** The server's CPU time (user and system) per request in µs, when the target names its process. */
  cpuPerRequest?: number;
}

const CLOCK_TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString());

/** The CPU time (user and system) the process has used so far, in µs. */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // After the name in parentheses: state is field 3, utime 14 and stime 15 (proc(5)).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS_PER_SECOND;
}

/** Loads the target for `seconds`; throws when any answer was not 2xx or a request failed. */
export async function load(target: Target, seconds: number): Promise<Run> {
  const cpuBefore = target.pid === undefined ? 0 : cpuMicros(target.pid);
  const result = await autocannon({
    url: target.url,
    connections: target.connections,
    duration: seconds,
    method: target.method ?? "GET",
    headers: target.headers ?? {},
    ...(target.body !== undefined && { body: target.body }),
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${target.server} ${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ...(target.pid !== undefined && {
      cpuPerRequest: (cpuMicros(target.pid) - cpuBefore) / result.requests.total,
    }),
  };
}

/** The process's resident set in MB (VmRSS). */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Math.round(Number(match?.[1] ?? 0) / 1024);
}

/** GETs a path without Accept-Encoding (as autocannon asks), answering the status and the bytes. */
export function getRaw(url: string, token?: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

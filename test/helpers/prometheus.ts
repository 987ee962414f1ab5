import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startChild, type Child } from "./processes.ts";
import { freePort, until } from "./wait.ts";

/**
 * Debian's `prometheus` server (apt-get install prometheus), or null to skip the suites that scrape with it.
 * Required under CI=true; elsewhere a missing binary skips them with a line saying so.
 */
export function prometheusBinary(): string | null {
  try {
    return execFileSync("sh", ["-c", "command -v prometheus"], { encoding: "utf8" }).trim();
  } catch {
    if (process.env.CI === "true") throw new Error("CI=true but `prometheus` is not installed");
    console.warn("SKIPPED: Prometheus scrape suites (no `prometheus` binary); apt-get install prometheus");
    return null;
  }
}

/** One series of an instant query: its labels and its value. */
export interface Sample {
  labels: Record<string, string>;
  value: number;
}

export interface Prometheus {
  url: string;
  /** An instant query through `/api/v1/query`, evaluated now. */
  query(expression: string): Promise<Sample[]>;
  /** The value of a query that must answer exactly one series. */
  value(expression: string): Promise<number>;
  /** Waits until a scrape of `job` that started after `since` has been stored. */
  scrapedAfter(since: number): Promise<void>;
  close(): Promise<void>;
}

interface QueryAnswer {
  status: string;
  error?: string;
  data: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
}

/**
 * Starts a real Prometheus scraping `target`'s /metrics every second with the Bearer token, on a free port of
 * 127.0.0.1 with its storage in a temporary directory; resolves once it is ready. Prometheus hands targets to
 * its scrapers at most every 5 s, so the first scrape comes a few seconds after that.
 */
export async function startPrometheus(
  binary: string,
  scrape: { target: string; token: string },
): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), "recap-prometheus-"));
  const config = join(dir, "prometheus.yml");
  writeFileSync(
    config,
    [
      "global:",
      "  scrape_interval: 1s",
      "  scrape_timeout: 1s",
      "scrape_configs:",
      "  - job_name: recap",
      "    metrics_path: /metrics",
      "    authorization:",
      "      type: Bearer",
      `      credentials: ${JSON.stringify(scrape.token)}`,
      "    static_configs:",
      `      - targets: [${JSON.stringify(scrape.target)}]`,
      "",
    ].join("\n"),
  );
  const port = await freePort();
  const child: Child = startChild(binary, [
    `--config.file=${config}`,
    `--storage.tsdb.path=${join(dir, "data")}`,
    `--web.listen-address=127.0.0.1:${port}`,
    "--log.level=warn",
  ]);
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.process.exitCode === null) {
      const exited = new Promise((resolve) => child.process.once("exit", resolve));
      child.process.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await until(
      async () => {
        if (child.process.exitCode !== null) throw new Error(`prometheus exited:\n${child.output()}`);
        return (await fetch(`${url}/-/ready`).catch(() => null))?.status === 200;
      },
      "prometheus to be ready",
      { tries: 300, everyMs: 100 },
    );
  } catch (error) {
    await close();
    throw error;
  }

  const query = async (expression: string): Promise<Sample[]> => {
    const response = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expression })}`);
    const answer = (await response.json()) as QueryAnswer;
    if (answer.status !== "success") throw new Error(`${expression}: ${answer.error ?? response.status}`);
    return answer.data.result.map(({ metric, value }) => ({ labels: metric, value: Number(value[1]) }));
  };
  return {
    url,
    query,
    async value(expression) {
      const samples = await query(expression);
      if (samples.length !== 1) {
        throw new Error(`${expression}: expected one series, got ${JSON.stringify(samples)}`);
      }
      return samples[0]!.value;
    },
    async scrapedAfter(since) {
      // `timestamp(up)` is when the latest stored scrape started, in seconds.
      await until(
        async () => {
          const [up] = await query('timestamp(up{job="recap"})');
          return up !== undefined && up.value * 1000 > since;
        },
        `a scrape after ${new Date(since).toISOString()}`,
        { tries: 300, everyMs: 100 },
      );
      const [up] = await query('up{job="recap"}');
      if (up?.value !== 1) throw new Error(`the scrape failed: ${JSON.stringify(await query("up"))}`);
    },
    close,
  };
}

import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { until } from "../../test/helpers/wait.ts";

/** Runs `body` in a child process with a pino logger on logDestination(), collecting its standard output. */
function logInChild(body: string) {
  const script = `
    import { pino } from "pino";
    import { logDestination } from ${JSON.stringify(join(import.meta.dirname, "logging.ts"))};
    const log = pino({ base: null, timestamp: false }, logDestination());
    ${body}`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, output: () => output, exited };
}

describe("logDestination", () => {
  it("writes a line at once when nothing else is logged, without waiting for more", async () => {
    const { child, output, exited } = logInChild(`log.info("alone"); setTimeout(() => {}, 60_000);`);
    try {
      await until(() => output().includes('"msg":"alone"'), "the line while the process runs");
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
  }, 30_000);

  it("writes every line of a burst before the process exits, even when it exits at once", async () => {
    const { output, exited } = logInChild(
      `for (let i = 0; i < 20000; i++) log.info({ i }, "burst"); process.exit(0);`,
    );
    expect(await exited).toBe(0);
    const numbers = output()
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { i: number }).i);
    expect(numbers).toEqual(Array.from({ length: 20000 }, (_, i) => i));
  }, 30_000);
});

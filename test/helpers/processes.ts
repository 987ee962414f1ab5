import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { until } from "./wait.ts";

export const ROOT = join(import.meta.dirname, "..", "..");

export interface Child {
  process: ChildProcess;
  /** Everything it has written to stdout and stderr so far. */
  output: () => string;
}

/** Starts a command in the repository with its output collected. */
export function startChild(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Child {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { process: child, output: () => output };
}

/** Waits (up to a minute) until the child has printed `text`. */
export function untilOutput(child: Child, text: string): Promise<void> {
  return until(() => child.output().includes(text), `"${text}" from ${child.process.spawnfile}`, {
    tries: 600,
    everyMs: 100,
  });
}

import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/processes.ts";

const run = promisify(execFile);

describe("bin/recap", () => {
  // A copy of what the command needs, so its dist/ starts missing and a source can be changed.
  const copy = mkdtempSync(join(tmpdir(), "recap-bin-"));
  for (const part of ["bin", "scripts", "src", "package.json"]) {
    cpSync(join(ROOT, part), join(copy, part), { recursive: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  const recap = (...args: string[]) => run(join(copy, "bin", "recap"), args);

  it("runs the compiled CLI, building dist/ when it is missing and again only after a source changes", async () => {
    const first = await recap("--help");
    expect(first.stdout).toContain("Usage: recap [options] [command]");
    expect(first.stderr).toMatch(/^built \d+ server modules into dist\/\n$/);
    expect(existsSync(join(copy, "dist", "cli", "main.js"))).toBe(true);

    // What runs is dist/, as built: the command compiles nothing when no source changed.
    const built = join(copy, "dist", "cli", "main.js");
    writeFileSync(built, 'console.log("the built CLI");\n');
    expect(await recap("--help")).toEqual({ stdout: "the built CLI\n", stderr: "" });

    const now = new Date();
    utimesSync(join(copy, "src", "cli", "demo.ts"), now, now);
    const rebuilt = await recap("--help");
    expect(rebuilt.stderr).toMatch(/^built \d+ server modules/);
    expect(rebuilt.stdout).toContain("Usage: recap [options] [command]");
  }, 60_000);

  it("runs the dist/ it was shipped with when there is no src/ (the container image)", async () => {
    await recap("--help");
    const shipped = mkdtempSync(join(tmpdir(), "recap-shipped-"));
    try {
      for (const part of ["bin", "dist", "package.json"]) {
        cpSync(join(copy, part), join(shipped, part), { recursive: true });
      }
      writeFileSync(join(shipped, "dist", "cli", "main.js"), 'console.log("the shipped CLI");\n');
      expect(await run(join(shipped, "bin", "recap"), ["--help"])).toEqual({
        stdout: "the shipped CLI\n",
        stderr: "",
      });
    } finally {
      rmSync(shipped, { recursive: true, force: true });
    }
  }, 60_000);
});

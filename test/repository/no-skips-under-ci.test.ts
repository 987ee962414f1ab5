import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..");

/** Runs Vitest, with the project's reporters, on one generated test file; returns its exit code and output. */
async function vitestOn(source: string, ci: boolean): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), "recap-ci-skips-"));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(
    join(dir, "vitest.config.mjs"),
    `import { NoSkipsUnderCi } from ${JSON.stringify(pathToFileURL(join(ROOT, "test", "no-skips-under-ci.ts")).href)};\n` +
      `export default { test: { reporters: ["default", new NoSkipsUnderCi()] } };\n`,
  );
  writeFileSync(join(dir, "fixture.test.ts"), source);
  const env = { ...process.env, CI: ci ? "true" : "" };
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run"],
      {
        cwd: dir,
        env,
      },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SETUP_FAILS = `
import { beforeAll, describe, expect, it } from "vitest";
describe("a suite that needs a service", () => {
  beforeAll(() => { throw new Error("the service is not there"); });
  it("uses the service", () => expect(1).toBe(1));
});
`;
const SKIPPED = `
import { describe, expect, it } from "vitest";
it("runs", () => expect(1).toBe(1));
describe.skipIf(true)("a suite left out", () => {
  it("would check something", () => expect(1).toBe(1));
});
`;

describe("under CI=true a test that did not run fails the run", () => {
  it("names the tests of a suite whose setup failed", async () => {
    const { code, output } = await vitestOn(SETUP_FAILS, true);
    expect(code).not.toBe(0);
    expect(output).toContain("CI=true: 1 test(s) did not run");
    expect(output).toContain("fixture.test.ts > a suite that needs a service > uses the service");
  }, 60_000);

  it("fails a run whose only fault is a skipped suite, which passes outside CI", async () => {
    const underCi = await vitestOn(SKIPPED, true);
    expect(underCi.code).not.toBe(0);
    expect(underCi.output).toContain("fixture.test.ts > a suite left out > would check something");
    const outside = await vitestOn(SKIPPED, false);
    expect(outside.code).toBe(0);
    expect(outside.output).not.toContain("did not run");
  }, 60_000);
});

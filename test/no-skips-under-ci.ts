import type { Reporter, TestModule } from "vitest/node";

/**
 * Under CI=true every collected test must run. Vitest reports the tests of a suite whose `beforeAll` failed
 * as skipped (and a `describe.skipIf` can leave a whole suite out); this reporter names each test that did
 * not run and fails the run, so a broken setup can never pass for a skipped suite. Outside CI, suites may
 * skip when a service is missing (they print a line saying so).
 */
export class NoSkipsUnderCi implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (process.env.CI !== "true") return;
    const notRun = testModules.flatMap((module) =>
      [...module.children.allTests()]
        .filter((test) => test.result().state !== "passed" && test.result().state !== "failed")
        .map((test) => `${module.relativeModuleId} > ${test.fullName}`),
    );
    if (notRun.length === 0) return;
    console.error(
      `\nCI=true: ${notRun.length} test(s) did not run (a suite's setup failed or it was skipped); failing the run:\n` +
        notRun.map((name) => `  - ${name}`).join("\n"),
    );
    process.exitCode = 1;
  }
}

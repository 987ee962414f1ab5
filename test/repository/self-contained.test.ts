import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";
import { escapesFromRepository } from "../helpers/repository.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** This guard's own files, which spell out the escapes it looks for. */
const GUARD = new Set(["test/helpers/repository.ts", "test/repository/self-contained.test.ts"]);

/** The repository's code, tests and scripts: tracked or new files, not ignored (data, prose and the guard left out). */
function repositorySources(): string[] {
  return execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter(
      (file) =>
        file !== "" &&
        existsSync(join(ROOT, file)) &&
        !file.startsWith("datasets/") &&
        !GUARD.has(file) &&
        !/\.(md|png|jpe?g|gif|ico|woff2)$/.test(file),
    );
}

describe("the repository stands on its own", () => {
  it("finds escapes where they are, and none in paths that stay inside", () => {
    expect(escapesFromRepository("bench/qmsum.ts", 'resolve(dir, "../../shared/data/qmsum")')).toEqual([
      "../shared",
      "../../",
    ]);
    expect(escapesFromRepository("test/helpers/qmsum.ts", 'join(dir, "..", "..", "..", "x")')).toHaveLength(
      1,
    );
    expect(escapesFromRepository("test/helpers/qmsum.ts", 'join(dir, "..", "..", "datasets")')).toEqual([]);
    expect(
      escapesFromRepository("src/modules/jobs/x.ts", 'import { a } from "../../../src/errors.ts"'),
    ).toEqual([]);
  });

  it("no tracked file reads anything outside the repository", () => {
    const escapes = repositorySources().flatMap((file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      return escapesFromRepository(file, text).map((escape) => `${file}: ${escape}`);
    });
    expect(escapes).toEqual([]);
  });

  it("every locked package supports the Node.js versions package.json (and the README) state", () => {
    const range = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } }
    ).engines.node;
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { engines?: { node?: string } }>;
    };
    // npm warns (EBADENGINE) when the running Node is outside a package's range: check the oldest version we
    // claim and the one running the tests.
    const versions = [semver.minVersion(range)?.version ?? range, process.version];
    const unsupported = Object.entries(lock.packages).flatMap(([name, entry]) =>
      versions
        .filter(
          (version) => entry.engines?.node !== undefined && !semver.satisfies(version, entry.engines.node),
        )
        .map((version) => `${name} requires node ${entry.engines?.node ?? ""} (not ${version})`),
    );
    expect(unsupported).toEqual([]);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(
      `Node.js ${semver.minVersion(range)?.version.replace(/\.0$/, "") ?? ""} or newer`,
    );
  });
});

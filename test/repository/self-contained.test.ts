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

  it("every locked package supports every Node.js version package.json (and the README) state, and this one is among them", () => {
    const range = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { engines: { node: string } }
    ).engines.node;
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { engines?: { node?: string } | string[] }>;
    };
    // npm warns (EBADENGINE) when the running Node is outside a package's range: every version we claim must be
    // inside every package's.
    const unsupported = Object.entries(lock.packages).flatMap(([name, entry]) => {
      const needs = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return needs === undefined || semver.subset(range, needs) ? [] : [`${name} requires node ${needs}`];
    });
    expect(unsupported).toEqual([]);
    expect(semver.satisfies(process.version, range), `${process.version} is outside ${range}`).toBe(true);
    // Each release line and its oldest version: "20 (20.19 or newer)", or "24" from its first release.
    const lines = new semver.Range(range).set.map((comparators) => {
      const oldest = semver.minVersion(comparators.map((comparator) => comparator.value).join(" "));
      if (!oldest) throw new Error(`no version satisfies ${range}`);
      return oldest.minor === 0 && oldest.patch === 0
        ? String(oldest.major)
        : `${oldest.major} (${oldest.major}.${oldest.minor}${oldest.patch === 0 ? "" : `.${oldest.patch}`} or newer)`;
    });
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const stated = `Node.js ${lines.slice(0, -1).join(", ")}${lines.length > 1 ? " or " : ""}${lines.at(-1) ?? ""}`;
    expect(readme).toContain(stated);
  });
});

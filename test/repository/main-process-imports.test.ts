import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/processes.ts";

/**
 * The analysis thread's parsers and models cost the main process tens of MB for nothing when a module it loads at
 * start imports them (chrono-node 23 MB, franc 14 MB resident: bench/memory.bench.ts, docs/ARCHITECTURE.md). The
 * worker and a dynamic `import()` may load them; a static import reachable from src/main.ts may not.
 */
const WORKER_ONLY = [
  "chrono-node",
  "franc",
  "wink-nlp",
  "wink-eng-lite-web-model",
  "sherpa-onnx-node",
  "openai",
];

/** The static, value (not `import type`) imports and re-exports of one file. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
      const named = statement.importClause?.namedBindings;
      const allTypes =
        named !== undefined &&
        ts.isNamedImports(named) &&
        statement.importClause?.name === undefined &&
        named.elements.length > 0 &&
        named.elements.every((element) => element.isTypeOnly);
      if (!allTypes) found.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
    if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      found.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return found;
}

/** Every package reached from `entry` through static value imports, with the chain that reached it. */
function packagesReached(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of valueImports(file)) {
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier), [...chain, file]);
      else if (!specifier.startsWith("node:")) {
        const name = specifier.startsWith("@")
          ? specifier.split("/").slice(0, 2).join("/")
          : specifier.split("/")[0]!;
        if (!packages.has(name))
          packages.set(
            name,
            [...chain, file].map((f) => f.slice(ROOT.length + 1)),
          );
      }
    }
  };
  visit(entry, []);
  return packages;
}

describe("the main process", () => {
  it("loads none of the analysis thread's parsers, nor the engines' and language model's clients, at start", () => {
    const reached = packagesReached(resolve(ROOT, "src/main.ts"));
    const loaded = WORKER_ONLY.filter((name) => reached.has(name)).map(
      (name) => `${name} via ${reached.get(name)!.join(" → ")}`,
    );
    expect(loaded).toEqual([]);
    // The walk itself reaches what the server does load, so an empty list above is not a walk that stopped early.
    expect([...reached.keys()]).toEqual(expect.arrayContaining(["fastify", "kysely", "better-sqlite3"]));
  });
});

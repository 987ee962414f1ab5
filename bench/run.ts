/** Runs every bench/*.bench.ts, one after another in name order; each benchmark reports for itself. */
import { readdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .sort();
for (const file of files) {
  process.stdout.write(`\n== ${file}\n`);
  await import(pathToFileURL(join(dir, file)).href);
}

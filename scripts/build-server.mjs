// Compiles the server (src/ without tests and browser scripts) to JavaScript in dist/ (git-ignored), one file
// per source file in the same layout, so `npm start` and `bin/recap` run plain Node: no TypeScript loader in
// the process or its worker threads (about 55 MB less resident memory at start; docs/ARCHITECTURE.md,
// "Performance"). Relative imports are rewritten from .ts to .js; packages stay imports of node_modules.
// Each file is written beside its old one and renamed over it, never removed first: a process already
// running from dist/ (a second `npm start`, a `bin/recap` building at the same moment) only ever reads
// whole files. dist/.built is stamped with the time the build started; `bin/recap` builds again when a
// source file is newer than that.
import { mkdirSync, readdirSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import process from "node:process";
import { dirname, join, relative } from "node:path";
import { build } from "esbuild";

const started = new Date();
const root = join(import.meta.dirname, "..");
const src = join(root, "src");
const outdir = join(root, "dist");
const entryPoints = readdirSync(src, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.startsWith("client"))
  .map((file) => join(src, file));

const { outputFiles } = await build({
  entryPoints,
  outbase: src,
  outdir,
  write: false,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "warning",
  plugins: [
    {
      name: "one-file-per-module",
      setup(builder) {
        builder.onResolve({ filter: /^\.\.?\// }, (args) =>
          args.kind === "entry-point"
            ? undefined
            : { path: args.path.replace(/\.ts$/, ".js"), external: true },
        );
        builder.onResolve({ filter: /^[^./]/ }, () => ({ external: true }));
      },
    },
  ],
});
/** Writes a file whole or not at all, as readers see it. */
function replace(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}
for (const file of outputFiles) replace(file.path, file.contents);
const stamp = join(outdir, ".built");
replace(stamp, `${started.toISOString()}\n`);
utimesSync(stamp, started, started);
process.stdout.write(`built ${entryPoints.length} server modules into ${relative(root, outdir)}/\n`);

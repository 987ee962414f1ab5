// Compiles the server (src/ without tests and browser scripts) to JavaScript in dist/ (git-ignored), one file
// per source file in the same layout, so `npm start` runs plain Node: no TypeScript loader in the process or
// its worker threads (about 55 MB less resident memory at start; docs/ARCHITECTURE.md, "Performance").
// Relative imports are rewritten from .ts to .js; packages stay imports of node_modules. Files are
// overwritten, never removed first: a server already running from dist/ (a second `npm start` in the same
// folder) still finds its worker modules.
import { readdirSync } from "node:fs";
import process from "node:process";
import { join, relative } from "node:path";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
const src = join(root, "src");
const outdir = join(root, "dist");
const entryPoints = readdirSync(src, { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.startsWith("client"))
  .map((file) => join(src, file));

await build({
  entryPoints,
  outbase: src,
  outdir,
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
process.stdout.write(`built ${entryPoints.length} server modules into ${relative(root, outdir)}/\n`);

// Bundles the summary page's and the console's browser scripts and stylesheets from src/client/ into public/ (git-ignored),
// so a fresh clone builds them with `npm run build:client` (run before `npm start` and `npm test`).
import { mkdirSync } from "node:fs";
import process from "node:process";
import { join } from "node:path";
import { build } from "esbuild";

const root = join(import.meta.dirname, "..");
const outdir = join(root, "public");
mkdirSync(outdir, { recursive: true });

await build({
  entryPoints: { page: join(root, "src/client/page.ts"), console: join(root, "src/client/console.ts") },
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020", "chrome100", "firefox100", "safari15"],
  outdir,
  legalComments: "none",
  logLevel: "warning",
});
await build({
  entryPoints: { page: join(root, "src/client/styles.css"), console: join(root, "src/client/console.css") },
  bundle: true,
  minify: true,
  outdir,
  logLevel: "warning",
});
process.stdout.write("built public/page.js, public/page.css, public/console.js and public/console.css\n");

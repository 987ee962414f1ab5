import { dirname } from "node:path";

/**
 * The places in `text` (a file at `file`, relative to the root) that reach outside the repository: any
 * mention of ../shared, and relative paths (`../../x` or `"..", ".."`) climbing above the root from the
 * file's own folder.
 */
export function escapesFromRepository(file: string, text: string): string[] {
  const depth = dirname(file) === "." ? 0 : dirname(file).split("/").length;
  const found: string[] = [];
  for (const match of text.matchAll(/\.\.[\\/]+shared\b|["']\.\.["']\s*,\s*["']shared["']/g))
    found.push(match[0]);
  for (const match of text.matchAll(/(?:\.\.\/)+|(?:["']\.\.["']\s*,\s*)+["']\.\.["']/g)) {
    const ups = match[0].split("..").length - 1;
    if (ups > depth) found.push(match[0]);
  }
  return found;
}

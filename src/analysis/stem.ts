import { createRequire } from "node:module";

/**
 * wink's Porter2 stemmer (the English model's `addons.stem`), loaded on its own: the main thread stems
 * tracker vocabulary, and loading the whole model for that would cost about 25 MB of its memory.
 */
const stemWord = createRequire(import.meta.url)("wink-eng-lite-web-model/dist/porter-stemmer.js") as (
  word: string,
) => string | undefined;
const stemCache = new Map<string, string>();

/** The Porter2 stem of a lowercased word, cached (called once per distinct word, not per token). */
export function stemOf(normal: string): string {
  let stem = stemCache.get(normal);
  if (stem === undefined) {
    stem = stemWord(normal) ?? normal;
    if (stemCache.size < 200_000) stemCache.set(normal, stem);
  }
  return stem;
}

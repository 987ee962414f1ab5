/**
 * How piscina loads a worker module that sits beside `from` (the caller's import.meta.url): the .ts source
 * through tsx when the server runs from src/ (tests, benches), the compiled .js as is when it runs from
 * dist/ (`npm start`, `bin/recap`: scripts/build-server.mjs), so no worker thread carries a TypeScript
 * loader there.
 */
export function workerModule(name: string, from: string): { filename: string; execArgv: string[] } {
  const fromSource = from.endsWith(".ts");
  return {
    filename: new URL(`./${name}${fromSource ? ".ts" : ".js"}`, from).href,
    execArgv: fromSource ? ["--import", "tsx"] : [],
  };
}

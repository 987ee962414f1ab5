import { defineConfig } from "vitest/config";
import { NoSkipsUnderCi } from "./test/no-skips-under-ci.ts";

const BROWSER = "test/browser/**/*.test.ts";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time: most of a file's time is spent waiting on a database, a child process, ffmpeg or a
    // socket, and on this 2-core kind one at a time (Vitest's default here) left a core idle (docs/OPERATIONS.md,
    // Test time).
    maxWorkers: 2,
    reporters: ["default", new NoSkipsUnderCi()],
    projects: [
      {
        extends: true,
        test: {
          name: "server",
          include: ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"],
          exclude: [BROWSER],
        },
      },
      {
        // Chromium on a long meeting takes a core of its own: beside a second file its clicks outran their
        // timeouts, so the browser files run one at a time, after the rest.
        extends: true,
        test: { name: "browser", include: [BROWSER], fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});

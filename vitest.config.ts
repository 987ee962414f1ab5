import { defineConfig } from "vitest/config";
import { NoSkipsUnderCi } from "./test/no-skips-under-ci.ts";

/**
 * Files that need the machine to themselves: Chromium laying out a long meeting takes a core of its own (beside a
 * second file, page-layout's clicks ran out their 30 s), and heavy-requests races /healthz against work in the
 * analysis thread, a race a second file's load can tip.
 */
const ALONE = ["test/browser/**/*.test.ts", "test/integration/heavy-requests.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time: most of a file's time is spent waiting on a database, a child process, ffmpeg or a
    // socket, and on this 2-core kind one at a time (Vitest's default here) left a core idle; the files of ALONE
    // then run one at a time, after the rest (docs/OPERATIONS.md, Test time).
    maxWorkers: 2,
    reporters: ["default", new NoSkipsUnderCi()],
    projects: [
      {
        extends: true,
        test: {
          name: "parallel",
          include: ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"],
          exclude: ALONE,
        },
      },
      {
        extends: true,
        test: { name: "alone", include: ALONE, fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});

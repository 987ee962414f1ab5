import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { NoSkipsUnderCi } from "./test/no-skips-under-ci.ts";

/**
 * Files that need the machine to themselves: Chromium laying out a long meeting takes a core of its own (beside a
 * second file, page-layout's clicks ran out their 30 s), and heavy-requests races /healthz against work in the
 * analysis thread, a race a second file's load can tip.
 */
const ALONE = ["test/browser/**/*.test.ts", "test/integration/heavy-requests.test.ts"];

/**
 * The longest files, started first (docs/OPERATIONS.md, Test time): in a fresh clone Vitest knows no file's
 * duration and runs them in the order it found them, which left the container image's first build (minutes) to
 * start last, alone on one worker while the other had nothing left to run.
 */
const SLOW_FIRST = [
  "test/repository/container-image.test.ts",
  "test/integration/live.test.ts",
  "test/integration/media.test.ts",
  "test/integration/voice-matching.test.ts",
  "test/integration/live-remote.test.ts",
  "test/integration/media-uploads.test.ts",
  "test/integration/newcomer.test.ts",
];

/** Vitest's order (known durations, longest first; else larger files first), with SLOW_FIRST ahead of the rest. */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = SLOW_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return at === -1 ? SLOW_FIRST.length : at;
    };
    // A stable sort: within a rank, Vitest's order stays.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

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
    sequence: { sequencer: SlowFirst },
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

import { defineConfig } from "vitest/config";
import { NoSkipsUnderCi } from "./test/no-skips-under-ci.ts";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", new NoSkipsUnderCi()],
  },
});

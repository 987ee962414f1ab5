import { describe, expect, it } from "vitest";
import { workerModule } from "./worker-module.ts";

describe("workerModule", () => {
  it("loads the TypeScript worker through tsx when the caller runs from its source", () => {
    expect(workerModule("worker", "file:///app/src/analysis/pool.ts")).toEqual({
      filename: "file:///app/src/analysis/worker.ts",
      execArgv: ["--import", "tsx"],
    });
  });

  it("loads the compiled worker as is when the caller is compiled (npm start runs dist/)", () => {
    expect(
      workerModule("transcript-worker", "file:///app/dist/modules/ingestion/transcript-pool.js"),
    ).toEqual({
      filename: "file:///app/dist/modules/ingestion/transcript-worker.js",
      execArgv: [],
    });
  });
});

/**
 * Whether the local speech engine's memory stays bounded however long the recording: the engine on the generated
 * models (scripts/speech-models/models.ts, as `npm run models:generate` writes them; the zipformer2 CTC tone
 * recogniser) transcribes a stream of 20 s of tone and 2 s of silence, repeated, made a second at a time and
 * never held whole, for 15 minutes and for 4 hours, each in a process of its own. The report is each process's
 * peak resident memory and the ratio of the long to the short. The generated models say nothing of a real
 * model's speed or size (docs/MEDIA.md): `bin/recap models bench` measures those.
 *
 * Usage: node --import tsx bench/local-engine-memory.bench.ts   (writes bench/results/local-engine-memory.txt)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createLocalEngine } from "../src/media/local/engine.ts";
import { installGeneratedModels } from "../scripts/speech-models/models.ts";

const ROOT = resolve(import.meta.dirname, "..");
const SECONDS = { short: 15 * 60, long: 4 * 3600 };

interface Run {
  seconds: number;
  utterances: number;
  peakRssMb: number;
  wallSeconds: number;
}

/** In the child: transcribes `seconds` of generated stream and prints what it measured as JSON. */
async function measure(seconds: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "recap-bench-engine-"));
  try {
    installGeneratedModels(dir);
    async function* stream() {
      for (let second = 0; second < seconds; second++) {
        const chunk = new Float32Array(16_000);
        if (second % 22 < 20) {
          for (let i = 0; i < chunk.length; i++) {
            chunk[i] = 0.5 * Math.sin((2 * Math.PI * 300 * (second * 16_000 + i)) / 16_000);
          }
        }
        // each second arrives in a turn of the event loop of its own, as a decoder's output does
        await new Promise((resolve) => setImmediate(resolve));
        yield chunk;
      }
    }
    const engine = await createLocalEngine({ modelsDir: dir, model: "tone-ctc", numThreads: 1 });
    const started = performance.now();
    const segments = await engine.transcribe(stream(), {
      vocabulary: [],
      signal: new AbortController().signal,
    });
    await engine.close();
    const run: Run = {
      seconds,
      utterances: segments.length,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      wallSeconds: Math.round((performance.now() - started) / 1000),
    };
    process.stdout.write(JSON.stringify(run));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function inChild(seconds: number): Run {
  const output = execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      join(import.meta.dirname, "local-engine-memory.bench.ts"),
      "--child",
      String(seconds),
    ],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 20 },
  );
  return JSON.parse(output) as Run;
}

const child = process.argv.indexOf("--child");
if (child >= 0) await measure(Number(process.argv[child + 1]));
else {
  const short = inChild(SECONDS.short);
  const long = inChild(SECONDS.long);
  const line = (name: string, run: Run) =>
    `  ${name}: ${run.utterances} utterances, peak ${run.peakRssMb} MB resident (${run.wallSeconds} s)`;
  const report =
    [
      `Local engine memory bench (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"})`,
      "The engine on the generated models, a generated stream (20 s of tone, 2 s of silence), each length in its own process:",
      line("15 minutes", short),
      line("4 hours   ", long),
      `  ratio of peaks (4 hours ÷ 15 minutes): ${(long.peakRssMb / short.peakRssMb).toFixed(2)}`,
    ].join("\n") + "\n";
  process.stdout.write(report);
  writeFileSync(join(ROOT, "bench/results/local-engine-memory.txt"), report);
}

/**
 * Matching trackers against a conversation (analysis/trackers.ts detectTrackers, in process), without its
 * limits (the whole work, every match, as the algorithm before them did it) and with them (what one request
 * costs), beside the baseline any matching must do, measured in the same run: finding every word of every
 * line and stemming it. Workloads from the QMSum meetings: one meeting
 * (Bed015) with 100 trackers of 10 phrases; 5,000 lines (the val meetings one after another) with 100
 * trackers of 50 phrases (the most a tracker has); and issue 24's case, 20,000 lines with 500 trackers of
 * 50 phrases (the most an app has). Phrases are one to three words taken from the meetings' own lines, so
 * many match, and a fifth are made up, so they match nothing. Times are medians.
 *
 * Usage: node --import tsx bench/trackers.bench.ts   (writes bench/results/trackers.txt)
 */
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import { stemOf } from "../src/analysis/stem.ts";
import { detectTrackers, type TrackerDefinition } from "../src/analysis/trackers.ts";
import { loadMeeting, meetingFiles, spokenTurns } from "../test/helpers/qmsum.ts";
import { median, time } from "./timing.ts";

const ROOT = resolve(import.meta.dirname, "..");
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

const lines = (files: string[], count: number) =>
  files
    .flatMap((file) =>
      spokenTurns(loadMeeting(file.startsWith("train/") ? "train" : "val", file.replace(/^train\//, ""))).map(
        (turn) => turn.content,
      ),
    )
    .slice(0, count)
    .map((text, i) => ({ id: String(i), text }));

/** `count` trackers of `size` phrases: runs of one to three words from the lines, every fifth made up. */
function trackersFrom(source: { text: string }[], count: number, size: number): TrackerDefinition[] {
  const words = source.flatMap((line) => line.text.match(WORD) ?? []);
  let at = 0;
  return Array.from({ length: count }, (_, t) => {
    const vocabulary = new Set<string>();
    while (vocabulary.size < size) {
      at = (at + 7919) % words.length;
      const length = 1 + (at % 3);
      vocabulary.add(at % 5 === 0 ? `zyx${at} qwv${t}` : words.slice(at, at + length).join(" ") || "meeting");
    }
    return { id: String(t), name: `Tracker ${t}`, vocabulary: [...vocabulary] };
  });
}

/** The baseline: every word of every line found and stemmed. */
function stemEveryWord(source: { text: string }[]): number {
  let count = 0;
  for (const line of source) {
    for (const match of line.text.matchAll(WORD)) count += stemOf(match[0].toLowerCase()).length;
  }
  return count;
}

const files = meetingFiles("val");
const workloads = [
  {
    name: "Bed015, 100 trackers x 10 phrases",
    lines: lines(["Bed015.json"], Infinity),
    trackers: 100,
    size: 10,
  },
  { name: "5,000 lines, 100 trackers x 50 phrases", lines: lines(files, 5000), trackers: 100, size: 50 },
  {
    name: "20,000 lines, 500 trackers x 50 phrases",
    lines: lines([...files, ...meetingFiles("train").map((file) => `train/${file}`)], 20_000),
    trackers: 500,
    size: 50,
  },
];
const unlimited = { maxRefs: Infinity, maxSteps: Infinity };
const out = [
  `Tracker matching bench (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"})`,
  "detectTrackers in process; baseline: every word of every line found and stemmed; medians:",
];
for (const workload of workloads) {
  const trackers = trackersFrom(workload.lines, workload.trackers, workload.size);
  const runs = workload.lines.length > 2000 ? 3 : 15;
  const baseline = median(time(() => stemEveryWord(workload.lines), runs, 1));
  const whole = median(time(() => detectTrackers(trackers, workload.lines, [], unlimited), runs, 1));
  const limited = median(time(() => detectTrackers(trackers, workload.lines, []), runs, 1));
  const refs = detectTrackers(trackers, workload.lines, [], unlimited).trackers.reduce(
    (sum, tracker) => sum + tracker.matches.reduce((count, match) => count + match.messageRefs.length, 0),
    0,
  );
  const bytes = workload.lines.reduce((sum, line) => sum + Buffer.byteLength(line.text), 0);
  out.push(
    `  ${workload.name} (${workload.lines.length} lines, ${(bytes / 1e6).toFixed(2)} MB, ${refs} references in all):`,
    `    baseline ${baseline.toFixed(1)} ms`,
    `    detectTrackers, no limits:   ${whole.toFixed(1)} ms, ratio ${(whole / baseline).toFixed(2)}`,
    `    detectTrackers, its limits:  ${limited.toFixed(1)} ms, ratio ${(limited / baseline).toFixed(2)}`,
  );
}
const text = out.join("\n");
console.log(text);
writeFileSync(join(ROOT, "bench", "results", "trackers.txt"), `${text}\n`);

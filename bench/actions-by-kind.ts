/**
 * How the shipped action-item rules do on each kind of QMSum train meeting (product design, research,
 * committee: meetingKind in qmsum.ts), whole analyses against the hand-labelled items. The rules learn nothing
 * from train, so every kind is one they were not fitted to; a user's meetings are of none of these kinds. The
 * methods compared leave-one-kind-out before the rules were chosen (a learned model, with and without its
 * phrases, and the rules with a model) are in bench/results/actions-methods-by-kind.txt, written by this
 * script at commit e89b876. Never reads val.
 *
 * Usage: node --import tsx bench/actions-by-kind.ts [--write]
 *   --write also writes the table to bench/results/actions-by-kind.txt.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ACTION_TABLE_HEADER, evaluateActions, overall } from "./eval-actions.ts";
import { loadSplit, MEETING_KINDS, ofKind } from "./qmsum.ts";

const rows = loadSplit("train").flatMap(evaluateActions);
const lines = [
  `Action items on ${rows.length} labelled train meetings by kind, whole analyses, the phrasing rules (nothing learned).`,
  `Meetings: ${MEETING_KINDS.map((kind) => `${kind} ${ofKind(rows, kind).length}`).join(", ")}.`,
  "",
  ...ACTION_TABLE_HEADER,
  ...MEETING_KINDS.map((kind) => overall(kind, ofKind(rows, kind))),
  overall("all", rows),
];
for (const line of lines) process.stdout.write(`${line}\n`);
if (process.argv.includes("--write"))
  writeFileSync(resolve(import.meta.dirname, "results/actions-by-kind.txt"), `${lines.join("\n")}\n`);

/**
 * How the action-item model does on a kind of meeting it never learned from. QMSum's train meetings are of
 * three kinds (product design, research, committee: meetingKind in qmsum.ts); each kind is analysed by a model fitted, with
 * the shipped settings and threshold, on the other two kinds only, beside the same meetings in the 5-fold
 * cross-validation (where the other meetings of their kind are in the training folds). A user's meetings are
 * none of QMSum's kinds, so the held-out kind is the nearer guess of what they will see. Never reads val.
 *
 * Usage: node --import tsx bench/actions-by-kind.ts [--write]
 *   --write also writes the table to bench/results/actions-by-kind.txt.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { FOLDS } from "./action-training.ts";
import { ACTION_TABLE_HEADER, BY_KIND, crossValidatedActions, overall } from "./eval-actions.ts";
import { loadSplit, MEETING_KINDS, ofKind } from "./qmsum.ts";

const train = loadSplit("train").filter((m) => m.goldActions !== null);
const crossValidated = crossValidatedActions(train);
const kindHeldOut = crossValidatedActions(train, undefined, undefined, BY_KIND);

const lines = [
  `Action items on ${train.length} labelled train meetings, whole analyses, shipped settings and threshold:`,
  `each kind of meeting ${FOLDS}-fold cross-validated, and held out (learned from the other two kinds only).`,
  `Meetings: ${MEETING_KINDS.map((kind) => `${kind} ${ofKind(train, kind).length}`).join(", ")}.`,
  "",
  ...ACTION_TABLE_HEADER,
  ...MEETING_KINDS.flatMap((kind) => [
    overall(`${kind}, ${FOLDS}-fold`, ofKind(crossValidated, kind)),
    overall(`${kind}, held out`, ofKind(kindHeldOut, kind)),
  ]),
  overall(`all, ${FOLDS}-fold`, crossValidated),
  overall("all, each kind held out", kindHeldOut),
];
for (const line of lines) process.stdout.write(`${line}\n`);
if (process.argv.includes("--write"))
  writeFileSync(resolve(import.meta.dirname, "results/actions-by-kind.txt"), `${lines.join("\n")}\n`);

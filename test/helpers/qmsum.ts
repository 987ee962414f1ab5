// Tests reach the QMSum meetings through here; the loader lives in src/cli/qmsum.ts because `bin/recap demo`
// ingests one of them too.
export {
  loadMeeting,
  meetingFiles,
  QMSUM_DIR,
  spokenTurns,
  toProcessTextBody,
  type QmsumMeeting,
} from "../../src/cli/qmsum.ts";

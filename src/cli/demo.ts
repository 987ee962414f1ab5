import { submissionFromText } from "../modules/ingestion/ingestion.service.ts";
import type { Services } from "../services.ts";
import { loadMeeting, spokenTurns, toProcessTextBody } from "./qmsum.ts";
import { runJobUntilFinished } from "./run-job.ts";

export const DEMO_APP_NAME = "Recap demo";
/** A real product-design meeting from QMSum val (AMI IS1006b, about 580 turns, four speakers). */
const DEMO_MEETING = { split: "val", file: "IS1006b.json" } as const;
const DEMO_CONVERSATION_NAME = "Remote control: functional design (QMSum IS1006b)";

export interface DemoResult {
  appId: string;
  /** Set only when this run created the demo app: the secret is shown once. */
  appSecret?: string;
  conversationId: string;
  jobId: string;
  url: string;
}

/**
 * `bin/recap demo`: the demo app (created on first use, reused after), a bundled real meeting ingested into
 * it and analysed, and a summary link to it. The meeting is placed so that it ended at `now`. Throws when the
 * analysis fails.
 */
export async function runDemo(services: Services, now: Date): Promise<DemoResult> {
  let appSecret: string | undefined;
  let app = (await services.apps.listApps()).find((candidate) => candidate.name === DEMO_APP_NAME);
  if (!app) {
    const created = await services.apps.createApp({ name: DEMO_APP_NAME });
    appSecret = created.appSecret;
    app = created;
  }
  const { appId } = app;

  const meeting = loadMeeting(DEMO_MEETING.split, DEMO_MEETING.file);
  const start = new Date(now.getTime() - spokenTurns(meeting).length * 5000);
  const body = toProcessTextBody(meeting, start, DEMO_CONVERSATION_NAME);
  const { conversationId, jobId } = await services.ingestion.submit(appId, submissionFromText(body));
  const status = await runJobUntilFinished(services, appId, jobId);
  if (status !== "completed") throw new Error(`the demo meeting's analysis ${status} (job ${jobId})`);

  const { url } = await services.experiences.createSummaryLink(appId, conversationId, {
    name: "verbose-text-summary",
  });
  return { appId, ...(appSecret !== undefined && { appSecret }), conversationId, jobId, url };
}

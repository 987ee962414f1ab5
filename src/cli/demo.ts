import { submissionFromText, type Accepted } from "../modules/ingestion/ingestion.service.ts";
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
  /** Whether the meeting was already in the demo app from an earlier run (it is ingested once). */
  reused: boolean;
  url: string;
}

/**
 * `bin/recap demo`: the demo app (created on first use, reused after), the bundled real meeting ingested
 * into it once and analysed, and a new summary link to it (a link's URL cannot be shown again, so each run
 * makes one). The meeting is placed so that it ended at `now`. Throws when the analysis fails.
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

  const earlier = await earlierDemoMeeting(services, appId);
  const { conversationId, jobId } = earlier ?? (await ingestDemoMeeting(services, appId, now));
  const status = await runJobUntilFinished(services, appId, jobId);
  if (status !== "completed") throw new Error(`the demo meeting's analysis ${status} (job ${jobId})`);

  const { url } = await services.experiences.createSummaryLink(appId, conversationId, {
    name: "verbose-text-summary",
  });
  return {
    appId,
    ...(appSecret !== undefined && { appSecret }),
    conversationId,
    jobId,
    reused: earlier !== null,
    url,
  };
}

/**
 * The demo meeting an earlier run ingested, newest first, with its latest job: analysed, or still being
 * analysed (a run that was stopped, or a server that took the job). One whose analysis failed is not reused.
 */
async function earlierDemoMeeting(services: Services, appId: string): Promise<Accepted | null> {
  const rows = await services.conversations.listConversationRows(appId, {
    limit: 100,
    offset: 0,
    nameContains: DEMO_CONVERSATION_NAME,
  });
  const ids = rows
    .filter(({ conversation }) => conversation.name === DEMO_CONVERSATION_NAME)
    .map(({ conversation }) => conversation.id);
  const latestJobs = await services.jobs.latestJobs(appId, ids);
  for (const conversationId of ids) {
    const job = latestJobs.get(conversationId);
    if (job !== undefined && job.status !== "failed") return { conversationId, jobId: job.id };
  }
  return null;
}

function ingestDemoMeeting(services: Services, appId: string, now: Date): Promise<Accepted> {
  const meeting = loadMeeting(DEMO_MEETING.split, DEMO_MEETING.file);
  const start = new Date(now.getTime() - spokenTurns(meeting).length * 5000);
  const body = toProcessTextBody(meeting, start, DEMO_CONVERSATION_NAME);
  return services.ingestion.submit(appId, submissionFromText(body));
}

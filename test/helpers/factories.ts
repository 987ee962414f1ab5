import { expect } from "vitest";
import type { ProcessTextBody } from "../../src/modules/ingestion/ingestion.schemas.ts";
import { apiClient, type Answer } from "./api.ts";
import type { TestServer } from "./app.ts";
import type * as Body from "./bodies.ts";
import { loadMeeting, toProcessTextBody } from "./qmsum.ts";

type IncomingMessage = ProcessTextBody["messages"][number];

const MEETING_START = "2026-11-02T15:00:00Z";

/** One message by `name`, optionally timed `[start, end]` seconds after `start` (a Monday afternoon). */
export function message(
  content: string,
  name: string,
  seconds?: [number, number],
  start = MEETING_START,
): IncomingMessage {
  const at = (s: number) => new Date(Date.parse(start) + s * 1000).toISOString();
  return {
    payload: { content },
    from: { name },
    ...(seconds && { duration: { startTime: at(seconds[0]), endTime: at(seconds[1]) } }),
  };
}

/** `[speaker, text]` rows as messages 5 s apart, each 4 s long; the first is the `first`-th line of the meeting. */
export function timedLines(
  rows: [name: string, content: string][],
  { start = MEETING_START, first = 0 }: { start?: string; first?: number } = {},
): IncomingMessage[] {
  return rows.map(([name, content], i) => {
    const at = (first + i) * 5;
    return message(content, name, [at, at + 4], start);
  });
}

/**
 * A planning meeting about a new website, written for the tests as `[speaker, text]` rows: two decisions, each
 * accepted by the others (stated in lines 6 and 15), among small talk, a hedged idea and an agenda line.
 */
export const WEBSITE_PLANNING: [string, string][] = [
  ["Ana", "Good morning everyone, thanks for coming to the planning meeting about the new website."],
  ["Ben", "Morning."],
  ["Ana", "I looked at the hosting offers and I think they are all a bit expensive for us this year."],
  ["Cleo", "I wonder if we could run it on our own server in the office instead of paying for hosting."],
  ["Ben", "Maybe, but I am not sure who would look after it at night."],
  ["Cleo", "Yeah, that is the problem."],
  ["Ana", "So we decided to stay with the current hosting company for another year."],
  ["Ben", "Yeah, agreed."],
  ["Cleo", "Okay, sure."],
  ["Ben", "I had a sandwich for lunch and it was quite good actually."],
  ["Cleo", "Did you see the football match yesterday evening on television?"],
  ["Ben", "No, I was out with my sister and her dog all evening."],
  ["Ana", "Then the next thing is the colour of the logo on the front page."],
  ["Cleo", "I like blue but I could live with green if you prefer it for the logo."],
  ["Ben", "Blue is fine with me."],
  ["Ana", "Okay, so the logo will be blue and we will drop the green version."],
  ["Cleo", "Yeah."],
  ["Ben", "Sounds good."],
  ["Ana", "Thanks everyone, see you next week."],
];

/**
 * A launch meeting between Bob and Dana as `[speaker, text]` rows: Dana's action item (line 1), two questions,
 * Bob's follow-up (line 4) and what must be finished before the launch.
 */
export const LAUNCH_MEETING: [string, string][] = [
  ["Bob", "Okay, let's go over the launch plan for the new billing page."],
  ["Dana", "Dana will send the budget numbers by Friday."],
  ["Bob", "Can you also check the pricing with the finance team?"],
  ["Dana", "Sure. What is the deadline for the marketing copy?"],
  ["Bob", "I'll follow up with legal about the terms next week."],
  ["Dana", "We need to finish the billing page design before the launch."],
];

/** A small meeting, processed: three lines by two speakers, in which Ann Lee asks Bob Stone for a report. */
export async function planningMeeting(
  server: TestServer,
  token: string,
  name = "Weekly planning",
): Promise<string> {
  const { conversationId } = await server.ingest(token, {
    name,
    messages: timedLines([
      ["Ann Lee", "Good morning, let's start with the budget."],
      ["Ann Lee", "Bob, can you send the report by Friday?"],
      ["Bob Stone", "Sure, I will send the report tomorrow."],
    ]),
  });
  return conversationId;
}

/** A QMSum meeting (`datasets/qmsum/val`), ingested and analysed. */
export async function ingestMeeting(server: TestServer, token: string, file: string) {
  return server.ingest(token, toProcessTextBody(loadMeeting("val", file)));
}

/** POST /v1/conversations/{id}/experiences, which must answer 200. */
export async function createLink(
  server: TestServer,
  token: string,
  conversationId: string,
  body: Record<string, unknown>,
): Promise<Body.ExperienceCreated> {
  const created = await apiClient(server.url, token).post<Body.ExperienceCreated>(
    `/v1/conversations/${conversationId}/experiences`,
    body,
  );
  expect(created.status, created.text).toBe(200);
  return created.body;
}

/** The link's path (and query) on the test server, whatever public URL it was made for. */
export function onServer(server: TestServer, url: string): string {
  const parsed = new URL(url);
  return server.url + parsed.pathname + parsed.search;
}

/** An edit through a link (PATCH under /s/{token}), as the page sends it. */
export function editThroughLink(
  server: TestServer,
  linkUrl: string,
  path: string,
  body: unknown,
): Promise<Answer<Body.MessageSaved>> {
  return apiClient(server.url).patch<Body.MessageSaved>(new URL(linkUrl).pathname + path, body);
}

/** POST /v1/process/transcript with a transcript file's text as the body. */
export function importTranscript(
  server: TestServer,
  token: string,
  body: string,
  type: string,
  query = "",
): Promise<Answer<Body.Accepted & Body.ErrorBody>> {
  return apiClient(server.url, token).post<Body.Accepted & Body.ErrorBody>(
    `/v1/process/transcript${query}`,
    body,
    {
      headers: { "content-type": type },
    },
  );
}

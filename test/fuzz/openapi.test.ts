import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, readBody } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { operationsOf, requestArbitrary, type FuzzContext, type FuzzRequest } from "./requests.ts";

/**
 * The fuzz tier: requests generated from the server's own /openapi.json (see requests.ts) against the
 * real app over real HTTP, on every dialect. No answer may be a 5xx, and every 4xx says what was wrong in
 * a JSON `{"message"}`. RECAP_FUZZ_RUNS sets the number of requests per dialect; RECAP_FUZZ_SEED replays a
 * run (each run prints its seed).
 */

function numberFromEnv(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0)
    throw new Error(`${name} must be a whole number (got "${value}")`);
  return parsed;
}

const RUNS = numberFromEnv("RECAP_FUZZ_RUNS", 2000);
const SEED = numberFromEnv("RECAP_FUZZ_SEED", Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 4;

interface Failure {
  index: number;
  request: FuzzRequest;
  answer: string;
}

const describeRequest = ({ index, request, answer }: Failure) =>
  `#${index} ${request.method} ${request.path.slice(0, 300)} [${request.note}] ${JSON.stringify(request.headers)}\n` +
  `  body: ${request.body === undefined ? "(none)" : JSON.stringify(request.body.slice(0, 400))}\n  → ${answer.slice(0, 300)}`;

describe.each(await dialects())("fuzzing the API from /openapi.json on %s", (dialect) => {
  let server: TestServer;
  let context: FuzzContext;

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      env: {
        RECAP_RATE_LIMIT_PER_MINUTE: "10000000",
        RECAP_TOKEN_RATE_LIMIT_PER_MINUTE: "10000000",
        // Schema-shaped webhook URLs point at a closed local port: admitted, so such bodies reach the service.
        RECAP_WEBHOOK_ALLOW_HOSTS: "127.0.0.1",
        // A speech server on a closed local port that would label speakers: media submissions are checked and
        // admitted (without an engine, or a way to diarize, they are refused with 503: the operator's to fix).
        RECAP_ASR_URL: "http://127.0.0.1:9/v1",
        RECAP_ASR_RESPONSE_FORMAT: "diarized_json",
        RECAP_MEDIA_ALLOW_HOSTS: "127.0.0.1",
      },
    });
    const app = await server.newApp();
    const other = await server.newApp();
    const ids: Record<string, string[]> = {
      conversationId: [],
      memberId: [],
      jobId: [],
      experienceId: [],
      trackerId: [],
    };
    for (const name of ["Planning", "Retro", "Budget"]) {
      const { conversationId, jobId } = await server.ingest(app.token, {
        name,
        messages: [
          {
            payload: { content: "Dana will send the budget by Friday." },
            from: { name: "Dana", email: "dana@example.com" },
          },
          { payload: { content: "Can Lee review it next week?" }, from: { name: "Lee" } },
        ],
      });
      ids.conversationId?.push(conversationId);
      ids.jobId?.push(jobId);
      const members = await readBody<Body.MemberList>(
        server,
        app.token,
        `/v1/conversations/${conversationId}/members`,
      );
      ids.memberId?.push(...members.members.map((member) => member.id));
      const created = await server.api(app.token, `/v1/conversations/${conversationId}/experiences`, {
        method: "POST",
        body: { name: "verbose-text-summary" },
      });
      expect(created.status).toBe(200);
      const list = await readBody<Body.ExperienceList>(
        server,
        app.token,
        `/v1/conversations/${conversationId}/experiences`,
      );
      ids.experienceId?.push(...list.experiences.map((experience) => experience.id));
    }
    const trackers = await apiClient(server.url, app.token).post<Body.TrackerList>("/v1/manage/trackers", [
      { name: "Budget", vocabulary: ["budget", "numbers"] },
      { name: "Review", vocabulary: ["review"] },
    ]);
    expect(trackers.status).toBe(201);
    ids.trackerId?.push(...trackers.body.trackers.map((tracker) => tracker.id));
    context = {
      token: app.token,
      otherAppToken: other.token,
      appId: app.appId,
      appSecret: app.appSecret,
      ids,
    };
  });
  afterAll(() => server.close());

  it(
    `answers every generated request without a 5xx (${RUNS} requests; RECAP_FUZZ_SEED=${SEED} replays)`,
    async () => {
      console.log(`fuzz on ${dialect}: ${RUNS} requests, seed ${SEED} (replay: RECAP_FUZZ_SEED=${SEED})`);
      const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as Parameters<
        typeof operationsOf
      >[0];
      const operations = operationsOf(document);
      expect(operations.length).toBeGreaterThan(15);
      const requests = fc.sample(requestArbitrary(operations, context), { seed: SEED, numRuns: RUNS });

      const statuses = new Map<number, number>();
      const serverErrors: Failure[] = [];
      const shapelessRefusals: Failure[] = [];
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const index = next++;
          const request = requests[index] as FuzzRequest;
          let status: number;
          let text: string;
          try {
            const response = await fetch(server.url + request.path, {
              method: request.method,
              headers: request.headers,
              redirect: "manual",
              ...(request.body !== undefined && { body: request.body }),
            });
            status = response.status;
            text = await response.text();
          } catch (error) {
            serverErrors.push({ index, request, answer: `no answer: ${String(error)}` });
            continue;
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status >= 500) serverErrors.push({ index, request, answer: `${status} ${text}` });
          else if (status >= 400 && !hasMessage(text))
            shapelessRefusals.push({ index, request, answer: `${status} ${text}` });
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));

      const counts = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
      console.log(
        `fuzz on ${dialect}, seed ${SEED}: ${counts.join(", ")}; 5xx or no answer: ${serverErrors.length}`,
      );
      const failures = [...serverErrors, ...shapelessRefusals];
      const byOperation = new Map<string, number>();
      for (const { request } of failures) {
        byOperation.set(request.operation, (byOperation.get(request.operation) ?? 0) + 1);
      }
      for (const [operation, n] of byOperation) console.log(`  ${n} × ${operation}`);
      for (const failure of failures.slice(0, 25)) console.log(describeRequest(failure));
      expect(
        serverErrors.map((failure) => failure.index),
        `5xx answers (seed ${SEED})`,
      ).toEqual([]);
      expect(
        shapelessRefusals.map((failure) => failure.index),
        `4xx without {"message"} (seed ${SEED})`,
      ).toEqual([]);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    },
    Math.max(120_000, RUNS * 30),
  );
});

function hasMessage(text: string): boolean {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === "string" && body.message !== "";
  } catch {
    return false;
  }
}

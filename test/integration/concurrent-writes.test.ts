import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyOf, readBody } from "../helpers/api.ts";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";

const ROUNDS = 4;

describe.each(await dialects())("concurrent page edits and appends from two processes on %s", (dialect) => {
  let testDatabase: TestDatabase;
  let servers: TestServer[] = [];
  beforeAll(async () => {
    testDatabase = await createTestDatabase(dialect);
    servers = [
      await startTestServer(dialect, { testDatabase, env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" } }),
      await startTestServer(dialect, { testDatabase, env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" } }),
    ];
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await testDatabase.drop();
  });

  it("answers every writer with success or a 409 to retry, never a 500, and leaves the conversation whole", async () => {
    const [one, two] = servers as [TestServer, TestServer];
    const { token } = await one.newApp();
    const speakers = ["Ann", "Bob", "Cy", "Dana"];
    const line = (i: number) => ({
      payload: { content: `Line ${i}: we should send the report by Friday, right?` },
      from: { name: speakers[i % speakers.length] },
    });
    const { conversationId } = await one.ingest(token, {
      name: "Busy meeting",
      messages: Array.from({ length: 12 }, (_, i) => line(i)),
    });
    const created = await one.api(token, `/v1/conversations/${conversationId}/experiences`, {
      method: "POST",
      body: { name: "verbose-text-summary" },
    });
    const linkPath = new URL((await bodyOf<Body.ExperienceCreated>(created)).url).pathname;
    const messages = (
      await readBody<Body.MessageList>(one, token, `/v1/conversations/${conversationId}/messages`)
    ).messages;
    const members = (
      await readBody<Body.MemberList>(one, token, `/v1/conversations/${conversationId}/members`)
    ).members;

    const patch = (server: TestServer, path: string, body: unknown) =>
      fetch(`${server.url}${linkPath}${path}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const requests: (() => Promise<Response>)[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      messages.forEach((message, i) => {
        const server = (round + i) % 2 === 0 ? one : two;
        requests.push(() =>
          patch(server, `/messages/${message.id}`, { text: `Edited ${round}-${i}, send it by Monday?` }),
        );
        requests.push(() => patch(server, `/messages/${message.id}`, { hidden: round % 2 === 0 }));
      });
      members.forEach((member, i) => {
        const server = (round + i) % 2 === 0 ? two : one;
        requests.push(() => patch(server, `/members/${member.id}`, { name: `Speaker ${i} (${round})` }));
      });
      for (const server of [one, two]) {
        requests.push(() =>
          server.api(token, `/v1/process/text/${conversationId}`, {
            method: "PUT",
            body: { messages: [line(round), line(round + 1)] },
          }),
        );
      }
    }
    const answers = await Promise.all(
      requests.map(async (send) => {
        const response = await send();
        return {
          status: response.status,
          body: await bodyOf<Partial<Body.MessageSaved>>(response),
        };
      }),
    );

    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => ![200, 201, 409].includes(status))).toEqual([]);
    for (const conflict of answers.filter((answer) => answer.status === 409)) {
      expect(conflict.body.message).toMatch(/try again/);
    }
    expect(statuses.filter((status) => status !== 409).length).toBeGreaterThan(requests.length / 2);

    // Every job started by those writes completes, and the conversation keeps one member per speaker.
    for (const jobId of answers.flatMap((answer) => (answer.body.jobId ? [answer.body.jobId] : []))) {
      expect(await waitForJob(one, token, jobId)).toBe("completed");
    }
    const stored = await one.database.db
      .selectFrom("messages")
      .select("id")
      .where("conversation_id", "=", conversationId)
      .execute();
    expect(stored).toHaveLength(messages.length + 2 * 2 * ROUNDS);
    const after = await readBody<Body.MemberList>(two, token, `/v1/conversations/${conversationId}/members`);
    expect(after.members.map((m) => m.id).sort()).toEqual(members.map((m) => m.id).sort());
  }, 180_000);
});

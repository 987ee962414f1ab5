import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messageOf, readBody } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { dialects } from "../helpers/databases.ts";
import { loadMeeting, meetingFiles, spokenTurns, toProcessTextBody } from "../helpers/qmsum.ts";
import { until } from "../helpers/wait.ts";

const text = (content: string, from?: Record<string, string>, startTime?: string, endTime?: string) => ({
  payload: { content },
  ...(from && { from }),
  ...(startTime && endTime && { duration: { startTime, endTime } }),
});

describe.each(await dialects())("conversations on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { env: { RECAP_WEBHOOK_ALLOW_HOSTS: "127.0.0.1" } });
  });
  afterAll(() => server.close());

  const ingest = (token: string, body: unknown, conversationId?: string) =>
    server.ingest(token, body, conversationId);

  it("ingests a real QMSum meeting: every turn a message, each speaker one member in order of first appearance", async () => {
    const { token } = await server.newApp();
    const meeting = loadMeeting("val", meetingFiles("val")[0] ?? "");
    const { conversationId } = await ingest(token, toProcessTextBody(meeting));

    const members = (
      await readBody<Body.MemberList>(server, token, `/v1/conversations/${conversationId}/members`)
    ).members;
    const speakers = [...new Set(spokenTurns(meeting).map((turn) => turn.speaker.trim()))];
    expect(members.map((m) => m.name)).toEqual(speakers);
    for (const member of members) expect(member.id).toMatch(/^[0-9a-f-]{36}$/);

    const messages = (
      await readBody<Body.MessageList>(server, token, `/v1/conversations/${conversationId}/messages`)
    ).messages;
    expect(messages).toHaveLength(spokenTurns(meeting).length);
    expect(messages[1]?.text).toBe(spokenTurns(meeting)[1]?.content);
    expect(messages[1]?.timeOffset).toBe(5);
    expect(messages[1]?.duration).toBe(4);
    const byName = new Map(members.map((m) => [m.name, m.id]));
    expect(messages[0]?.from.id).toBe(byName.get(spokenTurns(meeting)[0]?.speaker.trim() ?? ""));

    const conversation = await readBody<Body.Conversation>(
      server,
      token,
      `/v1/conversations/${conversationId}`,
    );
    expect(conversation).toMatchObject({
      id: conversationId,
      type: "meeting",
      name: meeting.file.replace(".json", ""),
    });
    expect(conversation.startTime).toBe("2026-11-02T15:00:00.000Z");
    expect(Date.parse(conversation.endTime)).toBeGreaterThan(Date.parse(conversation.startTime));
  });

  it("identifies speakers by e-mail, then user id, then name, and keeps member ids across appends", async () => {
    const { token } = await server.newApp();
    const { conversationId } = await ingest(token, {
      name: "Standup",
      messages: [
        text("Morning all", { name: "Dana", email: "Dana@Example.com" }),
        text("Hi", { name: "Bob", userId: "u-1" }),
        text("Me again", { name: "Dana S.", userId: "dana@example.com" }),
        text("Anonymous note"),
        text("Hello", { name: "  Carol " }),
      ],
    });
    const first = (
      await readBody<Body.MemberList>(server, token, `/v1/conversations/${conversationId}/members`)
    ).members;
    expect(first.map((m) => m.name)).toEqual(["Dana", "Bob", "Carol"]);
    expect(first[0]?.email).toBe("Dana@Example.com");
    expect(first[1]).not.toHaveProperty("email");

    await ingest(
      token,
      { messages: [text("Back", { userId: "u-1" }), text("New here", { name: "Eve" })] },
      conversationId,
    );
    const after = (
      await readBody<Body.MemberList>(server, token, `/v1/conversations/${conversationId}/members`)
    ).members;
    expect(after.map((m) => m.id).slice(0, 3)).toEqual(first.map((m) => m.id));
    expect(after.map((m) => m.name)).toEqual(["Dana", "Bob", "Carol", "Eve"]);
    const messages = (
      await readBody<Body.MessageList>(server, token, `/v1/conversations/${conversationId}/messages`)
    ).messages;
    expect(messages.map((m) => m.text)).toEqual([
      "Morning all",
      "Hi",
      "Me again",
      "Anonymous note",
      "Hello",
      "Back",
      "New here",
    ]);
    expect(messages[5]?.from.id).toBe(first[1]?.id);
    expect(messages[3]?.from).toEqual({});
  });

  it("renames a member, and merges two members when the e-mail belongs to another", async () => {
    const { token } = await server.newApp();
    const { conversationId } = await ingest(token, {
      messages: [
        text("I'll draft it", { name: "Dana", email: "dana@example.com" }),
        text("Thanks", { name: "Bob" }),
        text("By Friday?", { name: "D. Smith" }),
      ],
    });
    const members = (
      await readBody<Body.MemberList>(server, token, `/v1/conversations/${conversationId}/members`)
    ).members;
    const [dana, bob, alias] = members;
    if (!dana || !bob || !alias) throw new Error("expected three members");

    const rename = await server.api(token, `/v1/conversations/${conversationId}/members/${bob.id}`, {
      method: "PUT",
      body: { id: bob.id, name: "Robert", email: "bob@example.com" },
    });
    expect(rename.status).toBe(200);
    expect(await rename.json()).toEqual({
      message: expect.stringContaining(
        `Member with id: ${bob.id} for conversationId: ${conversationId} updated`,
      ) as unknown,
    });

    const merge = await server.api(token, `/v1/conversations/${conversationId}/members/${alias.id}`, {
      method: "PUT",
      body: { id: alias.id, name: "Dana Smith", email: "DANA@example.com" },
    });
    expect(merge.status).toBe(200);

    const after = (
      await readBody<Body.MemberList>(server, token, `/v1/conversations/${conversationId}/members`)
    ).members;
    expect(after).toEqual([
      { id: dana.id, name: "Dana Smith", email: "DANA@example.com" },
      { id: bob.id, name: "Robert", email: "bob@example.com" },
    ]);
    const messages = (
      await readBody<Body.MessageList>(server, token, `/v1/conversations/${conversationId}/messages`)
    ).messages;
    expect(messages.map((m) => m.from.id)).toEqual([dana.id, bob.id, dana.id]);
    expect(messages[2]?.from.name).toBe("Dana Smith");

    await ingest(token, { messages: [text("Later", { name: "D. Smith" })] }, conversationId);
    const final = (
      await readBody<Body.MemberList>(server, token, `/v1/conversations/${conversationId}/members`)
    ).members;
    expect(final.map((m) => m.id)).toEqual([dana.id, bob.id]);

    const mismatch = await server.api(token, `/v1/conversations/${conversationId}/members/${bob.id}`, {
      method: "PUT",
      body: { id: dana.id, name: "X" },
    });
    expect(mismatch.status).toBe(400);
    expect(await messageOf(mismatch)).toMatch(/^id /);
  });

  it("lists with limit and offset, deletes with everything derived, and hides one app's data from another", async () => {
    const { token } = await server.newApp();
    const other = await server.newApp();
    const ids: string[] = [];
    for (const name of ["one", "two", "three"]) {
      ids.push(
        (await ingest(token, { name, messages: [text(`Hello from ${name}`, { name: "Ann" })] }))
          .conversationId,
      );
    }
    const page = await readBody<Body.ConversationList>(server, token, "/v1/conversations?limit=2&offset=1");
    expect(page.conversations).toHaveLength(2);
    const all = await readBody<Body.ConversationList>(server, token, "/v1/conversations");
    expect(all.conversations.map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(
      (await readBody<Body.ConversationList>(server, other.token, "/v1/conversations")).conversations,
    ).toEqual([]);

    const target = ids[0] ?? "";
    for (const path of [
      "",
      "/messages",
      "/members",
      "/summary",
      "/topics",
      "/questions",
      "/action-items",
      "/follow-ups",
    ]) {
      const response = await server.api(other.token, `/v1/conversations/${target}${path}`);
      expect(response.status, path).toBe(404);
    }
    expect((await server.api(other.token, `/v1/conversations/${target}`, { method: "DELETE" })).status).toBe(
      404,
    );
    expect(
      (
        await server.api(other.token, `/v1/process/text/${target}`, {
          method: "PUT",
          body: { messages: [text("x")] },
        })
      ).status,
    ).toBe(404);

    const deleted = await server.api(token, `/v1/conversations/${target}`, {
      method: "DELETE",
      headers: { "content-type": "application/json" },
    });
    expect(deleted.status).toBe(200);
    expect((await server.api(token, `/v1/conversations/${target}`)).status).toBe(404);
    expect((await server.api(token, `/v1/conversations/${target}/messages`)).status).toBe(404);
    const leftovers = await server.database.db
      .selectFrom("messages")
      .select("id")
      .where("conversation_id", "=", target)
      .execute();
    expect(leftovers).toEqual([]);
  });

  it("answers jobs only to their app", async () => {
    const { token } = await server.newApp();
    const other = await server.newApp();
    const { jobId } = await ingest(token, { messages: [text("hi", { name: "A" })] });
    expect((await server.api(other.token, `/v1/job/${jobId}`)).status).toBe(404);
    const job = await readBody<Body.Job>(server, token, `/v1/job/${jobId}`);
    expect(job).toEqual({ id: jobId, status: "completed" });
  });

  describe("webhooks", () => {
    let receiver: Server;
    let receiverUrl = "";
    const received: { jobId: string; status: string }[] = [];
    beforeAll(async () => {
      receiver = createServer((request: IncomingMessage, response) => {
        let body = "";
        request.on("data", (chunk: Buffer) => (body += chunk.toString()));
        request.on("end", () => {
          received.push(JSON.parse(body) as { jobId: string; status: string });
          response.end("ok");
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      const address = receiver.address();
      if (address === null || typeof address === "string") throw new Error("no address");
      receiverUrl = `http://127.0.0.1:${address.port}/hook`;
    });
    afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

    it("POSTs every status change of the job, in order", async () => {
      const { token } = await server.newApp();
      const { jobId } = await ingest(token, {
        webhookUrl: receiverUrl,
        messages: [text("Hello", { name: "Ann" })],
      });
      // Deliveries go to another server: wait for them from outside, then compare what came.
      await until(() => received.filter((e) => e.jobId === jobId).length >= 3, "three events", {
        tries: 100,
      }).catch(() => undefined);
      expect(received.filter((e) => e.jobId === jobId).map((e) => e.status)).toEqual([
        "scheduled",
        "in_progress",
        "completed",
      ]);
    });
  });
});

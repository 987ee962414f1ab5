import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, waitForJob, type TestServer } from "../helpers/app.ts";
import { dialects } from "../helpers/databases.ts";
import { loadMeeting, meetingFiles, spokenTurns, toProcessTextBody } from "../helpers/qmsum.ts";

interface RawResponse {
  status: number;
  text: string;
  body: unknown;
}
type Callback = (error: (Error & { status?: number }) | null, data: unknown, response: RawResponse) => void;
interface ApiClient {
  basePath: string;
  authentications: { jwt: { apiKey?: string } };
  callApi(...args: unknown[]): unknown;
}
interface SymblModule {
  ApiClient: (new () => ApiClient) & { convertToType(data: unknown, type: "Date"): unknown };
  AuthenticationApi: new (client: ApiClient) => { generateToken(body: unknown, callback: Callback): void };
  ConversationsApi: new (client: ApiClient) => {
    getActionItemsByConversationId(id: string, callback: Callback): void;
    getMembersByConversationId(id: string, callback: Callback): void;
    getConversationById(id: string, callback: Callback): void;
  };
}

// Symbl's official client, as its users load it (CommonJS).
const symbl = createRequire(import.meta.url)("@symblai/api-client") as SymblModule;

function call(run: (callback: Callback) => void): Promise<{ data: unknown; response: RawResponse }> {
  return new Promise((resolve, reject) =>
    run((error, data, response) => (error ? reject(error) : resolve({ data, response }))),
  );
}

describe.each(await dialects())("Symbl's npm client against a running server on %s", (dialect) => {
  let server: TestServer;
  let client: ApiClient;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    client = new symbl.ApiClient();
    client.basePath = server.url;
  });
  afterAll(() => server.close());

  it("generates a token, is refused with a wrong secret, and ingests, reads members and the conversation", async () => {
    const { appId, appSecret } = await server.newApp();
    const auth = new symbl.AuthenticationApi(client);

    const wrong = call((cb) => auth.generateToken({ type: "application", appId, appSecret: "nope" }, cb));
    await expect(wrong).rejects.toMatchObject({ status: 401 });

    const { data: token } = await call((cb) =>
      auth.generateToken({ type: "application", appId, appSecret }, cb),
    );
    const accessToken = (token as { accessToken: string }).accessToken;
    expect(accessToken.split(".")).toHaveLength(3);
    client.authentications.jwt.apiKey = accessToken;

    const meeting = loadMeeting("val", meetingFiles("val")[0] ?? "");
    const { response: processed } = await call((cb) =>
      client.callApi(
        "/v1/process/text",
        "POST",
        {},
        {},
        {},
        {},
        {},
        toProcessTextBody(meeting),
        ["jwt"],
        ["application/json"],
        ["application/json"],
        Object,
        cb,
      ),
    );
    expect(processed.status).toBe(201);
    const { conversationId, jobId } = processed.body as { conversationId: string; jobId: string };
    expect(await waitForJob(server, accessToken, jobId)).toBe("completed");

    const conversations = new symbl.ConversationsApi(client);
    const { data: members, response } = await call((cb) =>
      conversations.getMembersByConversationId(conversationId, cb),
    );
    const raw = response.body as { members: { id: string; name: string }[] };
    const speakers = [...new Set(spokenTurns(meeting).map((turn) => turn.speaker.trim()))];
    expect(raw.members.map((m) => m.name)).toEqual(speakers);
    for (const member of raw.members) expect(member.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((members as { members: { name: string }[] }).members.map((m) => m.name)).toEqual(speakers);

    const { data: conversation } = await call((cb) => conversations.getConversationById(conversationId, cb));
    expect(conversation).toMatchObject({ id: conversationId, type: "meeting" });
    expect((conversation as { members: unknown[] }).members).toHaveLength(speakers.length);
  });

  it("sends dueBy as a full ISO-8601 date-time, which the client's date parser reads as that instant", async () => {
    const { appId, appSecret } = await server.newApp();
    const { data: token } = await call((cb) =>
      new symbl.AuthenticationApi(client).generateToken({ type: "application", appId, appSecret }, cb),
    );
    const accessToken = (token as { accessToken: string }).accessToken;
    client.authentications.jwt.apiKey = accessToken;
    const { conversationId } = await server.ingest(accessToken, {
      messages: [
        {
          payload: { content: "Dana will send the budget numbers by Friday." },
          from: { name: "Dana" },
          // A Monday: "by Friday" is that week's Friday.
          duration: { startTime: "2026-11-02T10:00:00.000Z", endTime: "2026-11-02T10:00:04.000Z" },
        },
      ],
    });

    const { response } = await call((cb) =>
      new symbl.ConversationsApi(client).getActionItemsByConversationId(conversationId, cb),
    );
    const [item] = (response.body as { actionItems: { dueBy?: string }[] }).actionItems;
    // Symbl sent "2020-02-10T07:00:00.000Z"; a bare "2026-11-06" is a date, not a date-time.
    expect(item?.dueBy).toBe("2026-11-06T00:00:00.000Z");
    const parsed = symbl.ApiClient.convertToType(item?.dueBy, "Date");
    expect(parsed).toBeInstanceOf(Date);
    expect((parsed as Date).toISOString()).toBe(item?.dueBy);
  });
});

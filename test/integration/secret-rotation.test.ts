import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, generateToken } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import type * as Body from "../helpers/bodies.ts";
import { createTestDatabase, dialects, type TestDatabase } from "../helpers/databases.ts";
import { ROOT } from "../helpers/processes.ts";

const run = promisify(execFile);

describe.each(await dialects())("secret rotation on %s", (dialect) => {
  let testDatabase: TestDatabase;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    testDatabase = await createTestDatabase(dialect);
    for (let i = 0; i < 2; i++) servers.push(await startTestServer(dialect, { testDatabase }));
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await testDatabase.drop();
  });

  const generate = (server: TestServer, appId: string, appSecret: string) =>
    generateToken(server.url, appId, appSecret);

  it("ends every token issued before `bin/recap apps rotate-secret` at once on both processes", async () => {
    const [first, second] = servers;
    if (!first || !second) throw new Error("two servers expected");
    const { appId, appSecret } = await first.newApp();
    const other = await first.newApp();
    const tokenResponse = await generate(first, appId, appSecret);
    expect(tokenResponse.status).toBe(200);
    const { accessToken } = tokenResponse.body;
    for (const server of servers)
      expect((await server.api(accessToken, "/v1/conversations")).status).toBe(200);
    // The members route checks the generation in its own query, not in the hook: it must end the token too.
    const { conversationId } = await first.ingest(accessToken, {
      messages: [{ payload: { content: "Hello." }, from: { name: "Ann Lee" } }],
    });
    const members = `/v1/conversations/${conversationId}/members`;
    for (const server of servers) expect((await server.api(accessToken, members)).status).toBe(200);

    const target =
      testDatabase.target.dialect === "sqlite"
        ? `sqlite:${testDatabase.target.path}`
        : testDatabase.target.url;
    const rotated = await run(join(ROOT, "bin", "recap"), ["apps", "rotate-secret", appId, "--json"], {
      env: { ...process.env, DATABASE_URL: target, RECAP_SECRET: "x".repeat(32) },
    });
    const { appSecret: newSecret } = JSON.parse(rotated.stdout) as { appSecret: string };

    for (const server of servers) {
      const response = await apiClient(server.url, accessToken).get<Body.ErrorBody>("/v1/conversations");
      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/rotated/);
      const revokedMembers = await apiClient(server.url, accessToken).get<Body.ErrorBody>(members);
      expect(revokedMembers.status).toBe(401);
      expect(revokedMembers.body.message).toMatch(/rotated/);
      // So does creating a link, whatever the body: nothing is stored.
      for (const body of [{ name: "verbose-text-summary" }, { name: "slideshow" }]) {
        const link = await apiClient(server.url, accessToken).post<Body.ErrorBody>(
          `/v1/conversations/${conversationId}/experiences`,
          body,
        );
        expect(link.status).toBe(401);
        expect(link.body.message).toMatch(/rotated/);
      }
      expect((await server.api(other.token, "/v1/conversations")).status).toBe(200);
      expect((await server.api(other.token, members)).status).toBe(404);
    }
    expect((await generate(second, appId, appSecret)).status).toBe(401);
    const fresh = (await generate(second, appId, newSecret)).body;
    for (const server of servers) {
      expect((await server.api(fresh.accessToken, "/v1/conversations")).status).toBe(200);
      expect((await server.api(fresh.accessToken, members)).status).toBe(200);
      const links = await server.api(fresh.accessToken, `/v1/conversations/${conversationId}/experiences`);
      expect(((await links.json()) as { experiences: unknown[] }).experiences).toEqual([]);
      expect((await server.api(fresh.accessToken, "/v1/conversations/0000000000000000/members")).status).toBe(
        404,
      );
    }
  });
});

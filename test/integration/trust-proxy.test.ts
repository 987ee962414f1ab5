import { describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/app.ts";
import { ConsoleClient } from "../helpers/console.ts";
import { dialects } from "../helpers/databases.ts";

/** A token request as a proxy forwards it for the client at `address`. */
const tokenRequest = (server: TestServer, address: string, credentials: object) =>
  fetch(`${server.url}/oauth2/token:generate`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": address },
    body: JSON.stringify({ type: "application", ...credentials }),
  });

async function withServer(
  dialect: "sqlite" | "postgres",
  env: Record<string, string>,
  work: (server: TestServer) => Promise<void>,
): Promise<void> {
  const server = await startTestServer(dialect, {
    env: { RECAP_TOKEN_RATE_LIMIT_PER_MINUTE: "3", RECAP_RATE_LIMIT_PER_MINUTE: "3", ...env },
  });
  try {
    await work(server);
  } finally {
    await server.close();
  }
}

describe.each(await dialects())("RECAP_TRUST_PROXY on %s", (dialect) => {
  it("counts each forwarded client apart behind a trusted proxy, token requests and page views alike", async () => {
    await withServer(dialect, { RECAP_TRUST_PROXY: "127.0.0.1" }, async (server) => {
      const { appId, appSecret } = await server.newApp();
      for (let client = 1; client <= 6; client++) {
        const answer = await tokenRequest(server, `203.0.113.${client}`, { appId, appSecret });
        expect(answer.status, `client ${client}`).toBe(200);
      }
      const statuses: number[] = [];
      const wrong = { appId, appSecret: "wrong" };
      for (let i = 0; i < 4; i++) statuses.push((await tokenRequest(server, "203.0.113.9", wrong)).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      for (let client = 1; client <= 6; client++) {
        const page = await fetch(`${server.url}/s/no-such-link`, {
          headers: { "x-forwarded-for": `198.51.100.${client}` },
        });
        expect(page.status, `viewer ${client}`).toBe(404);
      }
    });
  });

  it("marks the console cookie Secure when the proxy says the client came over HTTPS", async () => {
    await withServer(dialect, { RECAP_TRUST_PROXY: "1" }, async (server) => {
      const { appId, appSecret } = await server.newApp();
      const client = new ConsoleClient(server);
      const answer = await client.request("/console/sign-in", {
        method: "POST",
        body: new URLSearchParams({ appId, appSecret }),
        headers: {
          "x-forwarded-proto": "https",
          "x-forwarded-host": new URL(server.url).host,
          origin: server.url.replace(/^http:/, "https:"),
        },
      });
      expect(answer.status).toBe(303);
      expect(answer.headers.get("set-cookie")).toMatch(/; Secure/);
    });
  });

  it("believes no forwarded header by default: every client behind a proxy shares one address", async () => {
    await withServer(dialect, {}, async (server) => {
      const { appId, appSecret } = await server.newApp();
      const statuses: number[] = [];
      for (let client = 1; client <= 4; client++) {
        statuses.push((await tokenRequest(server, `203.0.113.${client}`, { appId, appSecret })).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  });
});

import { afterAll, beforeAll } from "vitest";
import { apiClient, type ApiClient } from "./api.ts";
import { startTestServer, type TestServer } from "./app.ts";

export interface SuiteServer {
  readonly server: TestServer;
  /** A token of an app made for the suite. */
  readonly token: string;
  /** Typed requests with that token. */
  readonly api: ApiClient;
}

/**
 * One test server for a describe block: started before its tests with an app of its own, closed after
 * them. Read the fields inside tests (they are set once `beforeAll` has run).
 */
export function suiteServer(
  dialect: "sqlite" | "postgres",
  options: Parameters<typeof startTestServer>[1] = {},
): SuiteServer {
  let server: TestServer | undefined;
  let token = "";
  beforeAll(async () => {
    server = await startTestServer(dialect, options);
    token = (await server.newApp()).token;
  });
  afterAll(() => server?.close());
  const started = () => {
    if (!server) throw new Error("the suite's server is read before beforeAll ran");
    return server;
  };
  return {
    get server() {
      return started();
    },
    get token() {
      return token;
    },
    get api() {
      return apiClient(started().url, token);
    },
  };
}

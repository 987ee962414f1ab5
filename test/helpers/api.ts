import type * as Body from "./bodies.ts";

/** An answer with its body read once: JSON when the server says JSON, else the text. */
export interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A string is sent as it is (with the content type the caller gives); anything else as JSON. */
  body?: unknown;
}

/** Sends one request; a JSON body is parsed, and typed as the caller says the route declares. */
export async function request<T>(
  url: string,
  method: string,
  options: RequestOptions & { token?: string } = {},
): Promise<Answer<T>> {
  const { body, token } = options;
  const response = await fetch(url, {
    method,
    headers: {
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && typeof body !== "string" && { "content-type": "application/json" }),
      ...options.headers,
    },
    ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  const json = (response.headers.get("content-type") ?? "").includes("json");
  // The one cast of a response body in the suites: the route's schema is what the server validated it with.
  return {
    status: response.status,
    headers: response.headers,
    body: (json ? JSON.parse(text) : text) as T,
    text,
  };
}

/** Typed requests against one server, with a Bearer token when one is given. */
export function apiClient(base: string, token?: string) {
  const send =
    (method: string) =>
    <T>(path: string, options: RequestOptions = {}) =>
      request<T>(base + path, method, { ...options, ...(token !== undefined && { token }) });
  const withBody =
    (method: string) =>
    <T>(path: string, body?: unknown, options: RequestOptions = {}) =>
      send(method)<T>(path, { ...options, ...(body !== undefined && { body }) });
  return {
    get: send("GET"),
    delete: send("DELETE"),
    post: withBody("POST"),
    put: withBody("PUT"),
    patch: withBody("PATCH"),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;

/** POST /oauth2/token:generate with an app's credentials, as a client would. */
export function generateToken(base: string, appId: string, appSecret: string): Promise<Answer<Body.Token>> {
  return apiClient(base).post<Body.Token>("/oauth2/token:generate", {
    type: "application",
    appId,
    appSecret,
  });
}

/** GET `path` with `token` on `server`, and its typed body (whatever the status: assert it where it matters). */
export async function readBody<T>(server: { url: string }, token: string, path: string): Promise<T> {
  return (await apiClient(server.url, token).get<T>(path)).body;
}

/** A fetch Response's JSON body, typed as the route declares it (for requests the kit did not send). */
export async function bodyOf<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** The `message` of an error body (src/http/errors.ts answers every error with one). */
export async function messageOf(response: Response): Promise<string> {
  return (await bodyOf<Body.ErrorBody>(response)).message;
}

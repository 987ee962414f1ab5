import type { TestServer } from "./app.ts";

/** The fields of the console's brand form. */
const BRAND_FIELDS = [
  "background",
  "topicsFilter",
  "insightsFilter",
  "fontFamily",
  "logo",
  "favicon",
] as const;

/** A browser-like client of the console: it keeps the session cookie and sends the Origin a page would. */
export class ConsoleClient {
  cookie = "";

  constructor(private readonly server: TestServer) {}

  /** A request as a console page makes it; redirects are returned, not followed. */
  async request(
    path: string,
    init: { method?: string; body?: URLSearchParams | FormData; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const response = await fetch(this.server.url + path, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: {
        ...(this.cookie && { cookie: this.cookie }),
        ...(init.method === "POST" && { origin: this.server.url }),
        ...init.headers,
      },
      ...(init.body !== undefined && { body: init.body }),
    });
    const set = response.headers.get("set-cookie");
    if (set) this.cookie = set.split(";")[0] ?? "";
    return response;
  }

  signIn(appId: string, appSecret: string): Promise<Response> {
    return this.request("/console/sign-in", {
      method: "POST",
      body: new URLSearchParams({ appId, appSecret }),
    });
  }

  /** Posts the import form with a file of this name and content. */
  import(name: string, fileName: string, content: string): Promise<Response> {
    const form = new FormData();
    form.set("name", name);
    form.set("file", new Blob([content]), fileName);
    return this.request("/console/import", { method: "POST", body: form });
  }

  /** Posts the settings form (frame ancestors one origin a line). */
  saveSettings(form: {
    name: string;
    customDomain: string;
    frameAncestors: string;
    voiceProfiles?: "on";
  }): Promise<Response> {
    return this.request("/console/settings", { method: "POST", body: new URLSearchParams(form) });
  }

  /** Posts the brand form with the fields given, the others empty, as the page sends a field left blank. */
  saveBrand(fields: Partial<Record<(typeof BRAND_FIELDS)[number], string>>): Promise<Response> {
    const blank = Object.fromEntries(BRAND_FIELDS.map((field) => [field, ""]));
    return this.request("/console/settings/brand", {
      method: "POST",
      body: new URLSearchParams({ ...blank, ...fields }),
    });
  }
}

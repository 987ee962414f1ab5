import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, TestClock, type TestServer } from "../helpers/app.ts";
import { generateToken } from "../helpers/api.ts";
import { accessible, browserSuite, chromiumAvailable, signInToConsole } from "./browser.ts";

const available = chromiumAvailable();

/** A page of another origin (`host` and a port of its own) whose form posts itself to `action` when opened. */
async function serveForgery(host: string, action: string, fields: Record<string, string>): Promise<Server> {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join("");
  const forgery = createServer((_request, response) => {
    response.setHeader("content-type", "text/html; charset=utf-8");
    response.end(
      `<!doctype html><title>Win a prize</title><form method="post" action="${action}">${inputs}</form>` +
        "<script>document.forms[0].submit()</script>",
    );
  });
  await new Promise<void>((resolve) => forgery.listen(0, host, resolve));
  return forgery;
}

/** A page of another port of the console's host that sets these cookies (Set-Cookie lines) when opened. */
async function servePlanter(cookies: string[]): Promise<Server> {
  const planter = createServer((_request, response) => {
    response.setHeader("set-cookie", cookies);
    response.setHeader("content-type", "text/html; charset=utf-8");
    response.end("<!doctype html><title>Nothing to see</title><p>Nothing to see here.");
  });
  await new Promise<void>((resolve) => planter.listen(0, "127.0.0.1", resolve));
  return planter;
}

describe.skipIf(!available)("the console's settings and defences in Chromium", () => {
  const clock = new TestClock();
  const suite = browserSuite({ clock });
  let limited: TestServer;

  beforeAll(async () => {
    limited = await startTestServer("sqlite", { env: { RECAP_TOKEN_RATE_LIMIT_PER_MINUTE: "3" } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  async function signIn(
    on: TestServer,
    appId: string,
    appSecret: string,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signInToConsole(page, on.url, appId, appSecret);
    return { context, page };
  }

  const nav = (page: Page, name: string) =>
    page.getByRole("navigation", { name: "Console" }).getByRole("link", { name }).click();

  it("changes settings, refusing a bad domain next to its field, and rotates the secret shown once", async () => {
    const { server } = suite;
    const { appId, appSecret } = await server.newApp();
    const { context, page } = await signIn(server, appId, appSecret);
    const bystander = await signIn(server, appId, appSecret);

    await nav(page, "Settings");
    await page.getByRole("heading", { name: "Settings", exact: true }).waitFor();
    expect(await page.locator(".facts").textContent()).toContain(appId);
    await accessible(page);

    await page.getByLabel("Name").fill("Team recaps");
    await page.getByLabel("Custom domain").fill("https://recaps.example.com");
    await page.getByLabel("Frame ancestors").fill("https://intranet.example\nhttps://wiki.example");
    await page.getByRole("button", { name: "Save settings" }).click();
    const domain = page.getByLabel("Custom domain");
    await expect.poll(() => domain.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#field-customDomain-error").textContent()).toMatch(
      /^Custom domain must be a host name/,
    );
    expect(await domain.getAttribute("aria-describedby")).toContain("field-customDomain-error");
    expect(await page.getByLabel("Name").inputValue()).toBe("Team recaps");
    expect((await server.services.apps.getApp(appId)).name).toBe("Test app");
    await accessible(page);

    await domain.fill("recaps.example.com");
    await page.getByLabel("Keep voice profiles").check();
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor();
    expect(await server.services.apps.getApp(appId)).toMatchObject({
      name: "Team recaps",
      customDomain: "recaps.example.com",
      frameAncestors: ["https://intranet.example", "https://wiki.example"],
      voiceProfiles: true,
    });
    expect(await page.getByLabel("Keep voice profiles").isChecked()).toBe(true);
    await accessible(page);

    await page.getByRole("link", { name: "Rotate the app secret…" }).click();
    await page.getByRole("heading", { name: "Rotate the app secret?" }).waitFor();
    await accessible(page);
    const answer = page.waitForResponse((response) => response.request().method() === "POST");
    await page.getByRole("button", { name: "Rotate the app secret" }).click();
    expect((await answer).headers()["cache-control"]).toContain("no-store");
    const secret = await page.getByLabel("New app secret").inputValue();
    expect(secret).toHaveLength(128);
    await accessible(page);
    expect((await generateToken(server.url, appId, secret)).status).toBe(200);
    expect((await generateToken(server.url, appId, appSecret)).status).toBe(401);

    // This owner stays signed in; the other session has ended.
    await nav(page, "Settings");
    await page.getByRole("heading", { name: "Settings", exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await nav(bystander.page, "Settings");
    await bystander.page.getByRole("heading", { name: "Sign in" }).waitFor();
    await bystander.context.close();
    await context.close();
  }, 60_000);

  it("shows a wrong secret next to its field, then limits the attempts", async () => {
    const { browser } = suite;
    const { appId } = await limited.newApp();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${limited.url}/console/sign-in`);
    for (let attempt = 1; attempt <= 3; attempt++) {
      await page.getByLabel("App id").fill(appId);
      await page.getByLabel("App secret").fill(`wrong-${attempt}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect
        .poll(() => page.locator("#field-appSecret-error").textContent())
        .toBe("appId or appSecret is wrong");
      expect(await page.getByLabel("App secret").getAttribute("aria-describedby")).toBe(
        "field-appSecret-error",
      );
    }
    await accessible(page);
    await page.getByLabel("App id").fill(appId);
    await page.getByLabel("App secret").fill("wrong-4");
    const answer = page.waitForResponse((response) => response.request().method() === "POST");
    await page.getByRole("button", { name: "Sign in" }).click();
    expect((await answer).status()).toBe(429);
    await page.getByText(/at most 3 requests a minute/).waitFor();
    await context.close();
  });

  it("leads an expired session to sign-in at the next click", async () => {
    const { server } = suite;
    const { appId, appSecret } = await server.newApp();
    const { context, page } = await signIn(server, appId, appSecret);
    await nav(page, "Settings");
    await page.getByRole("heading", { name: "Settings", exact: true }).waitFor();
    clock.advance(12 * 3600 + 1);
    await nav(page, "Conversations");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/console/sign-in");
    await context.close();
  });

  it("refuses a form another origin posts while the owner is signed in, and changes nothing", async () => {
    const { server } = suite;
    const { appId, appSecret, token } = await server.newApp();
    const { conversationId } = await server.ingest(token, {
      name: "Kept",
      messages: [{ payload: { content: "We keep this." }, from: { name: "Ana" } }],
    });
    const { context, page } = await signIn(server, appId, appSecret);
    const forged: [string, Record<string, string>][] = [
      [`/console/conversations/${conversationId}/delete`, {}],
      ["/console/settings", { name: "Forged", customDomain: "", frameAncestors: "https://evil.example" }],
      ["/console/settings/rotate-secret", {}],
    ];
    // 127.0.0.1 on another port: same site, so the Strict cookie goes along and only the origin check
    // stands; localhost: another site, so the cookie stays home too.
    for (const host of ["127.0.0.1", "localhost"]) {
      for (const [path, fields] of forged) {
        const forgery = await serveForgery(host, server.url + path, fields);
        const { port } = forgery.address() as AddressInfo;
        const answer = page.waitForResponse(
          (response) => response.url() === server.url + path && response.request().method() === "POST",
        );
        await page.goto(`http://${host}:${port}/`);
        const refused = await answer;
        expect([403, 303], `${host} ${path}`).toContain(refused.status());
        if (refused.status() === 303) expect(refused.headers().location).toBe("/console/sign-in");
        if (host === "127.0.0.1") expect(refused.status()).toBe(403);
        await new Promise<void>((resolve) => forgery.close(() => resolve()));
      }
    }
    expect((await server.api(token, `/v1/conversations/${conversationId}`)).status).toBe(200);
    expect(await server.services.apps.getApp(appId)).toMatchObject({ name: "Test app", frameAncestors: [] });
    expect((await generateToken(server.url, appId, appSecret)).status).toBe(200);
    // The owner is still signed in: nothing ended the session.
    await page.goto(`${server.url}/console/settings`);
    await page.getByRole("heading", { name: "Settings", exact: true }).waitFor();
    await context.close();
  });

  it("signs in over plain HTTP on localhost and 127.0.0.1, and signs out for good", async () => {
    const { server, browser } = suite;
    const { appId, appSecret } = await server.newApp();
    const { port } = new URL(server.url);
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signInToConsole(page, origin, appId, appSecret);
      const [session] = await context.cookies(origin);
      expect(session).toMatchObject({
        name: "__Host-recap_console",
        path: "/",
        secure: true,
        httpOnly: true,
      });
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      // The cookie sent again, as a copy kept by anyone, opens nothing.
      await context.addCookies([{ ...session!, sameSite: "Strict" }]);
      await page.goto(`${origin}/console/settings`);
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      await context.close();
    }
  });

  it("keeps an import in the owner's app when a page on another port plants a session cookie for the import", async () => {
    const { server } = suite;
    const victim = await server.newApp();
    const attacker = await server.newApp();
    await server.services.apps.updateApp(attacker.appId, { name: "Attacker app" });
    // The attacker's own valid session, as their browser got it.
    const attackerSignIn = await fetch(`${server.url}/console/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: server.url },
      body: new URLSearchParams({ appId: attacker.appId, appSecret: attacker.appSecret }),
    });
    const [cookie = ""] = (attackerSignIn.headers.get("set-cookie") ?? "").split(";");
    const secure = cookie.startsWith("__Host-") ? "; Secure" : "";
    const planter = await servePlanter([`${cookie}; Path=/console/import${secure}`]);

    const { context, page } = await signIn(server, victim.appId, victim.appSecret);
    await page.goto(`http://127.0.0.1:${(planter.address() as AddressInfo).port}/`);
    await page.goto(`${server.url}/console/import`);
    await page.getByRole("heading", { name: "Import a transcript" }).waitFor();
    await page.getByLabel("Name").fill("Board meeting");
    await page.getByLabel(/^File \(/).setInputFiles({
      name: "board.vtt",
      mimeType: "text/vtt",
      buffer: Buffer.from("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n<v Ana>The budget is final.\n"),
    });
    await page.getByRole("button", { name: "Import" }).click();
    await page.waitForURL(/\/console\/jobs\//);
    const names = async (token: string) =>
      (
        (await (await server.api(token, "/v1/conversations")).json()) as { conversations: { name: string }[] }
      ).conversations.map((conversation) => conversation.name);
    expect(await names(victim.token)).toEqual(["Board meeting"]);
    expect(await names(attacker.token)).toEqual([]);
    await new Promise<void>((resolve) => planter.close(() => resolve()));

    // Cookies are not kept apart by port: a page there can still replace the whole session (Path=/), and
    // then the header names the other app on every page.
    const replacer = await servePlanter([`${cookie}; Path=/${secure}`]);
    await page.goto(`http://127.0.0.1:${(replacer.address() as AddressInfo).port}/`);
    await page.goto(`${server.url}/console/import`);
    expect(await page.locator(".signed-in-as").textContent()).toBe("App: Attacker app");
    await new Promise<void>((resolve) => replacer.close(() => resolve()));
    await context.close();
  });
});

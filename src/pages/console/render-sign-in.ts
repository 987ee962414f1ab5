import { html } from "../escape.ts";
import { field, renderConsolePage, type ConsoleFrame } from "./layout.ts";

/** The sign-in form; `error` is the server's answer to the last attempt. */
export function renderSignIn(frame: ConsoleFrame, form: { appId?: string; error?: string } = {}): string {
  return renderConsolePage({
    title: "Sign in",
    frame,
    body: html`<p>Sign in with your app's id and secret, as you would ask for an access token.</p>
      <form method="post" action="/console/sign-in" class="card">
        ${field({
          label: "App id",
          name: "appId",
          type: "text",
          value: form.appId ?? "",
          attributes: html`required autocomplete="username" spellcheck="false"`,
        })}
        ${field({
          label: "App secret",
          name: "appSecret",
          type: "password",
          error: form.error,
          attributes: html`required autocomplete="current-password"`,
        })}
        <button type="submit">Sign in</button>
      </form>`,
  });
}

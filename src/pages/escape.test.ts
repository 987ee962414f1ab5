import { describe, expect, it } from "vitest";
import { html, raw, Raw } from "./escape.ts";

describe("html templates", () => {
  it("escape values, keep raw markup, and read the same as text and as UTF-8 bytes", () => {
    const line = Raw.ofBytes(Buffer.from(html`<li title="${'"—"'}">Zoë — 会议</li>`.html));
    const page = html`<ol>
        ${[line, html`<li>${"<b>"} & ${raw("<i>ok</i>")} ${3}</li>`, null, false, undefined]}
      </ol>
      ${line}`;
    const expected =
      '<ol>\n<li title="&quot;—&quot;">Zoë — 会议</li><li>&lt;b&gt; & <i>ok</i> 3</li>\n</ol>\n' +
      '<li title="&quot;—&quot;">Zoë — 会议</li>';
    expect(page.html).toBe(expected);
    expect(page.bytes.equals(Buffer.from(expected))).toBe(true);
    // Read either way first: the other still agrees.
    const again = html`<p>${line}${"ü"}</p>`;
    expect(again.bytes.toString("utf8")).toBe(again.html);
  });
});

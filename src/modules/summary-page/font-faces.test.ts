import { describe, expect, it } from "vitest";
import { fontStylesheet, parseFontFaces } from "./font-faces.ts";

// The shape the catalogue's CSS2 API answers a current browser with: one face per subset.
const CATALOGUE_CSS = `/* latin-ext */
@font-face {
  font-family: 'Source Sans 3';
  font-style: normal;
  font-weight: 400;
  font-display: swap;
  src: url(https://fonts.gstatic.com/s/sourcesans3/v15/ext.woff2) format('woff2');
  unicode-range: U+0100-02BA, U+02BD-02C5, U+1E00-1EFF;
}
/* latin */
@font-face {
  font-family: 'Source Sans 3';
  font-style: normal;
  font-weight: 400;
  font-display: swap;
  src: url(latin.woff2) format('woff2');
  unicode-range: U+0000-00FF, U+0131;
}`;

describe("the catalogue's stylesheet", () => {
  it("gives each face of the family with its woff2 source and its descriptors", () => {
    expect(parseFontFaces(CATALOGUE_CSS, "Source Sans 3")).toEqual([
      {
        source: "https://fonts.gstatic.com/s/sourcesans3/v15/ext.woff2",
        descriptors:
          "font-style:normal;font-weight:400;font-display:swap;unicode-range:U+0100-02BA, U+02BD-02C5, U+1E00-1EFF",
      },
      {
        source: "latin.woff2",
        descriptors: "font-style:normal;font-weight:400;font-display:swap;unicode-range:U+0000-00FF, U+0131",
      },
    ]);
  });

  it("keeps nothing but font faces of the family: other rules, families, descriptors and values are dropped", () => {
    const hostile = `body { display: none }
@font-face { font-family: 'Other'; src: url(o.woff2) format('woff2'); }
@font-face { font-family: "Inter"; src: url(a.woff) format('woff'), url(i.woff2) format("woff2");
  font-weight: 400 } ; background: url(https://tracker.test/x); unicode-range: expression(alert(1));
  font-style: normal; } x { }
@font-face { font-family: Inter; src: local(Inter); }`;
    const faces = parseFontFaces(hostile, "inter");
    expect(faces).toEqual([{ source: "i.woff2", descriptors: "font-weight:400" }]);
    const served = fontStylesheet("Inter", [{ file: "abc.woff2", descriptors: faces[0]?.descriptors ?? "" }]);
    expect(served).toBe(
      '@font-face{font-family:"Inter";src:url(abc.woff2) format("woff2");font-weight:400}\n',
    );
  });
});

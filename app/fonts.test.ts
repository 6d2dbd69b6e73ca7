import fs from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);

/** Each @font-face block's descriptors, with the file named by its base name only. */
function faces(css: string) {
  return [...css.matchAll(/@font-face\s*{([^}]*)}/g)].map((m) =>
    Object.fromEntries(
      m[1]!
        .split(";")
        .map((d) => d.trim())
        .filter(Boolean)
        .map((d) => {
          const at = d.indexOf(":");
          const value = d.slice(at + 1).trim();
          return [d.slice(0, at).trim(), value.replace(/url\(["']?[^)"']*\/([^/)"']+)["']?\)/, "url($1)")];
        }),
    ),
  );
}

describe("app/fonts.css (ADR 0156)", () => {
  const ours = faces(fs.readFileSync(new URL("./fonts.css", import.meta.url), "utf8"));
  const pkg = faces(fs.readFileSync(require.resolve("@fontsource-variable/inter/wght.css"), "utf8"));

  it("never swaps a late font in: every face is font-display: optional", () => {
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.map((f) => f["font-display"])).toEqual(ours.map(() => "optional"));
  });

  it("declares the package's faces (files, weights, unicode ranges) and differs only in font-display", () => {
    const withoutDisplay = (list: Array<Record<string, string>>) => list.map(({ "font-display": _, ...rest }) => rest);
    expect(withoutDisplay(ours)).toEqual(withoutDisplay(pkg));
  });
});

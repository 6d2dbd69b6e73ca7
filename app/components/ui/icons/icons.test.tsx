import * as Lucide from "lucide-react";
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

// Every prop combination the site uses (decorative, filled, a thicker stroke, a coloured style)
// and one it may (a labelled icon, which Lucide leaves visible to assistive technology).
const PROPS: Record<string, unknown>[] = [
  {},
  { className: "size-4 shrink-0", "aria-hidden": "true" },
  { className: "size-5", "aria-hidden": "true", fill: "currentColor" },
  { "aria-hidden": "true", focusable: "false", className: "size-6", strokeWidth: 1.75 },
  { "aria-hidden": "true", className: "size-7", style: { color: "#ff0000" }, strokeWidth: 3 },
  { role: "img", "aria-label": "Playing" },
  { className: "lucide size-4 size-4" },
];

// every icon module of this folder (one per icon, each exporting its component under Lucide's name)
const modules = import.meta.glob<Record<string, unknown>>("./*.ts", { eager: true });
const ours = Object.values(modules).flatMap((module) => Object.entries(module)) as [string, ComponentType<Record<string, unknown>>][];

describe("icons", () => {
  it("has every icon the site uses", () => {
    expect(ours.length).toBeGreaterThanOrEqual(70);
  });

  it.each(ours)("%s renders Lucide's own markup, attribute for attribute", (name, Icon) => {
    const theirs = (Lucide as unknown as Record<string, ComponentType<Record<string, unknown>>>)[name];
    expect(theirs, `lucide-react has no ${name}`).toBeDefined();
    for (const props of PROPS) {
      const mine = renderToStaticMarkup(createElement(Icon, props));
      expect(mine).toBe(renderToStaticMarkup(createElement(theirs, props)));
      expect(mine).toMatch(/^<svg [^>]*><(path|circle|rect|line|polyline|polygon|ellipse) /);
    }
  });
});

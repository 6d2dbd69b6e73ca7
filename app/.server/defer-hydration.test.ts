import { describe, expect, it } from "vitest";
import { deferHydration, HYDRATION_TRIGGERS } from "./defer-hydration";

// The shape React Router 8's <Scripts> renders (node_modules/react-router …/ssr/components.js).
const page = (_: string) =>
  `<!DOCTYPE html><html><head><link rel="stylesheet" href="/assets/app.css" data-precedence="default"/>` +
  `<link rel="modulepreload" href="/assets/entry.client.js"/><link rel="modulepreload" href="/assets/framework.js"/>` +
  `<link rel="preload" href="/assets/inter.woff2" as="font"/></head><body><main>Catalog</main>` +
  `<script>window.__reactRouterContext = {};</script>` +
  `<script type="module" async="">import "/assets/manifest.js";\nimport * as route0 from "/assets/root.js";\nimport("/assets/entry.client.js");</script></body></html>`;

describe("deferHydration", () => {
  it("drops the modulepreloads, keeps the stylesheet and the font preload, and starts the bootstrap at the first interaction", () => {
    const html = deferHydration(page("abc==")).join("");
    expect(html).not.toContain("modulepreload");
    expect(html).toContain('<link rel="stylesheet" href="/assets/app.css"');
    expect(html).toContain('<link rel="preload" href="/assets/inter.woff2" as="font"/>');
    // No module script runs while the document is parsed: the bootstrap is inert…
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toContain('<script type="text/x-module" id="rr-deferred-bootstrap">import "/assets/manifest.js";');
    // …and an inline script starts it at the first interaction, not before (ADR 0160)…
    expect(html).toMatch(/<script>\(function\(\)\{/);
    for (const trigger of HYDRATION_TRIGGERS) expect(html).toContain(`"${trigger}"`);
    expect(html).toContain('s.type="module";s.text=d.text');
    // …while the modules React Router asked for are fetched into the cache after the first paint.
    expect(html).toContain('getEntriesByName("first-contentful-paint")');
    expect(html).toContain('["/assets/entry.client.js","/assets/framework.js"]');
    expect(html).toContain('l.rel="prefetch"');
    // a page marked data-hydrate-early (an item's sheet) starts it after the first paint instead
    expect(html).toContain('if(D.querySelector("[data-hydrate-early]")){go();return}');
    expect(html.indexOf("rr-deferred-bootstrap")).toBeLessThan(html.indexOf("first-contentful-paint"));
    expect(html).toContain("<script>window.__reactRouterContext = {};</script>");
  });

  it("runs the bootstrap text unchanged when the loader fires", () => {
    const html = deferHydration(page("n==")).join("");
    const inert = /<script[^>]*id="rr-deferred-bootstrap">([\s\S]*?)<\/script>/.exec(html)![1];
    expect(inert).toBe('import "/assets/manifest.js";\nimport * as route0 from "/assets/root.js";\nimport("/assets/entry.client.js");');
  });

  it("finds the bootstrap past text that only looks like it, and a modulepreload React left in the body", () => {
    const tricky = page("n==")
      .replace("<main>Catalog</main>", '<main>Catalog – <code>type="module" async=""</code></main><link rel="modulepreload" href="/assets/late.js"/>');
    const html = deferHydration(tricky).join("");
    expect(html).toContain('<code>type="module" async=""</code>');
    expect(html).toContain('<script type="text/x-module" id="rr-deferred-bootstrap">import "/assets/manifest.js";');
    expect(html).not.toContain("modulepreload");
    expect(html).toContain("<main>Catalog – ");
  });

  it("leaves a document page (no React Router bootstrap) as it is", () => {
    const doc = `<html><head><link rel="stylesheet" href="/a.css"/></head><body><script type="module" src="/assets/document-page.js"></script></body></html>`;
    expect(deferHydration(doc)).toEqual([doc]);
  });
});

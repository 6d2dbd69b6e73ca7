import { describe, expect, it } from "vitest";
import { url } from "./support/browser.ts";
import { SITE_PAGE_PATHS } from "../../app/lib/static-pages.ts";

// Every route of product-rules §2 (other owners write the page texts; here: every page has its tags).
const ROUTES = SITE_PAGE_PATHS;

function attr(html: string, pattern: RegExp): string | undefined {
  return pattern.exec(html)?.[1];
}

async function head(path: string) {
  const res = await fetch(url(path));
  const html = await res.text();
  return {
    status: res.status,
    html,
    title: attr(html, /<title>([^<]*)<\/title>/),
    description: attr(html, /<meta name="description" content="([^"]*)"/),
    canonical: attr(html, /<link rel="canonical" href="([^"]*)"/),
    ogTitle: attr(html, /<meta property="og:title" content="([^"]*)"/),
    ogImage: attr(html, /<meta property="og:image" content="([^"]*)"/),
  };
}

describe("per-route SEO tags", () => {
  it.each(ROUTES)("%s has its own title, description, canonical link and Open Graph tags", async (path) => {
    const page = await head(path);
    expect(page.status).toBe(200);
    expect(page.title?.length).toBeGreaterThan(3);
    expect(page.description?.length).toBeGreaterThan(20);
    expect(page.canonical).toMatch(/^https?:\/\//);
    expect(new URL(page.canonical!).pathname).toBe(path);
    expect(page.ogTitle).toBe(page.title);
    expect(page.ogImage).toMatch(/^https?:\/\/.+\/og-image\.png$/);
    // exactly one of each
    expect(page.html.match(/<title>/g)).toHaveLength(1);
    expect(page.html.match(/<link rel="canonical"/g)).toHaveLength(1);
  });

  it("gives every route a different title and description", async () => {
    const pages = await Promise.all(ROUTES.map(head));
    expect(new Set(pages.map((p) => p.title)).size).toBe(ROUTES.length);
    expect(new Set(pages.map((p) => p.description)).size).toBeGreaterThan(ROUTES.length - 3);
  });

  it("marks the 404 page noindex, without a canonical link", async () => {
    const page = await head("/some/unknown/path");
    expect(page.status).toBe(404);
    expect(page.title).toBe("Page not found | Northbeat Media");
    expect(page.canonical).toBeUndefined();
    expect(page.html).toContain('<meta name="robots" content="noindex"/>');
  });
});

describe("Organization JSON-LD on the home page", () => {
  it("is one parseable schema.org Organization from the site content", async () => {
    const { html } = await head("/");
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
    const orgs = blocks.filter((b) => b["@type"] === "Organization");
    expect(orgs).toHaveLength(1);
    expect(orgs[0]).toMatchObject({ "@context": "https://schema.org", name: "Northbeat Media", email: "hello@example.com" });
    expect(orgs[0].url).toMatch(/^https?:\/\/.+\/$/);
    expect(orgs[0].sameAs).toHaveLength(4);
  });
});

describe("static SEO and app files", () => {
  it("serves the favicon a page links as an icon of 16, 32 and 48 px, cached by browsers", async () => {
    // issue #41, ADR 0150 (amended, sixth session): a raster favicon, not an SVG document
    const { html } = await head("/catalog");
    const href = attr(html, /<link rel="icon" href="([^"]+)"/);
    expect(href).toBe("/favicon.ico");
    const favicon = await fetch(url(href!));
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get("content-type")).toMatch(/^image\/(vnd\.microsoft\.icon|x-icon)/);
    expect(favicon.headers.get("cache-control")).toBe("public, max-age=3600");
    // ICONDIR: reserved 0, type 1 (icon), the count; then a 16-byte entry per image, each a PNG
    const ico = Buffer.from(await favicon.arrayBuffer());
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const frames = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => {
      const entry = 6 + 16 * i;
      const png = ico.subarray(ico.readUInt32LE(entry + 12), ico.readUInt32LE(entry + 12) + ico.readUInt32LE(entry + 8));
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
      return [png.readUInt32BE(16), png.readUInt32BE(20)];
    });
    expect(frames).toEqual([[16, 16], [32, 32], [48, 48]]);
    // the scalable mark stays where others may have linked it
    const svg = await fetch(url("/favicon.svg"));
    expect(svg.headers.get("content-type")).toMatch(/image\/svg\+xml/);
  });

  it("serves the web manifest with existing icons, and a 1200×630 Open Graph image", async () => {
    const manifest = await fetch(url("/manifest.webmanifest"));
    expect(manifest.status).toBe(200);
    const json = (await manifest.json()) as { name: string; start_url: string; icons: { src: string; sizes: string; type: string; purpose?: string }[] };
    expect(json.name).toBe("Northbeat Media");
    expect(json.start_url).toBe("/");
    expect(json.icons.some((i) => i.sizes === "512x512" && i.purpose === "maskable")).toBe(true);
    // ADR 0150 (amended): no SVG icon, which Chromium's install check would draw as a document
    expect(json.icons.some((i) => i.sizes === "192x192")).toBe(true);
    for (const icon of json.icons) {
      const res = await fetch(url(icon.src));
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get("content-type"), icon.src).toBe(icon.type);
      const png = Buffer.from(await res.arrayBuffer());
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
    }

    const og = await fetch(url("/og-image.png"));
    expect(og.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await og.arrayBuffer());
    expect(png.length).toBeLessThan(80_000);
    // PNG IHDR: width and height at bytes 16 and 20
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
  });

  it("links the favicon, manifest and Apple touch icon from every page", async () => {
    const { html } = await head("/podcasts");
    expect(html).toMatch(/<link [^>]*rel="icon" href="\/favicon.ico" sizes="16x16 32x32 48x48"\/>/);
    expect(html).toMatch(/<link [^>]*rel="manifest" href="\/manifest.webmanifest"\/>/);
    expect(html).toMatch(/<link [^>]*rel="apple-touch-icon" href="\/icons\/apple-touch-icon.png"\/>/);
    // The Latin Inter subset is preloaded (no late font swap).
    expect(html).toMatch(/<link [^>]*rel="preload" href="\/assets\/inter-latin-wght-normal-[^"]+\.woff2" as="font" type="font\/woff2" crossorigin="anonymous"\/>/);
  });

  it("lists every page in the sitemap with absolute URLs, and robots.txt points to it", async () => {
    const sitemap = await (await fetch(url("/sitemap.xml"))).text();
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    for (const path of ROUTES) expect(locs).toContain(path);
    expect(locs).not.toContain("/team");
    const robots = await (await fetch(url("/robots.txt"))).text();
    expect(robots).toMatch(/^Sitemap: https?:\/\/.+\/sitemap\.xml$/m);
  });
});

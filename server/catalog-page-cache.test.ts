import { afterEach, describe, expect, it } from "vitest";
import type { Request } from "express";
import { createCatalogIndex, type CatalogSource } from "../app/.server/catalog/index.ts";
import type { CatalogSnapshot } from "../app/.server/catalog/service.ts";
import type { Album } from "../app/lib/catalog/types.ts";
import { parseCatalogState } from "../app/lib/catalog/url-state.ts";
import { createCatalogPageCache, itemPageKey } from "./catalog-page-cache.ts";
import { createPageStore } from "./page-cache.ts";
import { get, serve } from "../tests/support/page-cache-server.ts";

const album = (i: number, genre: string, name = `Album ${i}`): Album => ({
  id: `alb-${i}`,
  name,
  artist: `Artist ${i % 7}`,
  genre,
  artwork: `albums/${i}.jpg`,
  keywords: [genre],
  featured: false,
  tracks: [],
});

/** 40 Jazz albums (4 pages of 12; 3 are "Blue …") and 5 Latin ones. */
function snapshot(version: number, names: (i: number) => string = (i) => (i % 13 === 0 ? `Blue ${i}` : `Album ${i}`)): CatalogSnapshot {
  const albums = [...Array.from({ length: 40 }, (_, i) => album(i, "Jazz", names(i))), ...Array.from({ length: 5 }, (_, i) => album(100 + i, "Latin"))];
  return { albums, films: [], singles: [], channels: [], genres: [], version, updatedAt: "2026-01-01T00:00:00.000Z" };
}

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

interface Options {
  maxBytes?: number;
  /** what the route answers, by canonical URL (default: a 200 page) */
  answer?: (url: string) => { status?: number; headers?: Record<string, string> } | undefined;
  /** run during a render (to change the catalog under it) */
  during?: () => void;
  /** the analysis results' version (issue #9), when the site has analysis */
  analysisVersion?: () => number;
  /** what the track index's answers reflect (issue #10) */
  trackIndexVersion?: () => string;
}

/**
 * The cache in front of a stand-in for React Router: it renders the canonical URL from the
 * real index, with an inline script, as the catalog route would.
 */
async function catalogSite(opts: Options = {}) {
  let current = snapshot(1);
  const catalog: CatalogSource = { snapshot: () => current, mediaUrl: (key) => `/media/${key}` };
  const renders: string[] = [];
  const store = createPageStore({ maxBytes: opts.maxBytes ?? 32 * 1024 * 1024 });
  const catalogIndex = createCatalogIndex(catalog);
  const cache = createCatalogPageCache({
    store,
    catalogIndex,
    analysisVersion: opts.analysisVersion,
    trackIndexVersion: opts.trackIndexVersion,
    render: async (url: string, _req: Request) => {
      renders.push(url);
      await new Promise((r) => setTimeout(r, 20));
      opts.during?.();
      const parsed = new URL(url, "http://x");
      const state = parseCatalogState(parsed.searchParams);
      const result = catalogIndex.query(state);
      const names = result.items.map((c) => (c.kind === "album" ? c.name : "")).join(", ");
      const answer = opts.answer?.(url) ?? {};
      const filler = "<p>The same layout around every catalog page, many times over.</p>".repeat(100);
      const data = parsed.pathname.endsWith(".data");
      const body = data
        ? JSON.stringify({ page: result.page, names, q: state.q })
        : `<html><body><h1>Page ${result.page} of ${result.pageCount}</h1><input name="q" value="${state.q}"><ul>${names}</ul>${filler}` +
          `<script>hydrate()</script></body></html>`;
      return new Response(body, {
        status: answer.status ?? 200,
        headers: { "Content-Type": data ? "text/x-script" : "text/html; charset=utf-8", ...answer.headers },
      });
    },
  });
  const site = await serve(cache.middleware);
  closeServer = site.close;
  return {
    ...site,
    renders,
    store,
    setCatalog: (snap: CatalogSnapshot) => (current = snap),
    page: (path: string, headers: Record<string, string> = { "accept-encoding": "br, gzip" }) => get(site.base + path, headers),
  };
}

describe("catalog page cache", () => {
  it("renders an open album sheet again once new analysis results are stored, and keeps the lists", async () => {
    let analysis = 1;
    const site = await catalogSite({ analysisVersion: () => analysis });
    await site.page("/catalog?genre=Jazz");
    await site.page("/catalog?genre=Jazz&item=alb-3");
    expect((await site.page("/catalog?genre=Jazz&item=alb-3")).headers["x-page-cache"]).toBe("HIT");
    analysis = 2;
    // the sheet shows tempi, keys and waveforms: rendered again with the new results
    expect((await site.page("/catalog?genre=Jazz&item=alb-3")).headers["x-page-cache"]).toBe("MISS");
    expect((await site.page("/catalog?genre=Jazz&item=alb-3")).headers["x-page-cache"]).toBe("HIT");
    // a list shows no analysis: still served from memory
    expect((await site.page("/catalog?genre=Jazz")).headers["x-page-cache"]).toBe("HIT");
  });

  it("renders the track view again when the analysis moves, and again once the track index has caught up", async () => {
    let analysis = 1;
    let figures = "1:1";
    const site = await catalogSite({ analysisVersion: () => analysis, trackIndexVersion: () => figures });
    const view = "/catalog?view=tracks&bpm=90-120&key=A+minor";
    await site.page(view);
    expect((await site.page(view)).headers["x-page-cache"]).toBe("HIT");
    // the same view written another way is the same entry
    expect((await site.page("/catalog?key=am&bpm=120-90&view=tracks&utm_source=x")).headers["x-page-cache"]).toBe("HIT");
    // and so is the custom range form's spelling, without JavaScript (ADR 0102)
    expect((await site.page("/catalog?view=tracks&bpm_min=90&bpm_max=120&key=A+minor")).headers["x-page-cache"]).toBe("HIT");
    expect(site.renders).toEqual([view]);
    // new results stored: the rows show lengths, tempi and keys from them
    analysis = 2;
    expect((await site.page(view)).headers["x-page-cache"]).toBe("MISS");
    expect((await site.page(view)).headers["x-page-cache"]).toBe("HIT");
    // the index's figures (what the filters and orders read) refreshed after them
    figures = "1:2";
    expect((await site.page(view)).headers["x-page-cache"]).toBe("MISS");
    expect((await site.page(view)).headers["x-page-cache"]).toBe("HIT");
    // the album list shows no analysis: kept through both
    await site.page("/catalog?genre=Jazz");
    figures = "1:3";
    expect((await site.page("/catalog?genre=Jazz")).headers["x-page-cache"]).toBe("HIT");
  });

  it("renders a view once and answers it again from memory, the same bytes each time", async () => {
    const site = await catalogSite();
    const a = await site.page("/catalog?genre=Jazz&page=2");
    const b = await site.page("/catalog?genre=Jazz&page=2");
    expect([a.headers["x-page-cache"], b.headers["x-page-cache"]]).toEqual(["MISS", "HIT"]);
    expect(site.renders).toEqual(["/catalog?genre=Jazz&page=2"]);
    expect(a.text).toContain("<h1>Page 2 of 4</h1>");
    expect(b.text).toContain("<script>hydrate()</script>");
    expect(b.text).toBe(a.text);
    expect(b.headers["content-encoding"]).toBe("br");
  });

  it("keys on the view: parameter order, case of options, spaces, unknown parameters and a page past the end share an entry", async () => {
    const site = await catalogSite();
    await site.page("/catalog?genre=Jazz&page=4");
    for (const same of ["/catalog?page=4&genre=Jazz", "/catalog?genre=jazz&page=4&utm_source=mail", "/catalog?genre=%20Jazz%20&page=4", "/catalog?genre=Jazz&page=99", "/catalog?type=music&genre=Jazz&page=4"]) {
      const answer = await site.page(same);
      expect(answer.headers["x-page-cache"], same).toBe("HIT");
      expect(answer.text).toContain("<h1>Page 4 of 4</h1>");
    }
    // the search words are matched as the index normalises them (one match list), but the page
    // shows the search as typed, so a different spelling is a different page
    await site.page("/catalog?q=blue");
    expect((await site.page("/catalog?q=%20blue%20")).headers["x-page-cache"]).toBe("HIT");
    const upper = await site.page("/catalog?q=Blue");
    expect(upper.headers["x-page-cache"]).toBe("MISS");
    expect(upper.text).toContain('value="Blue"');
    expect(site.renders).toEqual(["/catalog?genre=Jazz&page=4", "/catalog?q=blue", "/catalog?q=Blue"]);
  });

  it("keeps the HTML document and the .data answer apart, and .data by the loaders it asks for", async () => {
    const site = await catalogSite();
    const html = await site.page("/catalog?genre=Jazz");
    const data = await site.page("/catalog.data?genre=Jazz");
    expect(data.headers["x-page-cache"]).toBe("MISS");
    expect(data.headers["content-type"]).toContain("text/x-script");
    expect(JSON.parse(data.text)).toMatchObject({ page: 1 });
    expect(html.text).toContain("<html>");
    expect((await site.page("/catalog.data?genre=Jazz")).headers["x-page-cache"]).toBe("HIT");
    await site.page("/catalog.data?genre=Jazz&_routes=routes/catalog,root");
    expect((await site.page("/catalog.data?_routes=root,routes/catalog&genre=Jazz")).headers["x-page-cache"]).toBe("HIT");
    expect(site.renders).toEqual(["/catalog?genre=Jazz", "/catalog.data?genre=Jazz", "/catalog.data?genre=Jazz&_routes=root%2Croutes%2Fcatalog"]);
  });

  it("drops every page when the catalog version changes, and shows the new data", async () => {
    const site = await catalogSite();
    await site.page("/catalog?genre=Jazz");
    await site.page("/catalog?genre=Latin");
    site.setCatalog(snapshot(2, (i) => `Renamed ${i}`));
    const after = await site.page("/catalog?genre=Jazz");
    expect(after.headers["x-page-cache"]).toBe("MISS");
    expect(after.text).toContain("Renamed 0");
    expect(site.store.usage().entries).toBe(1);
    expect((await site.page("/catalog?genre=Jazz")).headers["x-page-cache"]).toBe("HIT");
  });

  it("does not keep a page rendered while the catalog changed", async () => {
    let change: (() => void) | undefined;
    const site = await catalogSite({ during: () => change?.() });
    change = () => site.setCatalog(snapshot(2));
    await site.page("/catalog?genre=Latin");
    change = undefined;
    expect((await site.page("/catalog?genre=Latin")).headers["x-page-cache"]).toBe("MISS");
    expect((await site.page("/catalog?genre=Latin")).headers["x-page-cache"]).toBe("HIT");
  });

  it("never keeps a redirect, an error, a no-store page or one that sets a cookie, and sends them as rendered", async () => {
    const site = await catalogSite({
      answer: (url): { status?: number; headers?: Record<string, string> } | undefined =>
        url.includes("type=channels")
          ? { status: 302, headers: { Location: "/catalog" } }
          : url.includes("Latin")
            ? { headers: { "Cache-Control": "no-store" } }
            : url.includes("item=")
              ? { headers: { "Set-Cookie": "a=b" } }
              : url.includes("page=2")
                ? { status: 500 }
                : undefined,
    });
    for (const path of ["/catalog?type=channels", "/catalog?genre=Latin", "/catalog?item=alb-1", "/catalog?page=2"]) {
      const first = await site.page(path);
      const second = await site.page(path);
      expect(second.headers["x-page-cache"], path).toBe("MISS");
      expect(second.status).toBe(first.status);
      if (first.status === 200) {
        // a document sent without the cache is sent as rendered
        expect(second.text).toBe(first.text);
      }
    }
    expect((await site.page("/catalog?type=channels")).headers.location).toBe("/catalog");
    expect(site.renders).toHaveLength(9);
    expect(site.store.usage().entries).toBe(0);
  });

  it("shares one render between identical concurrent misses", async () => {
    const site = await catalogSite();
    const answers = await Promise.all(
      ["/catalog?genre=Jazz&page=3", "/catalog?page=3&genre=jazz", ...Array(6).fill("/catalog?genre=Jazz&page=3")].map((p) => site.page(p)),
    );
    expect(site.renders).toEqual(["/catalog?genre=Jazz&page=3"]);
    for (const a of answers) expect(a.text).toBe(answers[0]!.text);
  });

  it("holds no more bytes than PAGE_CACHE_MAX_BYTES, least recently used pages out first", async () => {
    const site = await catalogSite({ maxBytes: 20_000 });
    const views = ["/catalog?genre=Jazz", "/catalog?genre=Jazz&page=2", "/catalog?genre=Jazz&page=3", "/catalog?genre=Latin", "/catalog?page=2"];
    for (const v of views) await site.page(v);
    const usage = site.store.usage();
    expect(usage.bytes).toBeLessThanOrEqual(20_000);
    expect(usage.entries).toBeLessThan(views.length);
    expect((await site.page(views.at(-1)!)).headers["x-page-cache"]).toBe("HIT");
    expect((await site.page(views[0])).headers["x-page-cache"]).toBe("MISS");
  });

  it("leaves other paths and methods alone", async () => {
    const site = await catalogSite();
    for (const [path, method] of [["/catalog/", "GET"], ["/contact", "GET"], ["/catalog", "POST"]] as const) {
      expect((await get(site.base + path, {}, method)).headers["x-ordinary"]).toBe("yes");
    }
    expect(site.renders).toEqual([]);
  });
});

describe("item page keys (issue #11, ADR 0096)", () => {
  const key = (path: string, query = "") => itemPageKey(path, new URLSearchParams(query));

  it("leave the slug out (any slug answers the same page) and keep the document and .data apart", () => {
    expect(key("/catalog/albums/alb-1")).toEqual({ key: "catalog|/catalog/albums/alb-1", url: "/catalog/albums/alb-1", album: true });
    expect(key("/catalog/albums/alb-1/blue-1")!.key).toBe("catalog|/catalog/albums/alb-1");
    expect(key("/catalog/albums/alb-1/an-old-name")!.key).toBe("catalog|/catalog/albums/alb-1");
    expect(key("/catalog/singles/SUB%201/x.data", "_routes=routes/catalog-item,root,root")).toEqual({
      key: "catalog|/catalog/singles/SUB%201.data?_routes=root%2Croutes%2Fcatalog-item",
      url: "/catalog/singles/SUB%201.data?_routes=root%2Croutes%2Fcatalog-item",
      album: false,
    });
  });

  it("keep `from` only as the page's back link reads it, and not when it is the default view", () => {
    expect(key("/catalog/films/F1/dawn", "from=/catalog?type=film")!.key).toBe("catalog|/catalog/films/F1");
    expect(key("/catalog/films/F1/dawn", "from=https://evil.example/catalog&utm=1")!.key).toBe("catalog|/catalog/films/F1");
    expect(key("/catalog/films/F1", `from=${encodeURIComponent("/catalog?page=2&type=film&item=x&utm=1")}`)!.key).toBe("catalog|/catalog/films/F1?from=%2Fcatalog%3Ftype%3Dfilm%26page%3D2");
  });

  it("are null for any other path (the catalog's own key, or the 404 page)", () => {
    expect(key("/catalog")).toBeNull();
    expect(key("/catalog/channels/c1")).toBeNull();
    expect(key("/catalog/albums/a/b/c")).toBeNull();
    expect(key("/catalog/albums/%E0%A4%A")).toBeNull();
  });
});

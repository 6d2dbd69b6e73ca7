import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import type { CatalogSnapshot } from "./catalog/service.ts";
import { createCatalogIndex, type CatalogSource } from "./catalog/index.ts";
import { createSitemaps, siteSitemaps, sitemapResponse } from "./sitemap.ts";
import type { Album, Film, Single } from "../lib/catalog/types.ts";
import { reshapeSingle } from "./catalog/music-api/singles.ts";
import { submissionEntry } from "../../tests/support/catalog-fixtures.ts";

const album = (i: number): Album => ({
  id: `a${i}`,
  name: `Album ${i} Café`,
  artist: "Ana",
  genre: "Jazz",
  artwork: "",
  keywords: ["jazz"],
  featured: false,
  tracks: [],
});
// a single as the music API source builds it (product-rules §3 "Single")
const single = (i: number): Single => reshapeSingle(submissionEntry(`SUB-${i}`, `Single & ${i}`, "Bo"));
const film = (i: number): Film => ({ film_id: `F${i}`, title: `Film ${i}`, film_status: "completed" });

function catalogOf(counts: { albums: number; singles: number; films: number }, version = 1) {
  let snap: CatalogSnapshot = {
    albums: Array.from({ length: counts.albums }, (_, i) => album(i)),
    singles: Array.from({ length: counts.singles }, (_, i) => single(i)),
    films: Array.from({ length: counts.films }, (_, i) => film(i)),
    channels: [],
    genres: [],
    version,
    updatedAt: "2026-11-20T10:00:00.000Z",
  };
  const source = createCatalogIndex({ snapshot: () => snap, mediaUrl: (key) => `/media/${key}` } satisfies CatalogSource);
  return { source, replace: (next: CatalogSnapshot) => (snap = next), snap: () => snap };
}

const PAGES = ["/", "/mission", "/catalog"];
const text = (doc: { gzip: Buffer }) => zlib.gunzipSync(doc.gzip).toString("utf8");
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

describe("sitemaps (issue #11)", () => {
  it("lists the search by one's own file with the site's pages (issue #41)", async () => {
    const { source } = catalogOf({ albums: 1, singles: 0, films: 0 });
    const xml = text(await siteSitemaps(source, { SITE_URL: "https://site.example", SITEMAP_CACHE_MAX_BYTES: 1e6 }).document("root")!);
    expect(locs(xml)).toContain("https://site.example/catalog/sounds-like");
    expect(locs(xml)).toContain("https://site.example/catalog");
  });

  it("is one urlset of the pages and every item page while the URLs fit one file", async () => {
    const { source } = catalogOf({ albums: 3, singles: 2, films: 1 });
    const sitemaps = createSitemaps(source, { siteUrl: "https://site.example/", pagePaths: PAGES, maxCacheBytes: 1e6, maxUrls: 10 });
    const xml = text(await sitemaps.document("root")!);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    expect(locs(xml)).toEqual([
      "https://site.example/",
      "https://site.example/mission",
      "https://site.example/catalog",
      "https://site.example/catalog/albums/a0/album-0-cafe",
      "https://site.example/catalog/albums/a1/album-1-cafe",
      "https://site.example/catalog/albums/a2/album-2-cafe",
      "https://site.example/catalog/singles/SUB-0/single-0",
      "https://site.example/catalog/singles/SUB-1/single-1",
      "https://site.example/catalog/films/F0/film-0",
    ]);
    // no file of an index exists
    expect(sitemaps.document(1)).toBeNull();
  });

  it("above the limit, /sitemap.xml is an index of files of at most the limit each, with lastmod, covering every URL once", async () => {
    // 3 pages + 20 albums + 4 singles + 2 films = 29 URLs at 10 a file: 3 files (10, 10, 9)
    const { source } = catalogOf({ albums: 20, singles: 4, films: 2 });
    const sitemaps = createSitemaps(source, { siteUrl: "https://site.example", pagePaths: PAGES, maxCacheBytes: 1e6, maxUrls: 10 });
    const index = text(await sitemaps.document("root")!);
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(index)).toEqual(["https://site.example/sitemaps/1.xml", "https://site.example/sitemaps/2.xml", "https://site.example/sitemaps/3.xml"]);
    expect(index.match(/<lastmod>2026-11-20T10:00:00.000Z<\/lastmod>/g)).toHaveLength(3);

    const files = await Promise.all([1, 2, 3].map(async (n) => locs(text(await sitemaps.document(n)!))));
    expect(files.map((f) => f.length)).toEqual([10, 10, 9]);
    const all = files.flat();
    expect(new Set(all).size).toBe(29);
    expect(all[0]).toBe("https://site.example/");
    expect(all.at(-1)).toBe("https://site.example/catalog/films/F1/film-1");
    expect(sitemaps.document(4)).toBeNull();
    expect(sitemaps.document(0)).toBeNull();
  });

  it("at exactly the limit stays one file; one more URL makes an index of two", async () => {
    const exact = createSitemaps(catalogOf({ albums: 7, singles: 0, films: 0 }).source, { siteUrl: "https://s.example", pagePaths: PAGES, maxCacheBytes: 1e6, maxUrls: 10 });
    expect(locs(text(await exact.document("root")!))).toHaveLength(10);
    const over = createSitemaps(catalogOf({ albums: 8, singles: 0, films: 0 }).source, { siteUrl: "https://s.example", pagePaths: PAGES, maxCacheBytes: 1e6, maxUrls: 10 });
    expect(locs(text(await over.document("root")!))).toEqual(["https://s.example/sitemaps/1.xml", "https://s.example/sitemaps/2.xml"]);
    expect(locs(text(await over.document(2)!))).toEqual(["https://s.example/catalog/albums/a7/album-7-cafe"]);
  });

  it("escapes XML in locations and keeps built files per catalog version, within the byte bound", async () => {
    const catalog = catalogOf({ albums: 30, singles: 0, films: 0 });
    const sitemaps = createSitemaps(catalog.source, { siteUrl: "https://s.example/?a=1&b=2", pagePaths: [], maxCacheBytes: 1e6, maxUrls: 10 });
    const first = await sitemaps.document(1)!;
    expect(text(first)).toContain("<loc>https://s.example/?a=1&amp;b=2/catalog/albums/a0/album-0-cafe</loc>");
    expect(await sitemaps.document(1)!).toBe(first); // from the cache
    expect(sitemaps.usage().entries).toBe(1);

    // a new catalog version: new files; the old version's are dropped
    catalog.replace({ ...catalog.snap(), albums: [album(99)], version: 2 });
    expect(sitemaps.document(1)).toBeNull(); // one file now: no index
    expect(locs(text(await sitemaps.document("root")!))).toEqual(["https://s.example/?a=1&amp;b=2/catalog/albums/a99/album-99-cafe"]);
    expect(sitemaps.usage().entries).toBe(1);

    // a bound smaller than a file keeps nothing, and still answers
    const tiny = createSitemaps(catalogOf({ albums: 30, singles: 0, films: 0 }).source, { siteUrl: "https://s.example", pagePaths: [], maxCacheBytes: 10, maxUrls: 10 });
    expect(locs(text(await tiny.document(3)!))).toHaveLength(10);
    expect(tiny.usage().bytes).toBe(0);
  });

  it("sends the kept gzip to gzip clients and plain XML to the others", async () => {
    const sitemaps = createSitemaps(catalogOf({ albums: 2, singles: 0, films: 0 }).source, { siteUrl: "https://s.example", pagePaths: PAGES, maxCacheBytes: 1e6 });
    const doc = await sitemaps.document("root")!;
    const gz = sitemapResponse(doc, "gzip, deflate, br");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(Buffer.from(await gz.arrayBuffer()).equals(doc.gzip)).toBe(true);
    const plain = sitemapResponse(doc, null);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(locs(await plain.text())).toHaveLength(5);
    expect(sitemapResponse(doc, "gzip;q=0").headers.get("content-encoding")).toBeNull();
  });
});

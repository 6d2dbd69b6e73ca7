import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot, url } from "./support/browser.ts";
import { waitFor } from "../support/wait.ts";
import { slugify } from "../../app/lib/catalog/item-url.ts";
import { SAMPLE_TRACKS } from "../../app/.server/catalog/sample/tracks.ts";

// Issue #11 "Item pages" (DESIGN.md §3b): /catalog/albums/{id}, /catalog/singles/{id} and
// /catalog/films/{film_id}, each with an optional /{slug}; the sample catalog the shared server
// generated into DATA_DIR gives the expectations.
interface SnapAlbum { id: string; name: string; artist: string; genre: string; tracks: { s3Path: string; Filename: string }[] }
interface SnapSingle { id: string; title: string; artist: string; genre: string }
interface SnapDetail { isrc: string; album: string; label: string; releaseDate: string }
interface SnapFilm { film_id: string; title: string; format?: string }

const snapshot = <T>(name: string): T =>
  (JSON.parse(fs.readFileSync(path.join(inject("dataDir"), "catalog", "snapshots", `${name}.json`), "utf8")) as { data: T }).data;

type JsonLd = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function fetchPage(pathname: string) {
  const res = await fetch(url(pathname));
  const html = await res.text();
  const attr = (re: RegExp) => re.exec(html)?.[1]?.replaceAll("&amp;", "&");
  return {
    status: res.status,
    html,
    title: attr(/<title>([^<]*)<\/title>/),
    description: attr(/<meta name="description" content="([^"]*)"/),
    canonical: attr(/<link rel="canonical" href="([^"]*)"/),
    ogImage: attr(/<meta property="og:image" content="([^"]*)"/),
    ogType: attr(/<meta property="og:type" content="([^"]*)"/),
    ld: [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!) as JsonLd),
  };
}

let browser: Browser;
let album: SnapAlbum;
let single: SnapSingle;
let detail: SnapDetail;
let film: SnapFilm;
/** SITE_URL, which canonical links and the sitemap use (robots.txt names it). */
let siteOrigin = "";
const origin = () => siteOrigin;

beforeAll(async () => {
  browser = await launchBrowser();
  siteOrigin = new URL(/^Sitemap: (\S+)$/m.exec(await (await fetch(url("/robots.txt"))).text())![1]!).origin;
  // an album with a piece that has a beat (the sample's ambient and strings pieces have none)
  const hasBeat = (s3Path: string) => SAMPLE_TRACKS[Number(/track-(\d+)\.mp3$/.exec(s3Path)?.[1] ?? 0) - 1]?.bpm != null;
  album = snapshot<SnapAlbum[]>("albums").find((a) => a.tracks.length >= 3 && a.tracks.some((t) => hasBeat(t.s3Path)))!;
  const details = snapshot<Record<string, SnapDetail>>("release-details");
  single = snapshot<SnapSingle[]>("singles").find((s) => details[s.id]?.isrc)!;
  detail = details[single.id]!;
  film = snapshot<SnapFilm[]>("films").find((f) => f.format)!;
  // The album page shows the analysis once the shared server has measured the sample pieces
  // (tests/e2e/catalog-analysis.test.ts waits the same way).
  await waitFor(
    "the album's tracks analysed",
    async () => ((await fetchPage(`/catalog/albums/${album.id}`)).html.split("data-track-facts").length - 1 === album.tracks.length) || undefined,
    150_000,
    2_000,
  );
}, 180_000);
afterAll(async () => browser?.close());

async function axeAtBothWidths(page: Page, pathname: string, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await gotoHydrated(page, pathname);
    await expectNoAxeViolations(page);
    await screenshot(page, `${name}-${width}`);
  }
}

describe("album page", () => {
  it("answers with or without a slug, names the right slug in its canonical link, and has its own title, description and cover", async () => {
    const slug = slugify(album.name);
    for (const pathname of [`/catalog/albums/${album.id}`, `/catalog/albums/${album.id}/${slug}`, `/catalog/albums/${album.id}/some-old-name`]) {
      const page = await fetchPage(pathname);
      expect(page.status, pathname).toBe(200);
      expect(page.title).toBe(`${album.name} by ${album.artist} | Northbeat Media`);
      expect(page.canonical).toBe(`${origin()}/catalog/albums/${album.id}/${slug}`);
      expect(page.description).toContain(album.name);
      expect(page.ogType).toBe("music.album");
      expect(page.ogImage).toMatch(new RegExp(`^${origin()}/img\\?w=\\d+&src=`));
      expect(page.html.match(/<link rel="canonical"/g)).toHaveLength(1);
    }
    // the cover is served through /img
    const og = await fetch((await fetchPage(`/catalog/albums/${album.id}`)).ogImage!);
    expect(og.status).toBe(200);
    expect(og.headers.get("content-type")).toMatch(/^image\//);
  });

  it("has MusicAlbum JSON-LD with every track as MusicRecording (ISO 8601 duration, byArtist, inAlbum) and a BreadcrumbList", async () => {
    const { ld } = await fetchPage(`/catalog/albums/${album.id}`);
    const canonical = `${origin()}/catalog/albums/${album.id}/${slugify(album.name)}`;
    const music = ld.find((d) => d["@type"] === "MusicAlbum")!;
    expect(music).toMatchObject({ "@context": "https://schema.org", name: album.name, url: canonical, byArtist: { "@type": "MusicGroup", name: album.artist }, numTracks: album.tracks.length });
    expect(music.track).toHaveLength(album.tracks.length);
    music.track.forEach((t: JsonLd, i: number) => {
      expect(t).toMatchObject({ "@type": "MusicRecording", position: i + 1, name: album.tracks[i]!.Filename, byArtist: { name: album.artist }, inAlbum: { "@type": "MusicAlbum", name: album.name, url: canonical } });
      expect(t.duration).toMatch(/^PT(\d+M)?\d+S$/);
      // the sample albums carry no ISRC per track: the field is left out rather than invented
      expect(t.isrcCode).toBeUndefined();
    });
    const crumbs = ld.find((d) => d["@type"] === "BreadcrumbList")!;
    expect(crumbs.itemListElement.map((c: JsonLd) => [c.position, c.name, c.item])).toEqual([
      [1, "Home", `${origin()}/`],
      [2, "Music Catalog", `${origin()}/catalog`],
      [3, album.name, canonical],
    ]);
  });

  it("shows the artwork, name, artist, genre and tracks with length, tempo, key and preview, and License this / Add to shortlist / the way back", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, `/catalog/albums/${album.id}?from=${encodeURIComponent("/catalog?genre=Jazz&page=2&item=x&utm=y")}`);
    const main = page.locator("main");
    await expect.poll(() => main.getByRole("heading", { level: 1 }).innerText()).toBe(album.name);
    expect(await main.getByText(album.artist, { exact: true }).count()).toBeGreaterThan(0);
    expect(await main.locator("img").first().getAttribute("src")).toMatch(/^\/img\?/);
    const rows = main.locator("ol > li");
    expect(await rows.count()).toBe(album.tracks.length);
    expect(await rows.first().innerText()).toContain(album.tracks[0]!.Filename);
    expect(await rows.first().locator("time").innerText()).toMatch(/^\d+:\d\d$/);
    expect(await main.locator("[data-track-facts]").count()).toBe(album.tracks.length);
    expect(await main.getByText(/^\d+ BPM$/).count()).toBeGreaterThan(0);
    expect(await main.getByText(/^[A-G]#? (major|minor)$/).count()).toBeGreaterThan(0);
    expect(await rows.first().getByRole("button", { name: /^Play preview/ }).count()).toBe(1);
    // issue #41: the link names what it licenses, and lands at the licensing form
    const license = main.getByRole("link", { name: "License this album", exact: true });
    expect(decodeURIComponent((await license.getAttribute("href"))!)).toBe(`/contact?tab=licensing&tracks=${album.name} — ${album.artist} (full album)#licensing-form`);
    expect(await main.getByRole("button", { name: "Add to shortlist", exact: true }).isEnabled()).toBe(true);
    // back to the view the visitor came from, only its catalog parameters, no open sheet
    expect(await main.getByRole("link", { name: "Back to the catalog" }).getAttribute("href")).toBe("/catalog?genre=Jazz&page=2");
    await page.context().close();
  });

  it("goes back to the music catalog by default, and never to another site", async () => {
    for (const from of ["", "?from=https%3A%2F%2Fevil.example%2Fcatalog", "?from=%2F%2Fevil.example%2Fcatalog"]) {
      const { html } = await fetchPage(`/catalog/albums/${album.id}${from}`);
      expect(html).toMatch(/<a[^>]* href="\/catalog"[^>]*>[^]*?Back to <!-- -->Music Catalog/);
      expect(html).not.toContain("evil.example/catalog\"");
    }
  });

  it("passes axe at 390 and 1280 px", async () => {
    const page = await newPage(browser);
    await axeAtBothWidths(page, `/catalog/albums/${album.id}/${slugify(album.name)}`, "item-album");
    await page.context().close();
  });
});

describe("single page", () => {
  it("has its title, canonical link and MusicRecording JSON-LD with the ISRC, and the release details of product-rules §2", async () => {
    const page = await fetchPage(`/catalog/singles/${single.id}`);
    const canonical = `${origin()}/catalog/singles/${single.id}/${slugify(single.title)}`;
    expect(page.status).toBe(200);
    expect(page.title).toBe(`${single.title} by ${single.artist} | Northbeat Media`);
    expect(page.canonical).toBe(canonical);
    expect(page.ogType).toBe("music.song");
    const rec = page.ld.find((d) => d["@type"] === "MusicRecording")!;
    expect(rec).toMatchObject({ name: single.title, url: canonical, byArtist: { "@type": "MusicGroup", name: single.artist }, isrcCode: detail.isrc });
    if (detail.album) expect(rec.inAlbum).toEqual({ "@type": "MusicAlbum", name: detail.album });
    expect(page.ld.find((d) => d["@type"] === "BreadcrumbList")!.itemListElement[1]).toMatchObject({ name: "Singles", item: `${origin()}/catalog?type=singles` });

    const browserPage = await newPage(browser);
    await gotoHydrated(browserPage, `/catalog/singles/${single.id}/wrong-slug`);
    const main = browserPage.locator("main");
    expect(await main.getByRole("heading", { level: 1 }).innerText()).toBe(single.title);
    const details = await main.locator("dl dt").allInnerTexts();
    expect(details).toEqual(["Album", "Genre", "Release Date", "Country", "Label", "Composer", "ISRC"]);
    expect(await main.locator("dl").innerText()).toContain(detail.isrc);
    expect(await main.getByRole("heading", { name: "Track Preview" }).count()).toBe(1);
    expect(await main.getByRole("link", { name: "Back to Singles" }).getAttribute("href")).toBe("/catalog?type=singles");
    await browserPage.context().close();
  });

  it("passes axe at 390 and 1280 px", async () => {
    const page = await newPage(browser);
    await axeAtBothWidths(page, `/catalog/singles/${single.id}`, "item-single");
    await page.context().close();
  });
});

describe("film page", () => {
  it("has its title, canonical link and Movie JSON-LD; film cards link to it, and it links back to the view", async () => {
    const page = await fetchPage(`/catalog/films/${film.film_id}`);
    const canonical = `${origin()}/catalog/films/${film.film_id}/${slugify(film.title)}`;
    expect(page.status).toBe(200);
    expect(page.title).toBe(`${film.title} (${film.format}) | Northbeat Media`);
    expect(page.canonical).toBe(canonical);
    expect(page.ogType).toBe("video.movie");
    expect(page.ld.find((d) => d["@type"] === "Movie")).toMatchObject({ "@context": "https://schema.org", name: film.title, url: canonical, genre: film.format });
    expect(page.ld.find((d) => d["@type"] === "BreadcrumbList")!.itemListElement.map((c: JsonLd) => c.name)).toEqual(["Home", "Film Catalog", film.title]);

    const browserPage = await newPage(browser);
    await gotoHydrated(browserPage, "/catalog?type=film&page=2");
    const card = browserPage.locator("[data-testid=catalog-grid] a[data-item-id]").first();
    const title = await card.locator("h2").innerText();
    await card.click();
    await browserPage.waitForURL(/\/catalog\/films\//);
    await expect.poll(() => browserPage.locator("main h1").innerText()).toBe(title);
    await browserPage.getByRole("link", { name: "Back to the catalog" }).click();
    await browserPage.waitForURL((u) => u.pathname === "/catalog" && u.search === "?type=film&page=2");
    await browserPage.context().close();
  });

  it("passes axe at 390 and 1280 px", async () => {
    const page = await newPage(browser);
    await axeAtBothWidths(page, `/catalog/films/${film.film_id}`, "item-film");
    await page.context().close();
  });
});

describe("item pages and the catalog", () => {
  it("answers the 404 page with status 404 for an unknown id or kind", async () => {
    for (const pathname of ["/catalog/albums/no-such-album", "/catalog/singles/SUB-0/x", "/catalog/films/none", "/catalog/channels/x"]) {
      const page = await fetchPage(pathname);
      expect(page.status, pathname).toBe(404);
      expect(page.title).toBe("Page not found | Northbeat Media");
      expect(page.html).toContain("Oops! Page not found");
      expect(page.canonical).toBeUndefined();
      expect(page.html).toContain('<meta name="robots" content="noindex"/>');
    }
  });

  it("gives a ?item= view the item page as its canonical link", async () => {
    expect((await fetchPage(`/catalog?genre=${encodeURIComponent(album.genre)}&item=${album.id}`)).canonical).toBe(`${origin()}/catalog/albums/${album.id}/${slugify(album.name)}`);
    expect((await fetchPage(`/catalog?type=singles&item=${single.id}`)).canonical).toBe(`${origin()}/catalog/singles/${single.id}/${slugify(single.title)}`);
  });

  it("opens the item page from the sheet's Open page, which leads back to the same view", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, `/catalog?type=singles&item=${single.id}`);
    const sheet = page.getByRole("dialog");
    await sheet.getByRole("link", { name: "Open page" }).click();
    await page.waitForURL((u) => u.pathname === `/catalog/singles/${single.id}/${slugify(single.title)}`);
    await expect.poll(() => page.locator("main h1").innerText()).toBe(single.title);
    await page.getByRole("link", { name: "Back to the catalog" }).or(page.getByRole("link", { name: "Back to Singles" })).click();
    await page.waitForURL((u) => u.pathname === "/catalog" && u.searchParams.get("type") === "singles" && !u.searchParams.has("item"));
    await page.context().close();
  });

  it("keeps item pages in the page cache, without the slug in the key", async () => {
    // two asks store a page (issue #18, ADR 0085): the second slug shares the first one's entry
    for (let i = 0; i < 2; i++) await (await fetch(url(`/catalog/films/${film.film_id}/one`))).text();
    const second = await fetch(url(`/catalog/films/${film.film_id}/two`));
    expect(await second.text()).toContain(`<link rel="canonical" href="${origin()}/catalog/films/${film.film_id}/${slugify(film.title)}"/>`);
    expect(second.headers.get("x-page-cache")).toBe("HIT");
    // a 404 is rendered every time
    expect((await fetch(url("/catalog/films/none"))).headers.get("x-page-cache")).toBe("MISS");
  });

  it("lists every item page in the sitemap, and robots.txt names it", async () => {
    const xml = await (await fetch(url("/sitemap.xml"))).text();
    const locs = new Set([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!));
    expect(locs.has(`${origin()}/catalog/albums/${album.id}/${slugify(album.name)}`)).toBe(true);
    expect(locs.has(`${origin()}/catalog/singles/${single.id}/${slugify(single.title)}`)).toBe(true);
    expect(locs.has(`${origin()}/catalog/films/${film.film_id}/${slugify(film.title)}`)).toBe(true);
    const counts = { albums: snapshot<unknown[]>("albums").length, singles: snapshot<unknown[]>("singles").length, films: snapshot<unknown[]>("films").length };
    expect([...locs].filter((l) => l.includes("/catalog/albums/")).length).toBe(counts.albums);
    expect([...locs].filter((l) => l.includes("/catalog/singles/")).length).toBe(counts.singles);
    expect([...locs].filter((l) => l.includes("/catalog/films/")).length).toBe(counts.films);
    // under 50,000 URLs: one file, no index
    expect(xml).toContain("<urlset");
    expect((await fetch(url("/sitemaps/1.xml"))).status).toBe(404);
    expect(await (await fetch(url("/robots.txt"))).text()).toMatch(/^Sitemap: https?:\/\/.+\/sitemap\.xml$/m);
  });
});

import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot, url, waitHydrated } from "./support/browser.ts";
import { freePort, waitForHealthy } from "./support/server-process.ts";
import { expectScriptsHashed } from "./support/csp.ts";

// Expectations come from the sample catalog the server generated into DATA_DIR (deterministic).
interface SnapAlbum { id: string; name: string; artist: string; genre: string; keywords: string[]; featured: boolean; tracks: { s3Path: string; Filename: string }[] }
interface SnapSingle { id: string; title: string; artist: string; genre: string; audioUrl: string }
interface SnapDetail { submissionId: string; isrc: string; parentalAdvisory: boolean; subGenre: string; genre: string }
interface SnapFilm { film_id: string; title: string; portrait?: string; landscape?: string; artwork?: string[] }

const snapshot = <T>(name: string): T =>
  (JSON.parse(fs.readFileSync(path.join(inject("dataDir"), "catalog", "snapshots", `${name}.json`), "utf8")) as { data: T }).data;

let browser: Browser;
let albums: SnapAlbum[];
let singles: SnapSingle[];
let details: Record<string, SnapDetail>;
let films: SnapFilm[];

beforeAll(async () => {
  browser = await launchBrowser();
  albums = snapshot<SnapAlbum[]>("albums");
  singles = snapshot<SnapSingle[]>("singles");
  details = snapshot<Record<string, SnapDetail>>("release-details");
  films = snapshot<SnapFilm[]>("films");
});
afterAll(async () => browser?.close());

const statusText = (page: Page) => page.locator("#results-status").innerText();
/** The list status once the navigation has settled (the URL changes before the new list renders). */
const expectStatus = (page: Page, text: string) => expect.poll(() => statusText(page), { timeout: 30_000 }).toBe(text);
const chipLabels = (page: Page) => page.locator('ul[aria-label="Active filters"] a').allInnerTexts();
const gridIds = (page: Page) => page.locator("[data-testid=catalog-grid] [data-item-id]").evaluateAll((els) => els.map((e) => e.getAttribute("data-item-id")));
/** Delays client-side loader requests so loading states can be seen. */
async function slowLoaders(page: Page, ms: number) {
  await page.route(/\/catalog\.data/, async (route) => {
    await new Promise((r) => setTimeout(r, ms));
    await route.continue();
  });
}

describe("catalog page: titles, tabs and list states", () => {
  it("titles the page by type and disables Channels and Compilations with Soon!", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog");
    expect(await page.locator("h1").innerText()).toBe("Music Catalog");
    expect(await page.title()).toMatch(/^Music Catalog \|/);
    const nav = page.getByRole("navigation", { name: "Content type" });
    expect(await nav.locator("li").allInnerTexts()).toEqual(["Music", "Films", "Singles", "Channels\nSoon!", "Compilations\nSoon!"]);
    expect(await nav.locator("[aria-disabled=true]").count()).toBe(2);
    expect(await nav.getByRole("link", { disabled: false }).allInnerTexts()).toEqual(["Music", "Films", "Singles"]);
    // Issue #11: announced as disabled links named with their badge, not as bare text
    expect(await nav.ariaSnapshot()).toContain('- link "Channels Soon!" [disabled]');
    expect(await nav.ariaSnapshot()).toContain('- link "Compilations Soon!" [disabled]');
    for (const name of ["Channels Soon!", "Compilations Soon!"]) {
      const disabled = nav.getByRole("link", { name, exact: true, disabled: true });
      expect(await disabled.getAttribute("href")).toBeNull();
      expect(await disabled.evaluate((el: HTMLElement) => (el.focus(), document.activeElement === el))).toBe(false);
    }
    await expectNoAxeViolations(page);

    await nav.getByRole("link", { name: "Films" }).click();
    await page.waitForURL(/type=film/);
    // the URL can change a frame before the new page is on screen: wait for its heading
    await page.getByRole("heading", { level: 1, name: "Film Catalog", exact: true }).waitFor();
    expect(await page.locator("h1").innerText()).toBe("Film Catalog");
    await expectStatus(page, `Showing ${films.length} films`);
    await nav.getByRole("link", { name: "Singles" }).click();
    await page.waitForURL(/type=singles/);
    await page.getByRole("heading", { level: 1, name: "Catalog", exact: true }).waitFor();
    expect(await page.locator("h1").innerText()).toBe("Catalog");
    await expectStatus(page, `Showing ${singles.length} items`);
    await page.context().close();
  });

  it("shows the Compilations text", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog?type=compilations");
    await page.getByText("Compilations Coming Soon!").waitFor();
    await page.getByText("We're working on bringing you amazing compilation albums.").waitFor();
    await page.context().close();
  });

  it("sends the disabled Channels tab back to the catalog", async () => {
    const res = await fetch(url("/catalog?type=channels"), { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/catalog");
  });

  it('shows "Showing {count} albums", the empty state and Clear All Filters', async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog");
    await expectStatus(page, `Showing ${albums.length.toLocaleString("en-US")} albums`);
    expect(await gridIds(page)).toEqual(albums.slice(0, 12).map((a) => a.id));

    await page.getByRole("searchbox", { name: "Search the catalog" }).fill("zzqx no such album");
    await page.getByRole("searchbox", { name: "Search the catalog" }).press("Enter");
    await page.getByRole("heading", { name: "No albums found" }).waitFor();
    expect(await page.getByText("🎵").count()).toBe(1);
    await page.getByText("Try adjusting your search criteria or clearing filters").waitFor();
    await page.getByRole("link", { name: "Clear All Filters" }).click();
    await page.waitForURL((u) => u.search === "");
    await expectStatus(page, `Showing ${albums.length.toLocaleString("en-US")} albums`);
    await page.context().close();
  });

  it('shows "Loading {noun}..." and the singles skeletons during a client navigation', async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog");
    await slowLoaders(page, 1500);
    await page.getByRole("navigation", { name: "Content type" }).getByRole("link", { name: "Singles" }).click();
    await page.getByText("Loading items...").waitFor();
    expect(await page.getByTestId("genre-skeletons").locator("li").allInnerTexts()).toEqual(Array(5).fill("Loading..."));
    await page.getByText(`Showing ${singles.length} items`).waitFor();

    await page.getByRole("group", { name: "Genre" }).getByRole("link", { name: "Pop", exact: true }).click();
    await page.getByText("Loading sub-genres...").waitFor();
    await page.getByRole("group", { name: "Sub-genre" }).getByRole("link", { name: "K-Pop" }).waitFor();
    await page.context().close();
  });
});

describe("catalog filters, chips and pagination", () => {
  it("keeps the filter bar pinned below the header while scrolling, with a focused result below it (product-rules §2), at 640 and 1280 px", async () => {
    // on a phone the bar scrolls away (spec-deviations: a like= view's first row must fit 390×844, issue #41)
    for (const viewport of [{ width: 640, height: 800 }, { width: 1280, height: 800 }]) {
      const page = await newPage(browser, { viewport });
      await gotoHydrated(page, "/catalog?view=tracks&genre=House");
      const bar = page.locator("[data-filter-bar]");
      const header = await page.locator("header").first().boundingBox();
      const before = (await bar.boundingBox())!;
      expect(before.y).toBeGreaterThan(header!.y + header!.height);
      await page.mouse.move(viewport.width / 2, viewport.height / 2);
      await page.mouse.wheel(0, 1500);
      await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(1000);
      // a sticky box moves only within its parent: before the fix it scrolled away with the page
      await expect.poll(async () => Math.round((await bar.boundingBox())!.y)).toBe(Math.round(header!.y + header!.height));
      const pinned = (await bar.boundingBox())!;
      // a result's licence link scrolled past above, reached again by keyboard (Shift+Tab lands
      // there the same way), is scrolled to below the bar, not under it (scroll-padding-top)
      const links = page.getByRole("link", { name: "License this track" });
      const above = await links.evaluateAll((els) => els.findIndex((e) => e.getBoundingClientRect().bottom < 0));
      expect(above).toBeGreaterThanOrEqual(0);
      await links.nth(above).focus();
      const focused = (await links.nth(above).boundingBox())!;
      expect(focused.y).toBeGreaterThanOrEqual(pinned.y + pinned.height);
      await page.context().close();
    }
  });

  it("walks the genre tree with All at each level, with chips", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog");
    const genre = page.getByRole("group", { name: "Genre" });
    expect(await genre.getByRole("link", { name: "All" }).getAttribute("aria-current")).toBe("true");
    await genre.getByRole("link", { name: "Children", exact: true }).click();
    await page.waitForURL(/genre=Children/);
    const children = albums.filter((a) => a.keywords[0] === "children");
    await expectStatus(page, `Showing ${children.length} albums`);

    await page.getByRole("group", { name: "Sub-genre" }).getByRole("link", { name: "Religion", exact: true }).click();
    await page.waitForURL(/sub=Religion/);
    const religion = children.filter((a) => a.keywords[1] === "religion");
    await expectStatus(page, `Showing ${religion.length} albums`);
    const chips = page.getByRole("list", { name: "Active filters" });
    expect(await chipLabels(page)).toEqual(["Children", "Religion"]);

    const level2 = page.getByRole("group", { name: "Sub-genre 2" });
    const leaf = religion.find((a) => a.keywords[2])!.keywords[2];
    await level2.getByRole("link", { name: new RegExp(`^${leaf}$`, "i") }).click();
    await page.waitForURL(/sub=Religion&sub=/);
    await expectStatus(page, `Showing ${religion.filter((a) => a.keywords[2] === leaf).length} albums`);

    // "All" at level 2 clears level 2 and keeps level 1
    await page.getByRole("group", { name: "Sub-genre 2" }).getByRole("link", { name: "All" }).click();
    await page.waitForURL((u) => u.searchParams.getAll("sub").join() === "Religion");

    // removing the genre chip clears everything
    await chips.getByRole("link", { name: "Remove filter Children" }).click();
    await page.waitForURL((u) => u.search === "");
    await expect.poll(() => chipLabels(page)).toEqual([]);
    await page.context().close();
  });

  it("matches african, asian and latin sub-genres in the album name", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog?genre=African&sub=Ghana");
    const expected = albums.filter((a) => a.keywords[0] === "african" && a.name.toLowerCase().includes("ghana"));
    await expectStatus(page, `Showing ${expected.length} albums`);
    expect((await gridIds(page)).sort()).toEqual(expected.map((a) => a.id).sort());
    await page.context().close();
  });

  it("filters singles by genre and sub-genre, and says when a genre has no sub-genres", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog?type=singles&genre=Pop&sub=K-Pop");
    const expected = singles.filter((s) => s.genre === "Pop" && details[s.id]?.subGenre === "K-Pop");
    await expectStatus(page, `Showing ${expected.length} items`);
    await gotoHydrated(page, "/catalog?type=singles&genre=Country");
    await page.getByText("No sub-genres available for this genre.").waitFor();
    await page.context().close();
  });

  it("shows the pagination window with Prev/Next disabled at the ends, hidden at one page", async () => {
    const page = await newPage(browser);
    const last = Math.ceil(albums.length / 12);
    await gotoHydrated(page, "/catalog");
    const pager = page.getByRole("navigation", { name: "Pagination" });
    expect(await pager.innerText()).toBe(["Prev", "1", "2", "3", "…", String(last), "Next"].join("\n"));
    expect(await pager.locator("[aria-disabled=true]").innerText()).toBe("Prev");
    await pager.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/page=2/);
    await expect.poll(() => gridIds(page)).toEqual(albums.slice(12, 24).map((a) => a.id));

    await gotoHydrated(page, "/catalog?page=10");
    expect(await pager.innerText()).toBe(["Prev", "1", "…", "8", "9", "10", "11", "12", "…", String(last), "Next"].join("\n"));
    expect(await pager.getByRole("link", { name: "Page 10" }).getAttribute("aria-current")).toBe("page");

    await gotoHydrated(page, `/catalog?page=${last}`);
    expect(await pager.locator("[aria-disabled=true]").innerText()).toBe("Next");
    await gotoHydrated(page, "/catalog?page=999999");
    expect(await pager.getByRole("link", { name: `Page ${last}` }).getAttribute("aria-current")).toBe("page");

    await gotoHydrated(page, "/catalog?genre=Children&sub=Religion");
    expect(await pager.count()).toBe(0);
    await page.context().close();
  });

  it("answers bad catalog URLs with a page, never an error", async () => {
    for (const q of ["page=-3", "type=%FF", "genre=%00%01", `q=${"x".repeat(3000)}`, "sub=a&sub=b", "item=does-not-exist"]) {
      const res = await fetch(url(`/catalog?${q}`));
      expect(res.status, q).toBe(200);
    }
    // Beyond URL_LIMIT_BYTES (4 KB) the request gate answers 414 with its reason (issue #7).
    const long = await fetch(url(`/catalog?q=${"x".repeat(5000)}`));
    expect(long.status).toBe(414);
    expect(await long.text()).toMatch(/too long/i);
  });
});

describe("catalog cards and sheets", () => {
  it("opens an album sheet with numbered tracks and a licensing link; Back closes it", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog");
    const album = albums[1];
    await page.locator(`[data-item-id="${album.id}"]`).click();
    await page.waitForURL(new RegExp(`item=${album.id}`));
    const sheet = page.getByRole("dialog");
    expect(await sheet.getByRole("heading", { level: 2 }).innerText()).toBe(album.name);
    await sheet.getByText(album.artist).waitFor();
    expect(await sheet.getByRole("heading", { name: "Tracks" }).count()).toBe(1);
    const rows = sheet.locator("ol > li");
    expect(await rows.count()).toBe(album.tracks.length);
    expect(await rows.first().innerText()).toContain(`1\n${album.tracks[0].Filename}`);
    expect(await sheet.getByRole("button", { name: `Play preview of ${album.tracks[0].Filename}` }).count()).toBe(1);
    expect(await sheet.locator("audio").first().getAttribute("preload")).toBe("none");
    // issue #41: an album's link says so, and lands at the form, which names the whole album
    expect(await sheet.getByRole("link", { name: "License this track" }).count()).toBe(0);
    const license = sheet.getByRole("link", { name: "License this album" });
    expect(await license.getAttribute("href")).toBe(
      `/contact?tab=licensing&tracks=${encodeURIComponent(`${album.name} — ${album.artist} (full album)`)}#licensing-form`,
    );
    await screenshot(page, "catalog-album-sheet-1280");
    await expectNoAxeViolations(page);

    await page.goBack();
    await page.waitForURL((u) => !u.searchParams.has("item"));
    await sheet.waitFor({ state: "detached" });
    await page.context().close();
  });

  it("opens a single sheet with release details, Unknown Genre, ISRC '-' and Parental Advisory", async () => {
    const page = await newPage(browser);
    const noGenre = singles.find((s) => !s.genre)!;
    await gotoHydrated(page, `/catalog?type=singles&item=${noGenre.id}`);
    const sheet = page.getByRole("dialog");
    await sheet.getByText("Unknown Genre").waitFor();
    await sheet.getByText("Track Preview").waitFor();
    for (const term of ["Album", "Genre", "Release Date", "Country", "Label", "Composer", "ISRC"]) {
      expect(await sheet.locator("dt", { hasText: new RegExp(`^${term}$`) }).count(), term).toBe(1);
    }

    const noIsrc = singles.find((s) => !details[s.id]?.isrc)!;
    await gotoHydrated(page, `/catalog?type=singles&item=${noIsrc.id}`);
    expect(await sheet.locator("dt:text-is('ISRC') + dd").innerText()).toBe("-");

    const advisory = singles.find((s) => details[s.id]?.parentalAdvisory && details[s.id].subGenre)!;
    await gotoHydrated(page, `/catalog?type=singles&item=${advisory.id}`);
    await sheet.getByText("Parental Advisory").waitFor();
    expect(await sheet.locator("dt:text-is('Genre') + dd").innerText()).toBe(`${details[advisory.id].genre} / ${details[advisory.id].subGenre}`);
    await expectNoAxeViolations(page);

    const silent = singles.find((s) => !s.audioUrl)!;
    await gotoHydrated(page, `/catalog?type=singles&item=${silent.id}`);
    await sheet.getByText("Audio preview not available").waitFor();
    await page.context().close();
  });

  it("shows a placeholder when a film image fails to load", async () => {
    const page = await newPage(browser);
    const broken = films.findIndex((f) => /missing/.test(f.portrait || f.landscape || f.artwork?.[0] || ""));
    expect(broken).toBeGreaterThanOrEqual(0);
    await gotoHydrated(page, `/catalog?type=film&page=${Math.floor(broken / 12) + 1}`);
    const card = page.locator(`[data-item-id="${films[broken].film_id}"]`);
    await card.locator("img[data-placeholder=film]").waitFor();
    // a film whose image exists keeps its image
    const ok = films.findIndex((f, i) => Math.floor(i / 12) === Math.floor(broken / 12) && !/missing/.test(f.portrait || f.landscape || f.artwork?.[0] || ""));
    expect(await page.locator(`[data-item-id="${films[ok].film_id}"] img[data-placeholder]`).count()).toBe(0);
    await page.context().close();
  });
});

describe("audio preview", () => {
  it("starts at 0, stops by itself at 10 s, and only one plays at a time", async () => {
    const page = await newPage(browser);
    const album = albums.find((a) => a.tracks.length >= 2)!;
    await gotoHydrated(page, `/catalog?item=${album.id}`);
    const sheet = page.getByRole("dialog");
    const players = sheet.locator("[data-preview-state]");
    const first = players.nth(0);
    const second = players.nth(1);

    // right-click on the player is blocked
    const blocked = await first.evaluate((el) => !el.dispatchEvent(new MouseEvent("contextmenu", { bubbles: true, cancelable: true })));
    expect(blocked).toBe(true);

    await first.getByRole("button", { name: `Play preview of ${album.tracks[0].Filename}` }).click();
    await page.waitForFunction((el) => el.getAttribute("data-preview-state") === "playing", await first.elementHandle());
    await second.getByRole("button", { name: `Play preview of ${album.tracks[1].Filename}` }).click();
    await page.waitForFunction((el) => el.getAttribute("data-preview-state") === "playing", await second.elementHandle());
    expect(await first.getAttribute("data-preview-state")).toBe("stopped");
    expect(await first.locator("audio").evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);

    // speed up, record the furthest point reached, and wait for the automatic stop
    const audio = second.locator("audio");
    await audio.evaluate((a: HTMLAudioElement) => {
      a.playbackRate = 4;
      (window as unknown as { maxTime: number }).maxTime = 0;
      a.addEventListener("timeupdate", () => {
        const w = window as unknown as { maxTime: number };
        w.maxTime = Math.max(w.maxTime, a.currentTime);
      });
    });
    const progress = second.getByRole("progressbar");
    await page.waitForFunction((el) => Number(el.getAttribute("aria-valuenow")) >= 20, await progress.elementHandle());
    await page.waitForFunction((el) => el.getAttribute("data-preview-state") === "stopped", await second.elementHandle(), { timeout: 30_000 });
    const state = await audio.evaluate((a: HTMLAudioElement) => ({ paused: a.paused, time: a.currentTime, duration: a.duration, max: (window as unknown as { maxTime: number }).maxTime }));
    expect(state.duration).toBeGreaterThan(10); // the clip is longer than the preview
    expect(state.paused).toBe(true);
    expect(state.max).toBeGreaterThan(8);
    expect(state.max).toBeLessThan(11);
    expect(await progress.getAttribute("aria-valuenow")).toBe("0");

    // play again: starts from 0. Where it starts is read when it starts (its "play" event), at
    // normal speed: read after the state shows "playing", a loaded CI machine had let it run on
    // 2.9 s at 4x.
    await audio.evaluate((a: HTMLAudioElement) => {
      a.playbackRate = 1;
      a.addEventListener("play", () => ((window as unknown as { startedAt: number }).startedAt = a.currentTime), { once: true });
    });
    await second.getByRole("button", { name: /Play preview of/ }).click();
    await page.waitForFunction((el) => el.getAttribute("data-preview-state") === "playing", await second.elementHandle());
    expect(await page.evaluate(() => (window as unknown as { startedAt: number }).startedAt)).toBeLessThan(1);
    // the pause toggle
    await second.getByRole("button", { name: `Pause preview of ${album.tracks[1].Filename}` }).click();
    expect(await audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
    await page.context().close();
  });
});

describe("URL state, keyboard, no-JS, accessibility", () => {
  it("restores a view from its URL", async () => {
    const page = await newPage(browser);
    const children = albums.filter((a) => a.keywords[0] === "children");
    const target = children[Math.min(13, children.length - 1)];
    const pageNo = Math.floor(children.indexOf(target) / 12) + 1;
    await gotoHydrated(page, `/catalog?genre=Children&page=${pageNo}&item=${target.id}`);
    expect(await page.getByRole("dialog").getByRole("heading", { level: 2 }).innerText()).toBe(target.name);
    expect(await chipLabels(page)).toEqual(["Children"]);
    expect(await gridIds(page)).toContain(target.id);
    // closing a sheet that a shared URL opened drops item= and stays on the view
    await page.keyboard.press("Escape");
    await page.waitForURL((u) => !u.searchParams.has("item") && u.searchParams.get("genre") === "Children");
    await page.context().close();
  });

  it("is usable with the keyboard alone", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog?genre=Jazz");
    let focusedId: string | null = null;
    for (let i = 0; i < 80 && !focusedId; i++) {
      await page.keyboard.press("Tab");
      focusedId = await page.evaluate(() => document.activeElement?.getAttribute("data-item-id") ?? null);
    }
    expect(focusedId).not.toBeNull();
    await page.keyboard.press("Enter");
    const sheet = page.getByRole("dialog");
    await sheet.waitFor();
    const album = albums.find((a) => a.id === focusedId)!;
    // focus moves into the sheet; the first control is the first track's play button
    const label = await page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
    expect(label).toBe(`Play preview of ${album.tracks[0].Filename}`);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("[data-preview-state=playing]") !== null);
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelector("[data-preview-state=playing]") === null);
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });
    await page.waitForURL((u) => !u.searchParams.has("item"));
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-item-id"))).toBe(focusedId);
    await page.context().close();
  });

  it("works without JavaScript: filters are links, search is a GET form", async () => {
    const page = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(url("/catalog"));
    await page.getByRole("group", { name: "Genre" }).getByRole("link", { name: "Jazz", exact: true }).click();
    await page.waitForURL(/genre=Jazz/);
    const jazz = albums.filter((a) => a.keywords[0] === "jazz");
    await expectStatus(page, `Showing ${jazz.length} albums`);
    await page.getByRole("searchbox", { name: "Search the catalog" }).fill(jazz[0].artist);
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL((u) => u.searchParams.get("q") === jazz[0].artist && u.searchParams.get("genre") === "Jazz");
    // the search reads track titles too: an album whose track features the artist ("feat. …", issue #32) is found
    const byArtist = jazz.filter((a) =>
      [a.name, a.artist, a.genre, ...a.tracks.map((t) => t.Filename)].join("\u0000").toLowerCase().includes(jazz[0].artist.toLowerCase()),
    );
    await expectStatus(page, `Showing ${byArtist.length} albums`);
    await page.getByRole("link", { name: "Clear Filters" }).click();
    await page.waitForURL((u) => u.search === "");
    await page.getByRole("navigation", { name: "Pagination" }).getByRole("link", { name: "Page 2", exact: true }).click();
    await page.waitForURL(/page=2/);
    await page.context().close();
  });

  it("without JavaScript, a genre's sub-genres are in the server's HTML, not a loading message", async () => {
    // the sub-genres are a loader's deferred value: the document waits for it and renders it in
    // place (before, it was a "Loading sub-genres..." placeholder that only a script replaced)
    const page = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(url("/catalog?type=singles&genre=Pop"));
    const sub = page.getByRole("group", { name: "Sub-genre" });
    await sub.getByRole("link", { name: "K-Pop" }).click();
    await page.waitForURL((u) => u.searchParams.get("sub") === "K-Pop");
    const expected = singles.filter((s) => s.genre === "Pop" && details[s.id]?.subGenre === "K-Pop");
    await expectStatus(page, `Showing ${expected.length} items`);
    expect(await page.getByText("Loading sub-genres...").count()).toBe(0);
    await page.context().close();
  });

  it("without JavaScript, a card opens the item as a panel in the server's HTML, and Close drops item=", async () => {
    const page = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(url("/catalog"));
    const first = page.locator("[data-item-id]").first();
    const id = await first.getAttribute("data-item-id");
    await first.click();
    await page.waitForURL((u) => u.searchParams.get("item") === id);
    const album = albums.find((a) => a.id === id)!;
    const panel = page.getByRole("complementary", { name: album.name });
    await panel.waitFor();
    await expect(panel.getByRole("heading", { name: "Tracks" }).isVisible()).resolves.toBe(true);
    await expect(panel.getByRole("link", { name: "License this album" }).isVisible()).resolves.toBe(true);
    await panel.getByRole("link", { name: "Close" }).click();
    await page.waitForURL((u) => !u.searchParams.has("item"));
    expect(await page.getByRole("complementary", { name: album.name }).count()).toBe(0);
    await page.context().close();
  });

  it("has no axe violations and describes the page as JSON-LD", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog?genre=Children");
    await expectNoAxeViolations(page);
    const ld = JSON.parse(await page.locator('script[type="application/ld+json"]').textContent() ?? "{}");
    expect(ld["@type"]).toBe("ItemList");
    expect(ld.itemListElement[0].item["@type"]).toBe("MusicAlbum");
    expect(ld.itemListElement.length).toBe(Math.min(12, albums.filter((a) => a.keywords[0] === "children").length));
    await gotoHydrated(page, "/catalog?type=film");
    const films = JSON.parse(await page.locator('script[type="application/ld+json"]').textContent() ?? "{}");
    expect(films.itemListElement[0].item["@type"]).toBe("Movie");
    await page.context().close();
  });

  it("sends one page of cards, not the catalog", async () => {
    const html = await (await fetch(url("/catalog"))).text();
    const data = await (await fetch(url("/catalog.data?genre=Jazz"))).text();
    expect(html).toContain(albums[0].name);
    expect(html).not.toContain(albums[12].id);
    expect(data).not.toContain(albums.filter((a) => a.keywords[0] === "jazz")[12]?.id ?? "no-13th-jazz-album");
    expect(data).not.toMatch(/contactEmail|@example\.com|US\d{6}/);
  });

  it("looks right at 390 and 1280 px", async () => {
    for (const width of [390, 1280]) {
      const page = await newPage(browser, { viewport: { width, height: 900 } });
      await gotoHydrated(page, "/catalog?genre=Children&sub=Religion");
      await screenshot(page, `catalog-music-${width}`);
      await gotoHydrated(page, `/catalog?type=singles&genre=Pop&item=${singles.find((s) => s.genre === "Pop")!.id}`);
      await screenshot(page, `catalog-single-sheet-${width}`);
      await page.context().close();
    }
  });
});

/** A GET that keeps the bytes as sent (fetch would decode them). */
async function rawGet(path: string, headers: Record<string, string> = {}) {
  const { request } = await import("node:http");
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; raw: Buffer }>((resolve, reject) => {
    request(url(path), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          raw: Buffer.concat(chunks),
        }),
      );
    })
      .on("error", reject)
      .end();
  });
}

describe("page cache (issue #8)", () => {
  it("renders a catalog view once, then answers it from memory, the same bytes with the same hash-based CSP", async () => {
    // an unknown open item makes the view's key unique to this run; the list is Jazz page 2
    const view = `/catalog?genre=Jazz&page=2&item=e2e-${Date.now()}`;
    // asked once, a page is sent without being stored; the second ask stores it (issue #18, ADR 0085)
    const once = await fetch(url(view));
    await once.arrayBuffer();
    const first = await fetch(url(view));
    const second = await fetch(url(view));
    expect([once, first, second].map((res) => res.headers.get("x-page-cache"))).toEqual(["MISS", "MISS", "HIT"]);
    const [a, b] = [await first.text(), await second.text()];
    for (const [res, html] of [[first, a], [second, b]] as const) {
      expect(expectScriptsHashed(res.headers.get("content-security-policy"), html)).toBeGreaterThan(0);
    }
    // the same page: Jazz albums, page 2
    expect(b).toBe(a);
    const jazz = albums.filter((x) => x.keywords[0]?.toLowerCase() === "jazz");
    const escaped = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#x27;");
    expect(b).toContain(escaped(jazz[12].name));
  });

  it("shares the entry of a view written differently, and keeps .data apart", async () => {
    const id = `e2e-${Date.now()}`;
    // two asks store a page (issue #18, ADR 0085); the third, written differently, is its hit
    await (await fetch(url(`/catalog?genre=Jazz&item=${id}`))).arrayBuffer();
    await (await fetch(url(`/catalog?genre=Jazz&item=${id}`))).arrayBuffer();
    const same = await fetch(url(`/catalog?item=${id}&genre=jazz&utm_source=newsletter`));
    expect(same.headers.get("x-page-cache")).toBe("HIT");
    const data = await fetch(url(`/catalog.data?genre=Jazz&item=${id}`));
    expect(data.headers.get("x-page-cache")).toBe("MISS");
    const dataAgain = await fetch(url(`/catalog.data?genre=Jazz&item=${id}`));
    expect(dataAgain.headers.get("x-page-cache")).toBe("MISS");
    const dataHit = await fetch(url(`/catalog.data?genre=Jazz&item=${id}`));
    expect(dataHit.headers.get("x-page-cache")).toBe("HIT");
    expect(await dataHit.text()).toBe(await data.text());
    await dataAgain.arrayBuffer();
  });

  it("sends a cached page brotli-compressed when asked, decoding to the identity page", async () => {
    await rawGet("/mission");
    const br = await rawGet("/mission", { "accept-encoding": "gzip, deflate, br" });
    const gzip = await rawGet("/mission", { "accept-encoding": "gzip" });
    const identity = await rawGet("/mission");
    expect(br.headers["x-page-cache"]).toBe("HIT");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
    const page = identity.raw.toString();
    expect(brotliDecompressSync(br.raw).toString()).toBe(page);
    expect(gunzipSync(gzip.raw).toString()).toBe(page);
    expect(br.raw.length).toBeLessThan(identity.raw.length / 4);
  });
});

describe("home page featured albums", () => {
  it("shows up to 6 featured albums, each opening its sheet in the catalog", async () => {
    const featured = albums.filter((a) => a.featured).slice(0, 6);
    const page = await newPage(browser);
    await gotoHydrated(page, "/");
    const section = page.locator("section[aria-labelledby=featured-title]");
    expect(await section.locator("h3").allInnerTexts()).toEqual(featured.map((a) => a.name));
    await section.getByRole("link", { name: new RegExp(featured[0].name) }).click();
    await page.waitForURL((u) => u.pathname === "/catalog" && u.searchParams.get("item") === featured[0].id);
    expect(await page.getByRole("dialog").getByRole("heading", { level: 2 }).innerText()).toBe(featured[0].name);
    await page.context().close();
  });
});

describe("channels (enabled by CATALOG_CHANNELS_ENABLED) and an album without tracks", () => {
  let child: ChildProcess;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-channels-"));
    // Reuse the generated sample media and channels; a small album list with a null entry
    // and an album without tracks.
    const sample = path.join(inject("dataDir"), "catalog", "sample");
    const albumsFile = path.join(dir, "albums.json");
    fs.writeFileSync(
      albumsFile,
      JSON.stringify([
        { name: "Quiet Rooms", artist: "Nobody Yet", genre: "Relaxing", artwork: "cover-01.webp", keywords: ["relaxing"], featured: false, tracks: [] },
        null,
        { name: "Loud Rooms", artist: "Somebody", genre: "House", artwork: "cover-02.webp", keywords: ["house", "edm house"], featured: true, tracks: [{ s3Path: "track-01.wav", Filename: "One" }] },
      ]),
    );
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const root = path.resolve(import.meta.dirname, "../..");
    child = spawn(path.join(root, "node_modules/.bin/node"), ["server.ts"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dir,
        LOG_LEVEL: "warn",
        ALBUMS_URL: albumsFile,
        CHANNELS_URL: path.join(sample, "channels.json"),
        CATALOG_CHANNELS_ENABLED: "true",
        OUTBOX_WORKER: "false",
        // the last test changes the album file and waits for the page to show it
        CATALOG_REFRESH_SECONDS: "1",
      },
      stdio: "ignore",
    });
    await waitForHealthy(base, child, 120_000);
  });
  afterAll(async () => {
    child?.kill("SIGTERM");
    await new Promise((r) => child?.once("exit", r) ?? r(undefined));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("shows channel cards and filters; toggles and category reset", async () => {
    const channels = (JSON.parse(fs.readFileSync(path.join(inject("dataDir"), "catalog", "sample", "channels.json"), "utf8")) as Array<{ category: string; country: string; subscriberCount: number } | null>).filter(Boolean) as Array<{ category: string; country: string; subscriberCount: number }>;
    const page = await newPage(browser);
    await page.goto(`${base}/catalog?type=channels`);
    await waitHydrated(page);
    expect(await page.locator("h1").innerText()).toBe("Channels Catalog");
    await expectStatus(page, `Showing ${channels.length} channels`);
    const firstCard = page.locator("[data-testid=catalog-grid] article").first();
    expect(await firstCard.innerText()).toMatch(/\d+(\.\d)?[KM]?\s+subscribers/);
    expect(await firstCard.innerText()).toMatch(/Updated \S+/);

    // A toggle's link is built from the filters shown: React Router changes the URL before it
    // renders the new page (a transition), so the next toggle is clicked only once this one
    // shows as chosen (CI once clicked UK's old link, the one without USA, in that gap).
    const toggle = async (group: string, name: string, url: RegExp | ((u: URL) => boolean), chosen: boolean) => {
      const link = page.getByRole("group", { name: group }).getByRole("link", { name, exact: true });
      await link.click();
      await page.waitForURL(url);
      await expect.poll(() => link.getAttribute("aria-current")).toBe(chosen ? "true" : null);
    };
    await toggle("Countries", "USA", /country=USA/, true);
    await toggle("Countries", "UK", /country=USA&country=UK/, true);
    await toggle("Countries", "USA", (u) => u.searchParams.getAll("country").join() === "UK", false);
    await toggle("Subscriber Range", "1M-10M", /subs=1M-10M/, true);
    const expected = channels.filter((c) => c.country.toLowerCase().includes("uk") && c.subscriberCount >= 1e6 && c.subscriberCount < 1e7).length;
    await expectStatus(page, expected ? `Showing ${expected} channels` : "Showing 0 channels");
    // a category resets the other filters
    await page.getByRole("group", { name: "Category" }).getByRole("link", { name: "Gaming" }).click();
    await page.waitForURL((u) => u.search === "?type=channels&category=Gaming");
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it('says "No tracks available." for an album without tracks, and drops null entries', async () => {
    const page = await newPage(browser);
    await page.goto(`${base}/catalog`);
    await waitHydrated(page);
    await expectStatus(page, "Showing 2 albums");
    await page.getByText("Quiet Rooms").click();
    await page.getByRole("dialog").getByText("No tracks available.").waitFor();
    await page.context().close();
  });

  it("shows a changed catalog at once: the page cache is dropped when the catalog version changes", async () => {
    // asked twice, the page is stored (issue #18, ADR 0085)
    await (await fetch(`${base}/catalog`)).arrayBuffer();
    const before = await fetch(`${base}/catalog`);
    const cached = await fetch(`${base}/catalog`);
    expect(cached.headers.get("x-page-cache")).toBe("HIT");
    expect(await cached.text()).toContain("Quiet Rooms");
    await before.arrayBuffer();
    const albumsFile = path.join(dir, "albums.json");
    const list = JSON.parse(fs.readFileSync(albumsFile, "utf8")) as Array<{ name: string } | null>;
    list[0]!.name = "Quieter Rooms";
    fs.writeFileSync(albumsFile, JSON.stringify(list));
    // the next sync (CATALOG_REFRESH_SECONDS=1) reads the file; the next request renders anew
    await expect
      .poll(async () => (await (await fetch(`${base}/catalog`)).text()).includes("Quieter Rooms"), { timeout: 15_000 })
      .toBe(true);
    expect((await fetch(`${base}/catalog`)).headers.get("x-page-cache")).toBe("HIT");
  });
});

import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot, url, waitHydrated } from "./support/browser.ts";

// Issue #11 "Shortlist, without an account" (DESIGN.md §3b: /shortlist, /shortlist?items=id,id,…).
interface SnapAlbum { id: string; name: string; artist: string; tracks: { Filename: string }[] }
interface SnapSingle { id: string; title: string; artist: string }

const snapshot = <T>(name: string): T =>
  (JSON.parse(fs.readFileSync(path.join(inject("dataDir"), "catalog", "snapshots", `${name}.json`), "utf8")) as { data: T }).data;

let browser: Browser;
let albums: SnapAlbum[];
let singles: SnapSingle[];

beforeAll(async () => {
  browser = await launchBrowser();
  albums = snapshot<SnapAlbum[]>("albums");
  singles = snapshot<SnapSingle[]>("singles");
});
afterAll(async () => browser?.close());

const counter = (page: Page) => page.locator("header [data-shortlist-link]");
const entries = (page: Page) => page.locator("main [data-shortlist-entry]");

async function expectAxeAtBothWidths(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoAxeViolations(page);
    await screenshot(page, `${name}-${width}`);
  }
}

describe("shortlist", () => {
  it("says how to add items while it is empty", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/shortlist");
    const empty = page.locator("[data-shortlist-empty]");
    await empty.waitFor();
    expect(await empty.innerText()).toContain("Add to shortlist");
    expect(await empty.getByRole("link", { name: "Browse the catalog" }).getAttribute("href")).toBe("/catalog");
    expect(await counter(page).getAttribute("aria-label")).toBe("Shortlist");
    await expectAxeAtBothWidths(page, "shortlist-empty");
    await page.context().close();
  });

  it("shows the empty state at first paint, before React starts, and Loading instead to a browser that holds a list", async () => {
    // React never starts here: its scripts are refused, as before the deferred start (ADR 0083)
    const page = await newPage(browser);
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto(url("/shortlist"));
    expect(await page.locator("[data-shortlist-empty]").isVisible()).toBe(true);
    expect(await page.getByText("Loading your shortlist...").isVisible()).toBe(false);

    await page.evaluate(() => localStorage.setItem("northbeat:shortlist", JSON.stringify([{ id: "abc", kind: "album", title: "Blue Tides", artist: "Ana Costa" }])));
    await page.reload();
    expect(await page.getByText("Loading your shortlist...").isVisible()).toBe(true);
    expect(await page.locator("[data-shortlist-empty]").isVisible()).toBe(false);
    await page.context().close();
  });

  it("adds from cards, sheets and track rows, counts in the header (also on story pages, without moving anything), removes, shares, and the shared link works without JavaScript up to the licensing form", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: "block", permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();

    // an album card's button
    await gotoHydrated(page, "/catalog");
    const firstCard = page.locator("[data-testid=catalog-grid] li").first();
    const albumId = await firstCard.locator("a[data-item-id]").getAttribute("data-item-id");
    const album = albums.find((a) => a.id === albumId)!;
    await firstCard.getByRole("button", { name: `Add to shortlist: ${album.name}` }).click();
    await expect.poll(() => counter(page).getAttribute("aria-label")).toBe("Shortlist, 1 item");
    expect(await firstCard.getByRole("button", { name: `Remove from shortlist: ${album.name}` }).count()).toBe(1);

    // a track row on another album's page
    const other = albums.find((a) => a.id !== album.id && a.tracks.length >= 2)!;
    await gotoHydrated(page, `/catalog/albums/${other.id}`);
    const track = other.tracks[1]!.Filename;
    await page.locator("main ol > li").nth(1).getByRole("button", { name: `Add to shortlist: ${track}` }).click();
    // a single, from its sheet
    const single = singles[0]!;
    await gotoHydrated(page, `/catalog?type=singles&item=${single.id}`);
    await page.getByRole("dialog").getByRole("button", { name: "Add to shortlist", exact: true }).click();
    await expect.poll(() => counter(page).getAttribute("aria-label")).toBe("Shortlist, 3 items");
    expect(await counter(page).locator("[data-shortlist-count]").innerText()).toBe("3");

    // a story page (a document page without React) shows the same count, with no layout shift
    await page.addInitScript(() => {
      (window as unknown as { __cls: number }).__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) (window as unknown as { __cls: number }).__cls += entry.value;
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await gotoHydrated(page, "/mission");
      await expect.poll(() => counter(page).locator("[data-shortlist-count]").innerText()).toBe("3");
      expect(await counter(page).getAttribute("aria-label")).toBe("Shortlist, 3 items");
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);
      // the header's controls stay inside the viewport
      const box = await page.locator("header .menu-toggle").boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // the list, in the order added, each removable
    await counter(page).click();
    await page.waitForURL((u) => u.pathname === "/shortlist");
    await waitHydrated(page);
    await expect.poll(() => entries(page).count()).toBe(3);
    const texts = await entries(page).allInnerTexts();
    expect(texts[0]).toContain(album.name);
    expect(texts[1]).toContain(track);
    expect(texts[1]).toContain(other.name); // a track is shown with its album
    expect(texts[2]).toContain(single.title);
    await expectAxeAtBothWidths(page, "shortlist-own");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: `Remove ${album.name}` }).click();
    await expect.poll(() => entries(page).count()).toBe(2);
    await expect.poll(() => counter(page).getAttribute("aria-label")).toBe("Shortlist, 2 items");
    expect(await page.getByRole("link", { name: "Request a license for these 2 items" }).count()).toBe(1);

    // Share copies the /shortlist?items=… URL
    await page.getByRole("button", { name: "Share" }).click();
    const shared = await page.evaluate(() => navigator.clipboard.readText());
    // SITE_URL's origin (robots.txt names it), which may differ from the address the test reaches
    const siteOrigin = new URL(/^Sitemap: (\S+)$/m.exec(await (await fetch(url("/robots.txt"))).text())![1]!).origin;
    expect(shared).toBe(`${siteOrigin}/shortlist?items=${encodeURIComponent(`${other.id}:1`)},${single.id}`);
    await context.close();

    // anyone, without JavaScript: the same list, server-rendered
    const noJs = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const plain = await noJs.newPage();
    const res = await plain.goto(url(new URL(shared).pathname + new URL(shared).search));
    expect(res!.status()).toBe(200);
    expect(await plain.locator("main h1").innerText()).toBe("A shared shortlist");
    const sharedTexts = await entries(plain).allInnerTexts();
    expect(sharedTexts).toHaveLength(2);
    expect(sharedTexts[0]).toContain(track);
    expect(sharedTexts[0]).toContain(other.name);
    expect(sharedTexts[1]).toContain(single.title);
    expect(await plain.getByRole("button", { name: "Save to my shortlist" }).count()).toBe(1);
    expect(await plain.locator("main").innerText()).toContain("Saving the list to this browser needs JavaScript");
    await screenshot(plain, "shortlist-shared-nojs-1280");

    // then the licensing form, Specific Tracks filled in
    await plain.getByRole("link", { name: "Request a license for these 2 items" }).click();
    await plain.waitForURL((u) => u.pathname === "/contact" && u.searchParams.get("tab") === "licensing");
    const tracks = await plain.locator("#licensing-tracks").inputValue();
    expect(tracks.split("\n")).toEqual([`${track} — ${other.artist} (${other.name})`, `${single.title} — ${single.artist}`]);
    await noJs.close();
  });

  it("shows a shared list to anyone, notes unknown ids, saves it into the visitor's own list, and passes axe", async () => {
    const ids = [albums[3]!.id, "no-such-id", singles[2]!.id, "bad id", `${albums[4]!.id}:0`];
    const page = await newPage(browser);
    await gotoHydrated(page, `/shortlist?items=${ids.map(encodeURIComponent).join(",")}`);
    await expect.poll(() => entries(page).count()).toBe(3);
    expect(await page.locator("[data-shortlist-missing]").innerText()).toBe("2 items of this list are no longer in the catalog and not shown.");
    await expectAxeAtBothWidths(page, "shortlist-shared");
    await page.getByRole("button", { name: "Save to my shortlist" }).click();
    await expect.poll(() => counter(page).getAttribute("aria-label")).toBe("Shortlist, 3 items");
    await gotoHydrated(page, "/shortlist");
    await expect.poll(() => entries(page).count()).toBe(3);
    await page.context().close();
  });

  it("caps a shared list at 100 items and ignores what the browser's storage should not hold", async () => {
    const ids = albums.slice(0, 120).map((a) => a.id);
    const html = await (await fetch(url(`/shortlist?items=${ids.join(",")}`))).text();
    expect(html.split("data-shortlist-entry=").length - 1).toBe(100);
    expect(html).toContain("A shared list shows its first 100 items.");

    const page = await newPage(browser);
    await page.goto(url("/robots.txt"));
    await page.evaluate(() => localStorage.setItem("northbeat:shortlist", JSON.stringify([{ id: "x", kind: "album", title: "<img src=x onerror=alert(1)>", artist: "", image: "https://evil.example/p.png" }, { nope: 1 }, "junk"])));
    await gotoHydrated(page, "/shortlist");
    await expect.poll(() => entries(page).count()).toBe(1);
    expect(await entries(page).locator("img").count()).toBe(0); // another site's image is not kept
    expect(await entries(page).innerText()).toContain("<img src=x onerror=alert(1)>"); // text, not markup
    await page.context().close();
  });
});

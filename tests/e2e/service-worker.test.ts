import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS, CHROMIUM_PATH, url, waitHydrated } from "./support/browser.ts";
import { chromium } from "playwright-core";

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
});

/** A context that allows service workers (newPage() blocks them for the other tests). */
async function workerPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: "allow" });
  const page = await context.newPage();
  return { context, page };
}

/** Registration waits for the visitor's first interaction (ADR 0160; ADR 0150 amended): a Shift press. */
async function waitForControl(page: Page) {
  await waitHydrated(page);
  await page.keyboard.press("Shift");
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
    }
  });
}

describe("service worker", () => {
  it("is served as /sw.js with no-cache and a site-wide scope", async () => {
    const res = await fetch(url("/sw.js"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("service-worker-allowed")).toBe("/");
    const body = await res.text();
    // The scripts of both kinds of page are in the precache list: the React entry (/contact)
    // and the document pages' script (/, ADR 0083).
    const contact = await (await fetch(url("/contact"))).text();
    const entry = /\/assets\/entry\.client-[^"]+\.js/.exec(contact)![0];
    expect(body).toContain(JSON.stringify(entry).slice(1, -1));
    const home = await (await fetch(url("/"))).text();
    const documentScript = /\/assets\/document-page-[^"]+\.js/.exec(home)![0];
    expect(body).toContain(JSON.stringify(documentScript).slice(1, -1));
    expect(body).toContain("/offline.html");
  });

  it("registers at the first interaction and precaches the built assets and the offline page", async () => {
    const { context, page } = await workerPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(url("/"));
    await waitForControl(page);
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const assets = names.find((n) => n.startsWith("assets-"));
      const cache = await caches.open(assets!);
      return { names, entries: (await cache.keys()).map((r) => new URL(r.url).pathname) };
    });
    expect(cached.entries).toContain("/offline.html");
    expect(cached.entries.some((p) => /^\/assets\/entry\.client-.+\.js$/.test(p))).toBe(true);
    expect(cached.entries.some((p) => /^\/assets\/document-page-.+\.js$/.test(p))).toBe(true);
    expect(cached.entries.some((p) => /^\/assets\/app-.+\.css$/.test(p))).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("answers navigations while offline: a visited page from the cache, any other with the offline page", async () => {
    const { context, page } = await workerPage();
    await page.goto(url("/"));
    await waitForControl(page);
    // Visit a page online, through the worker, so it is cached network-first.
    await page.goto(url("/mission"));
    await waitHydrated(page);
    const missionTitle = await page.title();

    await context.setOffline(true);
    const again = await page.goto(url("/mission"));
    expect(again?.status()).toBe(200);
    expect(await page.title()).toBe(missionTitle);
    // Its hashed scripts come from the cache too, so the page still hydrates.
    await waitHydrated(page);

    await page.goto(url("/board"));
    expect(await page.title()).toBe("You're offline | Northbeat Media");
    expect(await page.getByRole("heading", { name: "You're offline" }).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Try the home page" }).getAttribute("href")).toBe("/");

    await context.setOffline(false);
    await page.goto(url("/board"));
    expect(await page.title()).not.toContain("offline");
    await context.close();
  });
});

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newPage, url } from "./support/browser.ts";

// ADR 0160: a React page hydrates at the visitor's first interaction, not at the first paint.
// What a visitor must not notice: a tap, a key or typing before hydration does what it would
// have done after it.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const hydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === "true");

describe("hydration at the first interaction (ADR 0160)", () => {
  it("runs no framework code until someone interacts, and fetches it into the cache meanwhile", async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(url("/catalog"), { waitUntil: "load" });
    await page.waitForLoadState("networkidle");
    expect(await hydrated(page)).toBe(false);
    // React Router's bootstrap never ran: its route modules are not there
    expect(await page.evaluate(() => "__reactRouterRouteModules" in window)).toBe(false);
    expect(scripts).toEqual([]);
    const prefetched = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')].map((l) => new URL(l.href).pathname));
    expect(prefetched.some((p) => /^\/assets\/entry\.client-[\w-]+\.js$/.test(p))).toBe(true);
    await page.context().close();
  });

  it("plays the preview a visitor tapped before the page was hydrated", async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(url("/catalog?view=tracks"), { waitUntil: "load" });
    const play = page.getByRole("button", { name: /^Play preview of / }).first();
    await play.scrollIntoViewIfNeeded();
    expect(await hydrated(page)).toBe(false);
    const box = (await play.boundingBox())!;
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    // the held tap is replayed on the same button once React owns it
    await page.waitForFunction(() => document.querySelector("[data-preview-state=playing]") !== null);
    expect(await page.getByRole("button", { name: /^Pause preview of / }).count()).toBe(1);
    await page.context().close();
  });

  it("hydrates at the first key, and keeps what was typed before hydration ended", async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
    const cdp = await page.context().newCDPSession(page);
    // a slow phone's CPU: the typing outruns the hydration
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
    await page.goto(url("/contact"), { waitUntil: "load" });
    const name = page.getByRole("textbox", { name: /name/i }).first();
    await name.scrollIntoViewIfNeeded();
    expect(await hydrated(page)).toBe(false);
    const box = (await name.boundingBox())!;
    await page.mouse.click(box.x + 12, box.y + box.height / 2);
    await page.keyboard.type("Jane Doe");
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await page.keyboard.type(" Jr");
    expect(await name.inputValue()).toBe("Jane Doe Jr");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("name"))).toBe("name");
    await page.context().close();
  });

  it("hydrates a page that opens on an item's sheet at its first paint, so the dialog is there as the visitor arrives", async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(url("/catalog"), { waitUntil: "load" });
    const item = await page.locator("a[href*='item=']").first().getAttribute("href");
    await page.goto(url(item!), { waitUntil: "load" });
    // no interaction at all
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    await page.getByRole("dialog").waitFor();
    await page.context().close();
  });

  it("hydrates a keyboard visitor's page at the first Tab", async () => {
    const page = await newPage(browser);
    await page.goto(url("/catalog"), { waitUntil: "load" });
    expect(await hydrated(page)).toBe(false);
    await page.keyboard.press("Tab");
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
    // the skip link has the focus, as on any page
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.context().close();
  });
});

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot, url, waitHydrated } from "./support/browser.ts";

// product-rules §2 "Navigation menu", in order.
const MENU = [
  ["Home", "/"],
  ["Catalog", "/catalog"],
  ["Mission & Vision", "/mission"],
  ["Board", "/board"],
  ["Innovation", "/innovation"],
  ["AI Brands", "/ai-brands"],
  ["Investors", "/investors"],
  ["Podcasts", "/podcasts"],
  ["Partners", "/partners"],
  ["Web3", "/web3"],
] as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const toggle = (page: Page) => page.locator("header button[aria-controls]");
const menuLinks = (page: Page) => page.locator("#site-menu nav a");
const overflow = (page: Page) =>
  page.evaluate(() => [getComputedStyle(document.documentElement).overflowY, getComputedStyle(document.body).overflowY]);

async function openMenu(page: Page) {
  await toggle(page).click();
  await expect.poll(() => toggle(page).getAttribute("aria-expanded")).toBe("true");
  await page.locator("#site-menu").waitFor({ state: "visible" });
}

async function expectClosed(page: Page) {
  await expect.poll(() => toggle(page).getAttribute("aria-expanded")).toBe("false");
  await page.locator("#site-menu").waitFor({ state: "hidden" });
}

describe("header", () => {
  it("is fixed, 80 px tall, with the logo → / and Contact Us → /contact", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/mission");
    const header = page.locator("body > header").first();
    const box = await header.boundingBox();
    expect(box?.height).toBe(80);
    expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
    await page.mouse.wheel(0, 1500);
    await expect.poll(async () => (await header.boundingBox())?.y).toBe(0);

    const logo = header.getByRole("link", { name: /Northbeat Media/ });
    expect(await logo.getAttribute("href")).toBe("/");
    const contact = header.getByRole("link", { name: "Contact Us" });
    expect(await contact.getAttribute("href")).toBe("/contact");
    await contact.click();
    await page.waitForURL(url("/contact"));
    await logo.click();
    await page.waitForURL(url("/"));
    await page.context().close();
  });
});

describe("navigation menu", () => {
  it("toggles between a hamburger and an X, listing the ten items in order with the current path highlighted", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/mission");
    const button = toggle(page);
    expect(await button.getAttribute("aria-controls")).toBe("site-menu");
    expect(await button.getAttribute("aria-label")).toBe("Menu");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    expect(await button.locator("svg.lucide-menu").isVisible()).toBe(true);
    expect(await button.locator("svg.lucide-x").isVisible()).toBe(false);
    expect(await page.locator("#site-menu").isVisible()).toBe(false);

    await openMenu(page);
    expect(await button.locator("svg.lucide-x").isVisible()).toBe(true);
    expect(await button.locator("svg.lucide-menu").isVisible()).toBe(false);

    const links = menuLinks(page);
    expect(await links.count()).toBe(10);
    const items = await links.evaluateAll((els) =>
      els.map((a) => [a.textContent!.replace(/^\d+/, "").trim(), a.getAttribute("href")]),
    );
    expect(items).toEqual(MENU.map(([name, href]) => [name, href]));

    // product-rules §2: the link whose path equals the current path is highlighted.
    const current = page.locator('#site-menu a[aria-current="page"]');
    expect(await current.count()).toBe(1);
    expect(await current.getAttribute("href")).toBe("/mission");
    const [currentBg, otherBg] = await Promise.all([
      current.evaluate((el) => getComputedStyle(el).backgroundImage),
      links.nth(0).evaluate((el) => getComputedStyle(el).backgroundImage),
    ]);
    expect(currentBg).not.toBe(otherBg);
    await screenshot(page, "menu-open-1280");

    await button.click();
    await expectClosed(page);
    expect(await button.locator("svg.lucide-menu").isVisible()).toBe(true);
    await page.context().close();
  });

  it("locks page scrolling while open and restores it on close", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/mission");
    const before = await overflow(page);
    expect(before).not.toContain("hidden");
    await openMenu(page);
    expect(await overflow(page)).toEqual(["hidden", "hidden"]);
    const scrollY = await page.evaluate(() => window.scrollY);
    await page.mouse.move(640, 800);
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrollY);

    await page.keyboard.press("Escape");
    await expectClosed(page);
    expect(await overflow(page)).toEqual(before);
    await page.mouse.wheel(0, 800);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(scrollY);
    await page.context().close();
  });

  it("closes on a click on the dim overlay, and focus returns to the toggle", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/board");
    await openMenu(page);
    const overlay = page.locator(".menu-overlay");
    expect(await overlay.isVisible()).toBe(true);
    expect(await overlay.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/rgba\(.+, 0\.\d+\)/);
    // Below the menu panel, on the overlay.
    await page.mouse.click(640, 880);
    await expectClosed(page);
    expect(await overlay.isVisible()).toBe(false);
    expect(page.url()).toBe(url("/board"));
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-controls"))).toBe("site-menu");
    await page.context().close();
  });

  it("closes on a link click and navigates there", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/");
    await openMenu(page);
    await menuLinks(page).filter({ hasText: "Investors" }).click();
    await page.waitForURL(url("/investors"));
    await expectClosed(page);
    expect(await overflow(page)).not.toContain("hidden");
    await openMenu(page);
    expect(await page.locator('#site-menu a[aria-current="page"]').getAttribute("href")).toBe("/investors");
    await page.context().close();
  });

  it("closes on Esc and returns focus to the toggle", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/innovation");
    await openMenu(page);
    // Focus moves into the menu on open.
    expect(await page.evaluate(() => document.activeElement?.closest("#site-menu") !== null)).toBe(true);
    await page.keyboard.press("Escape");
    await expectClosed(page);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-controls"))).toBe("site-menu");
    await page.context().close();
  });

  it("opens over 0.4 s and closes over 0.3 s, with a 0.3 s overlay fade (product-rules §9)", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/");
    const durations = (selector: string) =>
      page.locator(selector).evaluate((el) => {
        const style = getComputedStyle(el);
        const props = style.transitionProperty.split(",").map((s) => s.trim());
        const times = style.transitionDuration.split(",").map((s) => s.trim());
        return Object.fromEntries(props.map((p, i) => [p, times[i]]));
      });
    expect(await durations("#site-menu")).toMatchObject({ transform: "0.3s", opacity: "0.3s" });
    expect(await durations(".menu-overlay")).toMatchObject({ opacity: "0.3s" });
    await openMenu(page);
    expect(await durations("#site-menu")).toMatchObject({ transform: "0.4s", opacity: "0.4s" });
    expect(await durations(".menu-overlay")).toMatchObject({ opacity: "0.3s" });
    await page.context().close();
  });

  it("respects prefers-reduced-motion: no transitions, and it still opens and closes", async () => {
    const page = await newPage(browser, { reducedMotion: "reduce" });
    await gotoHydrated(page, "/");
    const panel = page.locator("#site-menu");
    // Every transition is 0 s, or the global reduced-motion rule's 0.01 ms.
    const longest = () =>
      panel.evaluate((el) => Math.max(...getComputedStyle(el).transitionDuration.split(",").map((d) => parseFloat(d))));
    expect(await longest()).toBeLessThan(0.001);
    await openMenu(page);
    expect(await panel.evaluate((el) => getComputedStyle(el).transform)).toBe("none");
    expect(await longest()).toBeLessThan(0.001);
    await menuLinks(page).filter({ hasText: "Web3" }).click();
    await page.waitForURL(url("/web3"));
    await expectClosed(page);
    await page.context().close();
  });

  it("can be walked with the keyboard alone", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/");
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return { controls: el?.getAttribute("aria-controls") ?? null, text: el?.textContent?.trim() ?? "", href: el?.getAttribute("href") ?? null };
      });
    // Tab from the top: skip link, logo, Contact Us, then the toggle.
    for (let i = 0; i < 10 && (await focused()).controls !== "site-menu"; i++) await page.keyboard.press("Tab");
    expect((await focused()).controls).toBe("site-menu");
    await page.keyboard.press("Enter");
    await expect.poll(() => toggle(page).getAttribute("aria-expanded")).toBe("true");
    expect((await focused()).href).toBe("/");
    const visited: string[] = [];
    for (let i = 0; i < 9; i++) {
      await page.keyboard.press("Tab");
      visited.push((await focused()).href ?? "");
    }
    expect(visited).toEqual(MENU.slice(1).map(([, href]) => href));
    // The page behind the overlay is out of the tab order: Tab never reaches it.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("main, footer") ?? null)).toBeNull();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    expect((await focused()).href).toBe("/partners");
    await page.keyboard.press("Enter");
    await page.waitForURL(url("/partners"));
    await expectClosed(page);
    await page.context().close();
  });

  it("has no axe violations while open, at 390 px", async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await gotoHydrated(page, "/podcasts");
    await openMenu(page);
    await page.waitForTimeout(450);
    await screenshot(page, "menu-open-390");
    await expectNoAxeViolations(page);
    // The header fits: nothing overflows horizontally.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.context().close();
  });

  // ADR 0083: story pages are documents with a small script; the catalog and the contact page
  // are React. The menu behaves the same on both, and a React page's link to a document page
  // loads it as a document, so its widgets are wired.
  it("works the same on a React page (/catalog), and its links load document pages as documents", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/catalog");
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(true);
    await openMenu(page);
    expect(await toggle(page).locator("svg.lucide-x").isVisible()).toBe(true);
    expect(await overflow(page)).toEqual(["hidden", "hidden"]);
    await page.keyboard.press("Escape");
    await expectClosed(page);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-controls"))).toBe("site-menu");

    await openMenu(page);
    await menuLinks(page).filter({ hasText: "Podcasts" }).click();
    await page.waitForURL(url("/podcasts"));
    await waitHydrated(page);
    // A fresh document: no React Router on the page, and its dialog opens.
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    expect(await page.evaluate(() => [...document.scripts].filter((s) => s.src).map((s) => new URL(s.src).pathname))).toEqual([
      expect.stringMatching(/^\/assets\/document-page-[\w-]+\.js$/),
    ]);
    await page.getByRole("button", { name: "Get Featured" }).click();
    await page.getByRole("dialog", { name: "Choose Your Podcast" }).waitFor();
    await page.context().close();
  });

  it("on a document page, fetches a link's page while the pointer rests on it (speculation rules)", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/mission");
    const prefetched = page.waitForRequest((r) => r.url() === url("/") && /prefetch/.test(r.headers()["sec-purpose"] ?? ""));
    await page.locator("header").getByRole("link", { name: "Northbeat Media home" }).hover();
    await prefetched;
    await page.context().close();
  });

  it("leaves the menu links reachable without JavaScript", async () => {
    const page = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(url("/"));
    expect(await toggle(page).isVisible()).toBe(false);
    const fallback = page.getByRole("navigation", { name: "Site" });
    const hrefs = await fallback.locator("a").evaluateAll((els) => els.map((a) => a.getAttribute("href")));
    expect(hrefs).toEqual(MENU.map(([, href]) => href));
    await page.context().close();
  });
});

describe("footer", () => {
  it("has the spec's logo, tagline, social links, three columns and bottom row", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/");
    const footer = page.locator("footer");
    expect(await footer.getByRole("link", { name: /Northbeat Media/ }).getAttribute("href")).toBe("/");
    expect(await footer.textContent()).toContain(
      "Empowering indie artists with tools for protection, growth, and monetization in the digital age.",
    );

    const socials = footer.getByRole("list", { name: "Social networks" }).getByRole("link");
    expect(await socials.count()).toBe(4);
    for (const link of await socials.all()) {
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
      expect(await link.getAttribute("href")).toMatch(/^https:\/\//);
      expect(await link.getAttribute("aria-label")).toMatch(/\(opens in a new tab\)$/);
    }
    const names = await socials.evaluateAll((els) => els.map((a) => a.getAttribute("aria-label")));
    expect(names.map((n) => n!.replace(" (opens in a new tab)", ""))).toEqual(["LinkedIn", "X (Twitter)", "Instagram", "Facebook"]);

    const column = async (title: string) => {
      const heading = footer.getByRole("heading", { name: title });
      return heading.locator("xpath=..").locator("a").evaluateAll((els) => els.map((a) => [a.textContent, a.getAttribute("href")]));
    };
    expect(await column("For Creators")).toEqual([
      ["Music Distribution", "/ai-brands"],
      ["Film Distribution", "/ai-brands"],
      ["YouTube CMS Network", "/ai-brands"],
      ["White Labels", "/ai-brands"],
    ]);
    expect(await column("Our Company")).toEqual([
      ["About Us", "/mission"],
      ["Our Team", "/board"],
      ["AI Brands", "/ai-brands"],
      ["Contact", "/contact"],
      ["Investors", "/investors"],
      ["Podcasts", "/podcasts"],
    ]);
    expect(await column("Contact Us")).toEqual([
      ["Help Center", "mailto:hello@example.com"],
      ["Technical Support", "mailto:hello@example.com"],
    ]);

    const year = new Date().getFullYear();
    expect(await footer.getByText(`© ${year} Northbeat Media All rights reserved.`).count()).toBe(1);
    expect(await footer.getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe("/privacy");
    expect(await footer.getByRole("link", { name: "Terms of Service" }).getAttribute("href")).toBe("/terms");
    await page.context().close();
  });

  it("follows its links: For Creators lands on /ai-brands, Our Team on /board (issue #41, DESIGN.md §3)", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/");
    await page.locator("footer").getByRole("link", { name: "White Labels" }).click();
    await page.waitForURL(url("/ai-brands"));
    await page.locator("footer").getByRole("link", { name: "Our Team" }).click();
    await page.waitForURL(url("/board"));
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    expect(await page.getByRole("heading", { name: "Oops! Page not found" }).count()).toBe(0);
    await page.context().close();
  });
});

describe("notifications and tooltips", () => {
  // ADR 0083: the document pages build their own notification area (the offline notice must
  // work with no network); the React pages use sonner. A visitor sees the same thing on both.
  const notice = (page: Page, path: string) =>
    page
      .getByRole("region", { name: /^Notifications/ })
      .locator(path === "/contact" ? "[data-sonner-toast]" : ".site-notice");

  for (const path of ["/", "/contact"]) {
    it(`${path}: a polite notification region labelled Notifications, focused by Alt+T, with the offline notice in the light theme`, async () => {
      const page = await newPage(browser, { colorScheme: "light" });
      await gotoHydrated(page, path);
      const region = page.getByRole("region", { name: /^Notifications/ });
      await region.waitFor({ state: "attached" });
      expect(await region.count()).toBe(1);
      expect(await region.getAttribute("aria-label")).toBe("Notifications alt+T");
      expect(await region.getAttribute("aria-live")).toBe("polite");

      // Losing the connection shows a notification (the layout's offline notice).
      await page.context().setOffline(true);
      const toast = notice(page, path);
      await toast.first().waitFor();
      expect(await toast.count()).toBe(1);
      expect(await toast.textContent()).toContain("You're offline");
      expect(await toast.textContent()).toContain("Pages you have visited stay available until the connection returns.");
      // Theme "system": the light colour scheme gives a light notice.
      expect(await toast.evaluate((el) => getComputedStyle(el).backgroundColor)).toMatch(/^rgba?\((25[0-5]|24\d), (25[0-5]|24\d), (25[0-5]|24\d)/);

      expect(await page.evaluate(() => document.activeElement?.closest("section[aria-label^=Notifications]") ?? null)).toBeNull();
      await page.keyboard.press("Alt+KeyT");
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.closest("section[aria-label^=Notifications]") !== null))
        .toBe(true);
      await expectNoAxeViolations(page);

      await page.context().setOffline(false);
      await expect.poll(() => toast.count(), { timeout: 15_000 }).toBe(0);
      await page.context().close();
    });

    it(`${path}: follows a dark system theme too`, async () => {
      const page = await newPage(browser, { colorScheme: "dark" });
      await gotoHydrated(page, path);
      // On React pages the toaster loads just after hydration.
      await page.locator("section[aria-label^=Notifications]").waitFor({ state: "attached" });
      await page.context().setOffline(true);
      const toast = notice(page, path);
      await toast.waitFor();
      const background = await toast.evaluate((el) => getComputedStyle(el).backgroundColor);
      const [r, g, b] = background.match(/\d+/g)!.map(Number);
      expect(r! + g! + b!, background).toBeLessThan(150);
      await page.context().setOffline(false);
      await page.context().close();
    });
  }

  it("shows a tooltip only after the 700 ms delay, 4 px from its trigger", async () => {
    const page = await newPage(browser);
    await gotoHydrated(page, "/partners/music");
    const trigger = page.locator("main a[target=_blank]").first();
    await trigger.scrollIntoViewIfNeeded();
    const tooltip = page.getByRole("tooltip");
    // Times taken inside the page, not by the test's clock: on a busy machine a
    // wait in the test can outlast the delay itself (CI, stop 47). A timer never
    // fires early, so the tooltip's arrival minus the first pointer move over its
    // trigger (when Radix starts its timer) is at least the delay, whatever the load.
    await page.evaluate(() => {
      const w = window as unknown as { __moved?: number; __shown?: number };
      document.addEventListener(
        "pointermove",
        (e) => {
          w.__moved ??= e.timeStamp;
        },
        { capture: true },
      );
      new MutationObserver(() => {
        if (w.__shown === undefined && document.querySelector("[role=tooltip]")) w.__shown = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await trigger.hover();
    await tooltip.waitFor({ timeout: 15_000 });
    const { moved, shown } = await page.evaluate(() => {
      const w = window as unknown as { __moved?: number; __shown?: number };
      return { moved: w.__moved!, shown: w.__shown! };
    });
    expect(shown - moved).toBeGreaterThanOrEqual(690);
    const content = tooltip;
    const [t, c] = [await trigger.boundingBox(), await content.boundingBox()];
    const gap = Math.min(Math.abs(c!.y - (t!.y + t!.height)), Math.abs(t!.y - (c!.y + c!.height)));
    expect(gap).toBeCloseTo(4, 0);
    await page.context().close();
  });
});

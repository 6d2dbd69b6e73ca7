import { AxeBuilder } from "@axe-core/playwright";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_PAGE_PATHS } from "../../app/lib/static-pages.ts";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot, url } from "./support/browser.ts";

// Issue #11: the accessibility statement at /accessibility (DESIGN.md §3b), and the check it
// describes: axe on every route, at phone and desktop widths, with the WCAG 2.2 rules too.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe("/accessibility", () => {
  it("states the standard, the testing, the known limitations and where to report a problem", async () => {
    const page = await newPage(browser);
    const response = await gotoHydrated(page, "/accessibility");
    expect(response?.status()).toBe(200);
    expect(await page.title()).toMatch(/^Accessibility statement \|/);
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(/\/accessibility$/);
    const main = page.locator("main");
    expect(await main.getByRole("heading", { level: 1 }).innerText()).toBe("Accessibility statement");
    expect(await main.getByRole("heading", { level: 2 }).allInnerTexts()).toEqual([
      "The standard we follow",
      "How we test",
      "Known limitations",
      "Report a problem",
    ]);
    const text = await main.innerText();
    expect(text).toContain("WCAG) 2.2 at level AA");
    expect(text).toContain("axe on every route and state");
    expect(text).toContain("Keyboard-only walks");
    expect(await main.getByRole("region", { name: "Known limitations" }).getByRole("listitem").count()).toBeGreaterThanOrEqual(3);
    const report = main.getByRole("region", { name: "Report a problem" });
    expect(await report.getByRole("link", { name: "hello@example.com" }).getAttribute("href")).toBe(
      "mailto:hello@example.com?subject=Accessibility%20problem",
    );
    expect(await report.getByRole("link", { name: "You can also use the contact form." }).getAttribute("href")).toBe("/contact");
    await page.context().close();
  });

  it("is linked from the footer's bottom row, on document and React pages", async () => {
    const page = await newPage(browser);
    for (const path of ["/", "/contact"]) {
      await gotoHydrated(page, path);
      const link = page.locator("footer").getByRole("link", { name: "Accessibility", exact: true });
      expect(await link.getAttribute("href")).toBe("/accessibility");
    }
    await page.locator("footer").getByRole("link", { name: "Accessibility", exact: true }).click();
    await page.waitForURL(url("/accessibility"));
    await page.getByRole("heading", { level: 1, name: "Accessibility statement" }).waitFor();
    await page.context().close();
  });

  it("is listed in the sitemap", async () => {
    expect(await (await fetch(url("/sitemap.xml"))).text()).toContain("/accessibility</loc>");
  });
});

/** axe with the WCAG 2.2 A/AA rules as well (the shared helper runs the 2.0 and 2.1 ones). */
async function expectNoWcag22Violations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag22a", "wcag22aa"]).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`)).toEqual([]);
}

describe("axe on every route (what the statement says we test)", () => {
  for (const width of [390, 1280]) {
    // every page and state in one browser page: 112-151 s on a slow day here (vitest.config.ts)
    it(`every page of the site at ${width} px`, { timeout: 600_000 }, async () => {
      const page = await newPage(browser, { viewport: { width, height: width === 390 ? 844 : 900 } });
      try {
        // every page, and the contact page's second tab (the licensing form, with its checkboxes)
        for (const path of [...SITE_PAGE_PATHS, "/contact?tab=licensing"]) {
          const response = await gotoHydrated(page, path);
          expect(response?.status(), path).toBe(200);
          await expectNoAxeViolations(page);
          await expectNoWcag22Violations(page);
          if (path === "/accessibility") await screenshot(page, `accessibility-${width}`);
        }
      } finally {
        await page.context().close();
      }
    });
  }
});

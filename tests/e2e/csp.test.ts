import crypto from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_PAGE_PATHS } from "../../app/lib/static-pages.ts";
import { gotoHydrated, launchBrowser, newPage, url } from "./support/browser.ts";

// The CSP has no 'unsafe-inline' or 'unsafe-eval' for scripts. Anything on a page that needs
// them (an inline handler, a library's eval probe) is refused by the browser and breaks
// silently — so every page is loaded and used here with a violation listener attached.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function pageRecordingViolations(): Promise<Page> {
  const page = await newPage(browser);
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return page;
}

const violations = (page: Page) => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

describe("Content-Security-Policy", () => {
  it.each([...SITE_PAGE_PATHS, "/no-such-page"])("%s loads and hydrates with no CSP violation", async (path) => {
    const page = await pageRecordingViolations();
    await gotoHydrated(page, path);
    await page.waitForTimeout(300);
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });

  // ADR 0119: no nonce; the header holds the hash of every inline script of the body it came
  // with, and allows no inline script by any other means.
  it.each([...SITE_PAGE_PATHS, "/no-such-page", "/catalog", "/catalog?view=tracks", "/shortlist"])(
    "%s: the CSP's script-src holds the hash of every inline script sent, and no nonce",
    async (path) => {
      const response = await fetch(url(path));
      const csp = response.headers.get("content-security-policy") ?? "";
      const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
      expect(csp).not.toContain("nonce");
      expect(scriptSrc).not.toContain("'unsafe-inline'");
      const html = await response.text();
      expect(html).not.toMatch(/\snonce=/);
      const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
        ([, attributes]) => !/\ssrc=/.test(attributes!) && !/application\/(ld\+)?json/.test(attributes!),
      );
      expect(inline.length).toBeGreaterThan(0);
      for (const [, , text] of inline) {
        expect(scriptSrc).toContain(`'sha256-${crypto.createHash("sha256").update(text!, "utf8").digest("base64")}'`);
      }
    },
  );

  it("validating the contact forms in the browser causes no CSP violation", async () => {
    const page = await pageRecordingViolations();
    await gotoHydrated(page, "/contact");
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByText("Name must be at least 2 characters").first().waitFor();
    expect(await violations(page)).toEqual([]);
    await page.context().close();
  });
});

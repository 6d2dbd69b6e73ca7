import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { expect, inject } from "vitest";

// DESIGN.md §5: the machine has no internet; these flags stop Chromium from trying.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

export const CHROMIUM_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";

export function baseURL(): string {
  return inject("baseURL");
}

export function url(pathname: string): string {
  return new URL(pathname, baseURL()).href;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** A fresh page in its own context (no shared storage, service worker or cookies). */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    serviceWorkers: "block",
    ...options,
  });
  const page = await context.newPage();
  page.on("pageerror", (err) => {
    // surfaced in the test output; tests that care assert on console errors themselves
    console.error(`[pageerror] ${page.url()}: ${err.message}`);
  });
  return page;
}

/** Navigates and waits until React has hydrated the page (the root carries data-hydrated). */
export async function gotoHydrated(page: Page, pathname: string) {
  const response = await page.goto(url(pathname), { waitUntil: "load" });
  await waitHydrated(page);
  return response;
}

/**
 * Waits until the page is hydrated (React pages) or enhanced (document pages). A React page
 * hydrates at the visitor's first interaction (ADR 0160): a press of Shift, a real key that
 * changes nothing on the page, is that interaction here.
 */
export async function waitHydrated(page: Page) {
  const hydrated = () => page.evaluate(() => document.documentElement.dataset.hydrated === "true");
  if (!(await hydrated())) await page.keyboard.press("Shift");
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

/** Runs axe-core on the page and fails with a readable list of violations. */
/**
 * Sums every layout shift of the pages `page` opens from now on (an init script), shifts
 * after an input included: the CLS checks' "no layout shift" (ADR 0150, 0156). Returns a
 * reader of the current page's sum.
 */
export async function watchLayoutShift(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __layoutShift: number };
    w.__layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>) w.__layoutShift += entry.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { __layoutShift: number }).__layoutShift);
}

export async function expectNoAxeViolations(page: Page, opts: { exclude?: string[] } = {}) {
  // A colour transition caught half-way (e.g. a filter pill just toggled) has an in-between
  // contrast that no visitor sees at rest: let finite animations and transitions finish first.
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every((a) => a.playState !== "running" || a.effect?.getComputedTiming().iterations === Infinity),
    null,
    { timeout: 5000 },
  );
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]);
  for (const selector of opts.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const violations = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`,
  );
  expect(violations).toEqual([]);
}

/** Server log lines (pino JSON) written since the e2e server started. */
export function serverLogLines(): Array<Record<string, unknown>> {
  const text = fs.readFileSync(inject("serverLog"), "utf8");
  return text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return {};
      }
    });
}

/** Writes a screenshot to $SCREENSHOT_DIR (or the temp dir) for a human to look at. */
export async function screenshot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR ?? path.join(os.tmpdir(), "site-screenshots");
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

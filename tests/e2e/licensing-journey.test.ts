import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { waitFor } from "../support/wait.ts";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot, url } from "./support/browser.ts";
import { fillLicensing } from "./support/lead-forms.ts";

// Issue #41 point 3, as a sync buyer lives it: "License this …" in the catalog lands with the
// pre-filled licensing form in view; a send leaves a lasting confirmation in the form's place,
// with its reference on one line; "Send another" gives a form whose selects show their prompts,
// whole. Checked with a real mouse and by bounding boxes, at a phone's and a laptop's size.

interface SnapAlbum { id: string; name: string; artist: string }
const albums = () =>
  (JSON.parse(fs.readFileSync(path.join(inject("dataDir"), "catalog", "snapshots", "albums.json"), "utf8")) as { data: SnapAlbum[] }).data;

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
/** The fixed site header (product-rules §9: 80 px): what is under it is not in view. */
const HEADER = 80;
/** The licensing form's select prompts (app/content/contact.ts), in page order. */
const PROMPTS = ["Select project type", "Select budget range", "Select timeline", "Select territory", "Select term"];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** The element's box lies wholly between the header and the bottom of the window. */
async function inView(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  const { height } = page.viewportSize()!;
  return box !== null && box.y >= HEADER - 1 && box.y + box.height <= height + 1 ? box : undefined;
}

/** A mouse click at the middle of an element, as a person makes it (scrolled into view first). */
async function mouseClick(page: Page, locator: ReturnType<Page["locator"]>) {
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** After landing: the form's first field and the item asked about are in view, and the field holds it. */
async function expectPrefilledFormInView(page: Page, expected: string) {
  await page.waitForURL((u) => u.pathname === "/contact" && u.hash === "#licensing-form");
  await waitFor("the first field of the licensing form in view", () => inView(page, "#licensing-name"));
  expect(await inView(page, "[data-request-about]")).toBeDefined();
  expect(await page.locator("[data-request-about]").innerText()).toBe(expected);
  expect(await page.getByLabel("Specific Tracks (Optional)", { exact: true }).inputValue()).toBe(expected);
}

/** What each select of the licensing form shows (its selected option's text; "" when none is). */
const selectTexts = (page: Page) =>
  page.locator("#licensing select").evaluateAll((selects) =>
    (selects as HTMLSelectElement[]).map((s) => (s.selectedIndex >= 0 ? s.options[s.selectedIndex]!.text : "")),
  );

/**
 * Each select's shown text against the room its box leaves for it (the width minus the paddings,
 * which keep the text off the arrow): a select never scrolls, so its scrollWidth cannot tell.
 * The text is measured in the select's own font.
 */
const clippedSelects = (page: Page) =>
  page.locator("#licensing select").evaluateAll((selects) => {
    const ctx = document.createElement("canvas").getContext("2d")!;
    return (selects as HTMLSelectElement[]).flatMap((s) => {
      const cs = getComputedStyle(s);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const text = s.selectedIndex >= 0 ? s.options[s.selectedIndex]!.text : "";
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const needed = ctx.measureText(text).width;
      return needed > room ? [`${s.name}: "${text}" needs ${needed.toFixed(0)} px, has ${room.toFixed(0)} px`] : [];
    });
  });

/**
 * The reference in the confirmation: unbroken (one box, no taller than the line height), and
 * "Your reference: NB-000042" as a whole on one line (its box no taller than one line either).
 */
async function expectReferenceOnOneLine(page: Page) {
  const reference = page.locator("#licensing-form [data-lead-reference]");
  expect(await reference.innerText()).toMatch(/^NB-\d{6}$/);
  const { rects, height, lineHeight, line, lineHeightPx } = await reference.evaluate((el) => ({
    rects: el.getClientRects().length,
    height: el.getBoundingClientRect().height,
    lineHeight: parseFloat(getComputedStyle(el).lineHeight),
    line: el.parentElement!.textContent,
    lineHeightPx: el.parentElement!.getBoundingClientRect().height,
  }));
  expect(rects).toBe(1);
  expect(height).toBeLessThan(lineHeight * 1.5);
  expect(line).toMatch(/^Your reference: NB-\d{6}$/);
  expect(lineHeightPx).toBeLessThan(lineHeight * 1.5);
}

describe("the licence request (issue #41)", () => {
  for (const viewport of VIEWPORTS) {
    describe(`at ${viewport.width}×${viewport.height}`, () => {
      it('"License this album" in the album panel lands with the pre-filled form in view', async () => {
        const page = await newPage(browser, { viewport });
        await gotoHydrated(page, "/catalog");
        const card = page.locator("[data-testid=catalog-grid] [data-item-id]").first();
        const id = await card.getAttribute("data-item-id");
        const album = albums().find((a) => a.id === id)!;
        await mouseClick(page, card);
        const sheet = page.getByRole("dialog");
        await sheet.getByRole("heading", { level: 2, name: album.name }).waitFor();
        // the panel of a whole album says so
        expect(await sheet.getByRole("link", { name: "License this track" }).count()).toBe(0);
        await mouseClick(page, sheet.getByRole("link", { name: "License this album" }));
        await expectPrefilledFormInView(page, `${album.name} — ${album.artist} (full album)`);
        await screenshot(page, `licensing-landing-album-${viewport.width}`);
        await page.context().close();
      });

      it('"License this track" in the track view lands with the pre-filled form in view', async () => {
        const page = await newPage(browser, { viewport });
        await gotoHydrated(page, "/catalog?type=music&view=tracks");
        const row = page.locator("main li[data-track-id]").first();
        const title = await row.locator("h2, h3").first().innerText();
        const link = row.getByRole("link", { name: /^License this track/ });
        const tracks = new URL((await link.getAttribute("href"))!, url("/")).searchParams.get("tracks")!;
        expect(tracks.startsWith(`${title} — `)).toBe(true);
        await mouseClick(page, link);
        await expectPrefilledFormInView(page, tracks);
        await page.context().close();
      });

      it("a send leaves a lasting confirmation in place, reference on one line; the next form shows every prompt, whole", async () => {
        const page = await newPage(browser, { viewport });
        await gotoHydrated(page, `/contact?tab=licensing&tracks=${encodeURIComponent("Night Swim — Ayo Alvarez")}#licensing-form`);
        await fillLicensing(page, `Journey Pictures ${viewport.width}`);
        await page.getByLabel("Territory (Optional)", { exact: true }).selectOption({ label: "Europe" });
        await page.getByLabel("Term (Optional)", { exact: true }).selectOption({ label: "2 years" });
        await mouseClick(page, page.getByRole("button", { name: "Submit Licensing Request" }));

        const confirmation = page.locator("#licensing-form").getByRole("status");
        await confirmation.getByRole("heading", { name: "Licensing Inquiry Received!" }).waitFor();
        expect(await confirmation.innerText()).toContain("Our team will review your request and respond within 1-2 business days.");
        await expectReferenceOnOneLine(page);
        // the heading has the focus (the Submit button is gone) and is in view
        await waitFor("the focus on the confirmation", () => page.evaluate(() => document.activeElement?.id === "licensing-sent-title"));
        await waitFor("the confirmation in view", () => inView(page, "#licensing-sent-title"));
        // the form is not there to be sent twice
        expect(await page.getByRole("button", { name: "Submit Licensing Request" }).count()).toBe(0);
        await expectNoAxeViolations(page);
        await screenshot(page, `licensing-sent-${viewport.width}`);

        // lasting: still there once the toast has gone (sonner removes it after its 5 s)
        await page.locator("[data-sonner-toast]").waitFor({ state: "detached", timeout: 30_000 });
        expect(await confirmation.getByRole("heading", { name: "Licensing Inquiry Received!" }).isVisible()).toBe(true);

        await mouseClick(page, confirmation.getByRole("link", { name: "Send another request" }));
        await page.getByRole("button", { name: "Submit Licensing Request" }).waitFor();
        await waitFor("the focus on the first field", () => page.evaluate(() => document.activeElement?.id === "licensing-name"));
        // a reset form: every select on its prompt, readable whole; every field empty, tracks too
        expect(await selectTexts(page)).toEqual(PROMPTS);
        expect(await clippedSelects(page)).toEqual([]);
        for (const label of ["Full Name", "Company/Production", "Project Description", "Specific Tracks (Optional)"]) {
          expect(await page.getByLabel(label, { exact: true }).inputValue(), label).toBe("");
        }
        expect(await page.locator("[data-request-about]").count()).toBe(0);
        await page.context().close();
      });
    });
  }

  it("after a send, switching the tabs re-fires nothing: no second toast, no focus taken, the confirmation or the emptied form as left", async () => {
    const page = await newPage(browser, { viewport: VIEWPORTS[1] });
    await gotoHydrated(page, `/contact?tab=licensing&tracks=${encodeURIComponent("Night Swim — Ayo Alvarez")}#licensing-form`);
    await fillLicensing(page, "Tab Switch Pictures");
    await mouseClick(page, page.getByRole("button", { name: "Submit Licensing Request" }));
    const confirmation = page.locator("#licensing-form").getByRole("status");
    await confirmation.getByRole("heading", { name: "Licensing Inquiry Received!" }).waitFor();
    const reference = await confirmation.locator("[data-lead-reference]").innerText();
    await page.locator("[data-sonner-toast]").waitFor({ state: "detached", timeout: 30_000 });
    // every toast raised from here on is counted
    await page.evaluate(() => {
      const w = window as unknown as { toastsRaised: number };
      w.toastsRaised = 0;
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) if (n instanceof Element && n.matches("[data-sonner-toast]")) w.toastsRaised++;
      }).observe(document.body, { childList: true, subtree: true });
    });
    const toastsRaised = () => page.evaluate(() => (window as unknown as { toastsRaised: number }).toastsRaised);
    /** Two frames after the panel shows: an effect's toast would be in the page by then. */
    const settled = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const switchTo = async (name: string, shown: string) => {
      await mouseClick(page, page.getByRole("tab", { name }));
      await page.getByRole("heading", { level: 2, name: shown }).waitFor();
      await settled();
    };
    const focusedTab = () => page.evaluate(() => (document.activeElement?.getAttribute("role") === "tab" ? document.activeElement.textContent : null));

    await switchTo("General Contact", "Send Us a Message");
    await switchTo("Sync Licensing", "Sync Licensing Inquiry");
    // still the confirmation of the same send, the focus left on the tab the visitor clicked
    expect(await confirmation.locator("[data-lead-reference]").innerText()).toBe(reference);
    expect(await focusedTab()).toBe("Sync Licensing");
    expect(await toastsRaised()).toBe(0);

    // once put away, the confirmation does not come back, nor does the pre-fill it was sent with
    await mouseClick(page, confirmation.getByRole("link", { name: "Send another request" }));
    await page.getByRole("button", { name: "Submit Licensing Request" }).waitFor();
    await switchTo("General Contact", "Send Us a Message");
    await switchTo("Sync Licensing", "Sync Licensing Inquiry");
    expect(await page.getByRole("button", { name: "Submit Licensing Request" }).count()).toBe(1);
    expect(await confirmation.count()).toBe(0);
    expect(await page.locator("[data-request-about]").count()).toBe(0);
    expect(await page.getByLabel("Specific Tracks (Optional)", { exact: true }).inputValue()).toBe("");
    expect(await selectTexts(page)).toEqual(PROMPTS);
    expect(await focusedTab()).toBe("Sync Licensing");
    expect(await toastsRaised()).toBe(0);
    await page.context().close();
  });

  it("without JavaScript: the answer to a send is the same confirmation, and Send another opens an empty form at its place", async () => {
    const page = await newPage(browser, { javaScriptEnabled: false, viewport: VIEWPORTS[0] });
    await page.goto(url(`/contact?tab=licensing&tracks=${encodeURIComponent("Night Swim — Ayo Alvarez")}#licensing-form`));
    expect(await inView(page, "#licensing-name")).toBeDefined();
    expect(await inView(page, "[data-request-about]")).toBeDefined();
    await fillLicensing(page, "No Script Journey Films");
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Submit Licensing Request" }).click()]);
    const confirmation = page.locator("#licensing-form").getByRole("status");
    expect(await confirmation.getByRole("heading", { name: "Licensing Inquiry Received!" }).getAttribute("autofocus")).toBe("");
    await expectReferenceOnOneLine(page);
    // autofocus brings it into view on the returned page, below the header and the cards
    await waitFor("the confirmation in view", () => inView(page, "#licensing-sent-title"));

    await Promise.all([page.waitForNavigation(), confirmation.getByRole("link", { name: "Send another request" }).click()]);
    expect(new URL(page.url()).hash).toBe("#licensing-form");
    await waitFor("the first field in view", () => inView(page, "#licensing-name"));
    expect(await selectTexts(page)).toEqual(PROMPTS);
    expect(await page.getByLabel("Company/Production", { exact: true }).inputValue()).toBe("");
    await page.context().close();
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { podcastShows } from "../../app/content/podcasts.ts";
import sharp from "sharp";
import { filmPartners, musicPartners, type Partner } from "../../app/content/partners.ts";
import { logoCellsOf } from "../../app/content/partner-logo-sprites.ts";
import { featuredTokenizationPartner } from "../../app/content/web3.ts";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot, url, watchLayoutShift } from "./support/browser.ts";

const BLOCKCHAIN_LINES = 8;
const screenshotDir = () => process.env.SCREENSHOT_DIR ?? path.join(os.tmpdir(), "site-screenshots");

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function withPage<T>(fn: (page: Page) => Promise<T>, options: Parameters<typeof newPage>[1] = {}): Promise<T> {
  const page = await newPage(browser, options);
  try {
    return await fn(page);
  } finally {
    await page.context().close();
  }
}

/** Answers every request to the sample booking/playlist hosts, so popups load offline. */
async function fulfillExternalLinks(page: Page) {
  await page.context().route(/^https:\/\/(cal|video)\.example\.com\//, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<title>booking</title>" }),
  );
}

const activeElement = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase(),
      text: el?.textContent?.trim() ?? "",
      inDialog: Boolean(el?.closest('dialog, [role="dialog"]')),
      href: el?.getAttribute("href"),
    };
  });

/** Number of fully visible text lines inside an element (distinct line boxes within its box). */
function visibleLineCount(page: Page, selector: string) {
  return page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    const tops: number[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(walker.currentNode);
      for (const r of range.getClientRects()) {
        if (r.height > 0 && r.width > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1) tops.push(r.top);
      }
    }
    const lineHeight = Number.parseFloat(getComputedStyle(el).lineHeight);
    tops.sort((a, b) => a - b);
    // fragments of one line (bold and regular runs) share a top; new lines start ≥ ½ line lower
    return tops.filter((top, i) => i === 0 || top - tops[i - 1] > lineHeight / 2).length;
  });
}

describe("podcasts", () => {
  it("shows one card per show with its logo on its two-colour gradient and both external links", async () => {
    await withPage(async (page) => {
      const response = await gotoHydrated(page, "/podcasts");
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe("Podcasts | Northbeat Media");
      const cards = page.locator("article");
      expect(await cards.count()).toBe(3);
      for (const [i, show] of podcastShows.entries()) {
        const card = cards.nth(i);
        expect(await card.getByRole("heading", { level: 2 }).textContent()).toBe(show.title);
        await expect.poll(() => card.getByText(show.description).isVisible()).toBe(true);

        const gradient = await card.locator("img").evaluate((img) => getComputedStyle(img.parentElement!).backgroundImage);
        const rgb = (hex: string) => `rgb(${[1, 3, 5].map((o) => parseInt(hex.slice(o, o + 2), 16)).join(", ")})`;
        expect(gradient).toContain(rgb(show.color1));
        expect(gradient).toContain(rgb(show.color2));
        expect(await card.locator("img").getAttribute("src")).toBe(show.logo);
        expect(await card.locator("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

        const book = card.getByRole("link", { name: /^Book Your Spot/ });
        expect(await book.getAttribute("href")).toBe(show.bookingLink);
        expect(await book.getAttribute("target")).toBe("_blank");
        expect(await book.getAttribute("rel")).toContain("noopener");
        const episodes = card.getByRole("link", { name: /^View Episodes/ });
        expect(await episodes.getAttribute("href")).toBe(show.playlistLink);
        expect(await episodes.getAttribute("target")).toBe("_blank");
      }
      expect(await page.getByRole("heading", { name: "Ready to Share Your Story?" }).isVisible()).toBe(true);
      await expectNoAxeViolations(page);
    });
  });

  it("opens the Get Featured dialog; choosing a show opens its booking link in a new tab and closes it", async () => {
    await withPage(async (page) => {
      await fulfillExternalLinks(page);
      await gotoHydrated(page, "/podcasts");
      await page.getByRole("button", { name: "Get Featured" }).click();
      const dialog = page.getByRole("dialog", { name: "Choose Your Podcast" });
      await dialog.waitFor();
      expect(await dialog.getByText("Select which podcast show you'd like to be featured on").isVisible()).toBe(true);
      const choices = dialog.getByRole("link");
      expect(await choices.count()).toBe(3);
      for (const [i, show] of podcastShows.entries()) {
        expect(await choices.nth(i).textContent()).toContain(show.title);
        expect(await choices.nth(i).getAttribute("target")).toBe("_blank");
      }
      await expectNoAxeViolations(page);

      const show = podcastShows[1];
      const [popup] = await Promise.all([
        page.context().waitForEvent("page"),
        dialog.getByRole("link", { name: new RegExp(show.title) }).click(),
      ]);
      await popup.waitForLoadState();
      expect(popup.url()).toBe(show.bookingLink);
      await dialog.waitFor({ state: "hidden" });
      expect(page.url()).toBe(url("/podcasts"));
    });
  });

  it("works with the keyboard alone: Tab to Get Featured, Enter, Tab through shows, Esc returns focus", async () => {
    await withPage(async (page) => {
      await fulfillExternalLinks(page);
      await gotoHydrated(page, "/podcasts");
      let focused = await activeElement(page);
      for (let i = 0; i < 40 && focused.text !== "Get Featured"; i++) {
        await page.keyboard.press("Tab");
        focused = await activeElement(page);
      }
      expect(focused).toMatchObject({ tag: "button", text: "Get Featured" });

      await page.keyboard.press("Enter");
      await page.getByRole("dialog", { name: "Choose Your Podcast" }).waitFor();
      // Initial focus goes inside the dialog, on its first non-link control (Close),
      // so that opening never lands on a link that Enter would follow by accident.
      focused = await activeElement(page);
      expect(focused).toMatchObject({ tag: "button", text: "Close", inDialog: true });

      await page.keyboard.press("Tab");
      focused = await activeElement(page);
      expect(focused).toMatchObject({ tag: "a", inDialog: true, href: podcastShows[0].bookingLink });
      await page.keyboard.press("Tab");
      focused = await activeElement(page);
      expect(focused).toMatchObject({ tag: "a", inDialog: true, href: podcastShows[1].bookingLink });
      // the focus ring is visible on the show
      const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
      expect(outline).not.toBe("none");

      await page.keyboard.press("Escape");
      await page.getByRole("dialog").waitFor({ state: "hidden" });
      await expect.poll(() => activeElement(page)).toMatchObject({ tag: "button", text: "Get Featured", inDialog: false });

      // Enter on a show opens its booking page and closes the dialog, focus back on the button
      await page.keyboard.press("Enter");
      await page.getByRole("dialog").waitFor();
      for (let i = 0; i < 3; i++) await page.keyboard.press("Tab");
      expect((await activeElement(page)).href).toBe(podcastShows[2].bookingLink);
      const [popup] = await Promise.all([page.context().waitForEvent("page"), page.keyboard.press("Enter")]);
      await popup.waitForLoadState();
      expect(popup.url()).toBe(podcastShows[2].bookingLink);
      await page.getByRole("dialog").waitFor({ state: "hidden" });
      await expect.poll(() => activeElement(page)).toMatchObject({ tag: "button", text: "Get Featured" });
    });
  });
});

describe("partners", () => {
  it("overview: Music and Film DSPs show Learn More, the video-platform card shows Coming Soon", async () => {
    await withPage(async (page) => {
      await gotoHydrated(page, "/partners");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Our Partners");
      const cards = page.locator("article");
      expect(await cards.count()).toBe(3);
      const expected = [
        ["Music DSPs", "/partners/music", true],
        ["Film DSPs", "/partners/film", true],
        ["YouTube Partners", "/partners/youtube", false],
      ] as const;
      for (const [i, [title, href, available]] of expected.entries()) {
        const card = cards.nth(i);
        const link = card.getByRole("link", { name: title, exact: true });
        expect(await link.getAttribute("href")).toBe(href);
        expect(await card.getByText("Learn More").isVisible()).toBe(available);
        expect(await card.getByText("Coming Soon").count()).toBe(available ? 0 : 1);
      }
      await expectNoAxeViolations(page);

      // the whole card is clickable: a click on its description follows the card's link
      const description = await cards.nth(0).getByText(/Streaming services/).boundingBox();
      await page.mouse.click(description!.x + description!.width / 2, description!.y + description!.height / 2);
      await page.waitForURL(url("/partners/music"));
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Music DSPs");
    });
  });

  for (const [category, partners, title] of [
    ["music", musicPartners, "Music DSPs"],
    ["film", filmPartners, "Film DSPs"],
  ] as const) {
    it(`/partners/${category}: one logo link per partner, new tab, named, from our own origin`, async () => {
      const cells = logoCellsOf(category, [...partners]);
      await withPage(async (page) => {
        const requested: string[] = [];
        page.on("request", (req) => requested.push(req.url()));
        const response = await gotoHydrated(page, `/partners/${category}`);
        expect(response?.status()).toBe(200);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(title);
        expect(await page.title()).toBe(`${title} | Northbeat Media`);

        const tiles = await page.locator(`ul[aria-label="${title} partners"] > li a`).evaluateAll((links) =>
          links.map((a) => {
            const img = a.querySelector("img")!;
            return {
              href: a.getAttribute("href"),
              target: a.getAttribute("target"),
              rel: a.getAttribute("rel"),
              alt: img.getAttribute("alt"),
              src: img.getAttribute("src"),
              loading: img.getAttribute("loading"),
              width: img.getAttribute("width"),
              height: img.getAttribute("height"),
            };
          }),
        );
        // product-rules §9: about 90 music and about 160 film partners
        expect(tiles.length).toBe(partners.length);
        expect(tiles.length).toBeGreaterThanOrEqual(category === "music" ? 85 : 150);
        expect(tiles.length).toBeLessThanOrEqual(category === "music" ? 95 : 170);
        for (const [i, tile] of tiles.entries()) {
          expect(tile).toEqual({
            href: partners[i].url,
            target: "_blank",
            rel: "noopener noreferrer",
            alt: partners[i].name,
            // ADR 0150, amended: every logo is cut from one of the directory's sprites
            src: cells[i]!.src,
            loading: "lazy",
            width: String(cells[i]!.columns * 200),
            height: String(cells[i]!.rows * 100),
          });
        }
        // the accessible name of a tile starts with the partner's name
        const first = partners[0];
        expect(await page.getByRole("link", { name: new RegExp(`^${first.name}\\b`) }).getAttribute("href")).toBe(first.url);

        // logos are our own files: nothing on this page loads from another origin
        await page.locator("ul[aria-label] > li").last().scrollIntoViewIfNeeded();
        await page.waitForLoadState("networkidle");
        const origin = new URL(url("/")).origin;
        expect(requested.filter((r) => !r.startsWith(origin) && !r.startsWith("data:"))).toEqual([]);
        // the logos arrive a dozen to an image, each image once, and no logo in a file of its own
        const logoRequests = requested.filter((r) => r.includes("/assets/dsps/"));
        const sprites = [...new Set(cells.map((c) => url(c!.src)))];
        expect(logoRequests.length).toBeGreaterThan(0);
        expect(new Set(logoRequests).size).toBe(logoRequests.length);
        expect(logoRequests.every((r) => sprites.includes(r))).toBe(true);

        await expectNoAxeViolations(page);
      });
    });
  }

  /** Mean colour of an image (its opaque pixels), to tell the logos apart by their gradients. */
  async function meanColour(image: Buffer): Promise<number[]> {
    const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const sum = [0, 0, 0];
    let n = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      if (data[i + 3] < 250) continue;
      for (let c = 0; c < 3; c++) sum[c] += data[i + c];
      n++;
    }
    return sum.map((v) => v / n);
  }
  const distance = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  const ownLogo = (partner: Partner) => meanColour(fs.readFileSync(path.join(import.meta.dirname, "../../public", partner.logo)));

  for (const width of [390, 1280]) {
    it(`at ${width} px each tile in view shows its own partner's logo, sharp at 2x, named by it`, async () => {
      for (const [category, partners] of [["film", filmPartners], ["music", musicPartners]] as const) {
        const cells = logoCellsOf(category, [...partners]);
        await withPage(
          async (page) => {
            await page.goto(url(`/partners/${category}`));
            const tiles = page.locator("ul[aria-label$=' partners'] > li a");
            await tiles.first().scrollIntoViewIfNeeded();
            await expect.poll(() => tiles.first().locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

            const inView: number[] = [];
            for (let i = 0; i < 12; i++) {
              const box = await tiles.nth(i).boundingBox();
              if (box && box.y >= 0 && box.y + box.height <= 900) inView.push(i);
            }
            expect(inView.length, `${category} tiles in view`).toBeGreaterThanOrEqual(width === 390 ? 4 : 6);
            for (const i of inView) {
              const tile = tiles.nth(i);
              const partner = partners[i];
              expect(await tile.locator("img").getAttribute("src")).toBe(cells[i]!.src);
              // its accessible name is the partner's (the image's alt text)
              expect(await page.getByRole("link", { name: `${partner.name} (opens in a new tab)`, exact: true }).getAttribute("href")).toBe(partner.url);
              // the tile is a 2:1 box showing one cell of the sprite, at least 2 image pixels a CSS px
              const geometry = await tile.locator("img").evaluate((img: HTMLImageElement) => {
                const cell = img.parentElement!.getBoundingClientRect();
                const shown = img.getBoundingClientRect();
                return { cellWidth: cell.width, cellHeight: cell.height, pixelsPerPx: img.naturalWidth / shown.width };
              });
              expect(geometry.cellWidth / geometry.cellHeight).toBeCloseTo(2, 1);
              expect(geometry.pixelsPerPx).toBeGreaterThanOrEqual(2);
              // what is painted there is this partner's logo: its colours, not a neighbour's
              const shot = await meanColour(await tile.screenshot({ animations: "disabled", scale: "css" }));
              const own = distance(shot, await ownLogo(partner));
              expect(own, `${category} tile ${i} (${partner.name})`).toBeLessThan(20);
              for (const other of [partners[i - 1], partners[i + 1]].filter(Boolean)) {
                expect(distance(shot, await ownLogo(other)), `${partner.name} vs ${other.name}`).toBeGreaterThan(own);
              }
            }
            await expectNoAxeViolations(page);
          },
          { viewport: { width, height: 900 }, deviceScaleFactor: 2 },
        );
      }
    });
  }

  it("does not shift the layout when the logos' sprite arrives (CLS 0)", async () => {
    await withPage(
      async (page) => {
        // hold the sprite until the grid has been laid out and painted without it
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(/\/assets\/dsps\/.+\.webp$/, async (route) => {
          await held;
          await route.continue();
        });
        const layoutShift = await watchLayoutShift(page);
        await page.goto(url("/partners/film"));
        const boxes = () => page.locator("ul[aria-label$=' partners'] > li a").evaluateAll((links) => links.slice(0, 12).map((a) => JSON.stringify(a.getBoundingClientRect())));
        const before = await boxes();
        release();
        await expect.poll(() => page.locator("ul[aria-label$=' partners'] img").first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        expect(await boxes()).toEqual(before);
        expect(await layoutShift()).toBe(0);
      },
      { viewport: { width: 390, height: 844 } },
    );
  });

  it("shows the partner's name in a tooltip on hover and on keyboard focus", async () => {
    await withPage(async (page) => {
      await gotoHydrated(page, "/partners/music");
      const [first, second] = musicPartners;
      await page.getByRole("link", { name: new RegExp(`^${first.name}\\b`) }).hover();
      const tooltip = page.getByRole("tooltip");
      await tooltip.waitFor();
      expect(await tooltip.textContent()).toBe(first.name);
      await expectNoAxeViolations(page);

      // leave the tile (in steps, as a real pointer does) and the tooltip goes away
      await page.mouse.move(5, 450, { steps: 8 });
      await page.mouse.move(2, 460, { steps: 2 });
      await tooltip.waitFor({ state: "hidden" });
      await page.getByRole("link", { name: new RegExp(`^${second.name}\\b`) }).focus();
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Tab");
      await tooltip.waitFor();
      expect(await tooltip.textContent()).toBe(second.name);
    });
  });

  it("/partners/youtube shows Coming Soon and the spec's text, with no partner grid", async () => {
    await withPage(async (page) => {
      const response = await gotoHydrated(page, "/partners/youtube");
      expect(response?.status()).toBe(200);
      const main = page.locator("main");
      expect(await main.getByText("Coming Soon", { exact: true }).isVisible()).toBe(true);
      expect(await main.getByText("We're working on bringing you exciting partnerships. Stay tuned!").isVisible()).toBe(true);
      expect(await page.locator("ul[aria-label$=' partners']").count()).toBe(0);
      await expectNoAxeViolations(page);
      await main.getByRole("link", { name: "Back to Partners" }).click();
      await page.waitForURL(url("/partners"));
    });
  });

  it("/partners/unknown answers 404 with Category Not Found inside the site layout", async () => {
    const res = await fetch(url("/partners/unknown"));
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Category Not Found");

    await withPage(async (page) => {
      const response = await gotoHydrated(page, "/partners/unknown");
      expect(response?.status()).toBe(404);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Category Not Found");
      expect(await page.title()).toBe("Category Not Found | Northbeat Media");
      expect(await page.locator("header").first().isVisible()).toBe(true);
      expect(await page.locator("footer").isVisible()).toBe(true);
      await expectNoAxeViolations(page);
      await page.getByRole("link", { name: "Back to Partners" }).click();
      await page.waitForURL(url("/partners"));
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Our Partners");
    });
  });
});

describe("web3", () => {
  it("overview: title, subtitle, featured partner with an external Learn more, and three topic cards", async () => {
    await withPage(async (page) => {
      await gotoHydrated(page, "/web3");
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Web3");
      expect(await page.getByText("Explore our blockchain and tokenization initiatives", { exact: true }).isVisible()).toBe(true);

      const featured = page.locator("section", { has: page.getByRole("heading", { name: featuredTokenizationPartner.heading }) });
      expect(await featured.getByRole("img", { name: featuredTokenizationPartner.name }).getAttribute("src")).toBe(
        featuredTokenizationPartner.logo,
      );
      const learnMore = featured.getByRole("link", { name: /^Learn more/ });
      expect(await learnMore.getAttribute("href")).toBe(featuredTokenizationPartner.url);
      expect(await learnMore.getAttribute("target")).toBe("_blank");

      const card = (title: string) => page.locator("article", { has: page.getByRole("heading", { name: title, exact: true }) });
      // Blockchain: rich HTML description, collapsed to the default 3 lines
      expect(await card("Blockchain").locator("strong").count()).toBeGreaterThan(0);
      expect(await visibleLineCount(page, "article:has(h2:text-is('Blockchain')) [id$='-text']")).toBe(3);
      expect(await card("Blockchain").getByRole("button", { name: "more..." }).isVisible()).toBe(true);
      expect(await card("Blockchain").getByRole("link", { name: "Explore Blockchain" }).getAttribute("href")).toBe("/web3/blockchain");
      // Tokenization: Coming Soon, still linked; Metadata: Coming Soon and unavailable (no link)
      expect(await card("Tokenization").getByText("Coming Soon").isVisible()).toBe(true);
      expect(await card("Tokenization").getByRole("link").getAttribute("href")).toBe("/web3/tokenization");
      expect(await card("Metadata").getByText("Coming Soon").isVisible()).toBe(true);
      expect(await card("Metadata").getByRole("link").count()).toBe(0);
      await expectNoAxeViolations(page);
    });
  });

  it("/web3/blockchain collapses the text to 8 lines; more... expands to less and back", async () => {
    await withPage(async (page) => {
      const response = await gotoHydrated(page, "/web3/blockchain");
      expect(response?.status()).toBe(200);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Blockchain");
      const text = "main [id$='-text']";
      const toggle = page.getByRole("button", { name: "more..." });
      expect(await toggle.isVisible()).toBe(true);
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      expect(await page.locator(`#${await toggle.getAttribute("aria-controls")}`).count()).toBe(1);
      expect(await visibleLineCount(page, text)).toBe(BLOCKCHAIN_LINES);
      // the cut is marked with an ellipsis (line-clamp)
      expect(await page.locator(text).evaluate((el) => getComputedStyle(el).webkitLineClamp)).toBe(String(BLOCKCHAIN_LINES));
      await expectNoAxeViolations(page);

      await toggle.click();
      const less = page.getByRole("button", { name: "less" });
      expect(await less.getAttribute("aria-expanded")).toBe("true");
      expect(await visibleLineCount(page, text)).toBeGreaterThan(BLOCKCHAIN_LINES + 4);
      expect(await page.locator(text).evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
      expect(await page.getByText("web3@example.com").isVisible()).toBe(true);

      await less.click();
      expect(await page.getByRole("button", { name: "more..." }).getAttribute("aria-expanded")).toBe("false");
      expect(await visibleLineCount(page, text)).toBe(BLOCKCHAIN_LINES);

      // keyboard: the control is a real button
      await page.getByRole("button", { name: "more..." }).focus();
      await page.keyboard.press("Enter");
      expect(await page.getByRole("button", { name: "less" }).isVisible()).toBe(true);

      await page.getByRole("link", { name: "Back to Web3" }).click();
      await page.waitForURL(url("/web3"));
    });
  });

  it("measures again when the window is resized", async () => {
    await withPage(async (page) => {
      await gotoHydrated(page, "/web3/blockchain");
      expect(await page.getByRole("button", { name: "more..." }).isVisible()).toBe(true);
      // shorten the content, then resize: the control must disappear
      await page.locator("main [id$='-text']").evaluate((el) => {
        el.innerHTML = "<p>Short.</p>";
      });
      expect(await page.getByRole("button", { name: "more..." }).count()).toBe(1);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.getByRole("button", { name: "more..." }).waitFor({ state: "hidden" });
    });
  });

  it("shows the whole blockchain text without JavaScript, and no dead control", async () => {
    await withPage(
      async (page) => {
        await page.goto(url("/web3/blockchain"));
        const text = page.locator("main [id$='-text']");
        expect(await text.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
        expect(await visibleLineCount(page, "main [id$='-text']")).toBeGreaterThan(BLOCKCHAIN_LINES + 4);
        expect(await page.getByRole("button", { name: "more..." }).count()).toBe(0);
      },
      { javaScriptEnabled: false },
    );
  });

  it("does not shift the layout when the text is measured after the first paint (CLS 0)", async () => {
    for (const pagePath of ["/web3/blockchain", "/web3"]) {
      await withPage(
        async (page) => {
          // The web font arrives after the first paint, as it does on a slow line or a busy
          // machine: with font-display: swap the text re-flowed then (CLS 0.041, ADR 0156).
          await page.route(/\.woff2$/, async (route) => {
            await new Promise((resolve) => setTimeout(resolve, 1500));
            await route.continue();
          });
          const layoutShift = await watchLayoutShift(page);
          await gotoHydrated(page, pagePath);
          await page.getByRole("button", { name: "more..." }).first().waitFor();
          await page.waitForLoadState("networkidle");
          expect(await layoutShift(), pagePath).toBe(0);
        },
        { viewport: { width: 390, height: 800 } },
      );
    }
  });

  for (const [pagePath, title] of [
    ["/web3/tokenization", "Tokenization"],
    ["/web3/metadata", "Metadata"],
  ] as const) {
    it(`${pagePath} shows the coming-soon text`, async () => {
      await withPage(async (page) => {
        const response = await gotoHydrated(page, pagePath);
        expect(response?.status()).toBe(200);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(title);
        expect(await page.getByText("Coming Soon", { exact: true }).isVisible()).toBe(true);
        expect(await page.getByText("Content is currently being developed. Check back soon for updates.").isVisible()).toBe(true);
        expect(await page.getByRole("button", { name: "more..." }).count()).toBe(0);
        await expectNoAxeViolations(page);
      });
    });
  }

  it("/web3/{anything else} is titled Web3 with the coming-soon text and answers 404", async () => {
    await withPage(async (page) => {
      const response = await gotoHydrated(page, "/web3/whatever");
      expect(response?.status()).toBe(404);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Web3");
      expect(await page.getByText("Content is currently being developed. Check back soon for updates.").isVisible()).toBe(true);
      await expectNoAxeViolations(page);
      await page.getByRole("link", { name: "Back to Web3" }).click();
      await page.waitForURL(url("/web3"));
    });
  });
});

describe("meta and caching", () => {
  it("gives every page its own title, description and canonical link, and caches the static ones", async () => {
    const pages = [
      ["/podcasts", "Podcasts | Northbeat Media"],
      ["/partners", "Our Partners | Northbeat Media"],
      ["/partners/music", "Music DSPs | Northbeat Media"],
      ["/partners/film", "Film DSPs | Northbeat Media"],
      ["/partners/youtube", "YouTube Partners | Northbeat Media"],
      ["/web3", "Web3 | Northbeat Media"],
      ["/web3/blockchain", "Blockchain | Northbeat Media"],
      ["/web3/tokenization", "Tokenization | Northbeat Media"],
      ["/web3/metadata", "Metadata | Northbeat Media"],
    ] as const;
    const descriptions = new Set<string>();
    for (const [pagePath, title] of pages) {
      await fetch(url(pagePath));
      const res = await fetch(url(pagePath));
      expect(res.status, pagePath).toBe(200);
      expect(res.headers.get("x-page-cache"), pagePath).toBe("HIT");
      const html = await res.text();
      expect(html).toContain(`<title>${title.replace("&", "&amp;")}</title>`);
      expect(html).toMatch(new RegExp(`<link rel="canonical" href="https?://[^"]+${pagePath}"`));
      const description = /<meta name="description" content="([^"]+)"/.exec(html)?.[1] ?? "";
      expect(description.length, pagePath).toBeGreaterThan(40);
      descriptions.add(description);
    }
    expect(descriptions.size).toBe(pages.length);
  });
});

describe("screenshots", () => {
  it("captures every page at 390 and 1280 px", async () => {
    for (const width of [390, 1280]) {
      await withPage(
        async (page) => {
          for (const pagePath of [
            "/podcasts",
            "/partners",
            "/partners/music",
            "/partners/film",
            "/partners/youtube",
            "/partners/unknown",
            "/web3",
            "/web3/blockchain",
            "/web3/tokenization",
            "/web3/metadata",
            "/web3/whatever",
          ]) {
            await gotoHydrated(page, pagePath);
            await page.waitForLoadState("networkidle");
            await screenshot(page, `directories${pagePath.replaceAll("/", "-")}-${width}`);
          }
          await gotoHydrated(page, "/podcasts");
          await page.getByRole("button", { name: "Get Featured" }).click();
          await page.getByRole("dialog").waitFor();
          // the dialog is fixed to the viewport: capture the viewport, not the full page
          await page.screenshot({ path: path.join(screenshotDir(), `directories-podcasts-dialog-${width}.png`) });
        },
        { viewport: { width, height: 900 } },
      );
    }
  }, 240_000);
});

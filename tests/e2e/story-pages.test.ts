import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boardMembers } from "../../app/content/board.ts";
import { site } from "../../app/content/site.ts";
import { expectNoAxeViolations, gotoHydrated, launchBrowser, newPage, screenshot } from "./support/browser.ts";

// product-rules §2: Home, Mission & Vision, The Board, Innovation, AI-Powered Platforms, Investors.
// Texts below are the spec's, typed out here on purpose: the test must fail if the
// content drifts from the spec, so it does not read them back from app/content.

const STORY_ROUTES = ["/", "/mission", "/board", "/innovation", "/ai-brands", "/investors"] as const;

let browser: Browser;
let page: Page;
let consoleErrors: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser);
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(msg.text());
  });
  page.on("pageerror", (err) => consoleErrors.push(err.message));
});

afterAll(async () => {
  await browser?.close();
});

async function open(path: string) {
  consoleErrors = [];
  const response = await gotoHydrated(page, path);
  expect(response?.status()).toBe(200);
  return response;
}

const main = () => page.locator("main");
const h1Text = async () => (await page.locator("h1").allInnerTexts()).map((t) => t.trim());

async function expectHeading(name: string, level?: number) {
  await expect(main().getByRole("heading", { name, exact: true, ...(level ? { level } : {}) }).count()).resolves.toBe(1);
}

async function expectLink(name: string | RegExp, href: string, opts: { newTab?: boolean; within?: Locator } = {}) {
  const link = (opts.within ?? main()).getByRole("link", { name });
  expect(await link.count(), `link ${String(name)}`).toBe(1);
  expect(await link.getAttribute("href")).toBe(href);
  if (opts.newTab) {
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toContain("noopener");
  } else {
    expect(await link.getAttribute("target")).toBeNull();
  }
}

async function metaOf() {
  return page.evaluate(() => ({
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute("content") ?? "",
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? "",
    ogTitle: document.querySelector('meta[property="og:title"]')?.getAttribute("content") ?? "",
  }));
}

describe("meta, headings and console on every story page", () => {
  const expectedTitles: Record<(typeof STORY_ROUTES)[number], string> = {
    "/": `${site.companyName} — Beat The Ordinary`,
    "/mission": `Our Mission & Vision | ${site.companyName}`,
    "/board": `The Board | ${site.companyName}`,
    "/innovation": `Innovation | ${site.companyName}`,
    "/ai-brands": `AI-Powered Platforms | ${site.companyName}`,
    "/investors": `Investors | ${site.companyName}`,
  };

  for (const path of STORY_ROUTES) {
    it(`${path}: own title, description and absolute canonical; one h1; no console errors`, async () => {
      await open(path);
      const meta = await metaOf();
      expect(meta.title).toBe(expectedTitles[path]);
      expect(meta.ogTitle).toBe(expectedTitles[path]);
      expect(meta.description.length).toBeGreaterThan(60);
      expect(meta.description.length).toBeLessThanOrEqual(170);
      const canonical = new URL(meta.canonical);
      expect(canonical.protocol).toMatch(/^https?:$/);
      expect(canonical.pathname).toBe(path);
      expect(await page.locator("h1").count()).toBe(1);
      expect(consoleErrors).toEqual([]);
    });
  }

  it("gives each story page a different description", async () => {
    const descriptions = new Set<string>();
    for (const path of STORY_ROUTES) {
      await open(path);
      descriptions.add((await metaOf()).description);
    }
    expect(descriptions.size).toBe(STORY_ROUTES.length);
  });
});

describe("/ Home", () => {
  it("shows the hero, the founder's letter, both buttons, the stats strip and the ecosystem section", async () => {
    await open("/");
    expect(await h1Text()).toEqual(["Beat The Ordinary"]);

    const letter = main().getByRole("article", { name: "A letter from our founder" });
    await expect(letter.innerText()).resolves.toContain("Creative Tokenization for You");
    await expect(letter.innerText()).resolves.toContain("30 years in the music business");
    const letterMail = letter.getByRole("link", { name: site.founderEmail });
    expect(await letterMail.getAttribute("href")).toBe(`mailto:${site.founderEmail}`);

    // the hero's own buttons (other home sections may link to the catalog too)
    const hero = main().getByRole("region", { name: "Beat The Ordinary" });
    await expectLink("Browse Catalog", "/catalog", { within: hero });
    await expectLink("Join / Distribute Your Music", "/contact", { within: hero });

    const stats = await main()
      .locator("dl")
      .first()
      .evaluate((dl) => [...dl.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent ?? dt.previousElementSibling?.textContent]));
    expect(stats).toEqual([
      ["Albums in Catalog", "25,000+"],
      ["Hours of Music", "50,000+"],
      ["Countries Reached", "150+"],
    ]);

    await expectHeading("Our AI-Powered Ecosystem for Creators & Innovators", 2);
    const ecosystem = main().getByRole("region", { name: "Our AI-Powered Ecosystem for Creators & Innovators" });
    await expect(ecosystem.innerText()).resolves.toContain(
      "Discover how our integrated AI tools and global distribution simplify your creative journey and amplify your reach, completely free.",
    );
    await expectLink("Explore All Platforms", "/ai-brands", { within: ecosystem });
  });

  it("the buttons navigate: Explore All Platforms opens /ai-brands", async () => {
    await open("/");
    await main().getByRole("link", { name: "Explore All Platforms" }).first().click();
    await page.waitForURL(/\/ai-brands$/);
    await expect.poll(h1Text).toEqual(["AI-Powered Platforms"]);
  });

  it("carries Organization JSON-LD naming the company", async () => {
    await open("/");
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const org = blocks.map((b) => JSON.parse(b) as Record<string, unknown>).find((d) => d["@type"] === "Organization");
    expect(org).toBeDefined();
    expect(org!.name).toBe(site.companyName);
    expect(org!.email).toBe(site.contactEmail);
    expect(new URL(org!.url as string).pathname).toBe("/");
  });
});

describe("/mission", () => {
  it("shows the title, the mission and vision cards and the guiding principles, each with body copy", async () => {
    await open("/mission");
    expect(await h1Text()).toEqual(["Our Mission & Vision"]);
    const groups: Record<string, string[]> = {
      "What Drives Us": ["Empowering Human Creativity", "Pioneering Responsible Innovation", "Building an Honest Ecosystem"],
      "Where We're Heading": ["Music as an Immersive Experience", "A Global Stage for Every Artist", "Fearless Innovation & Growth"],
      "Our Guiding Principles": ["Artist-Centric", "Innovation & Adaptability", "Transparency & Integrity", "Empowerment & Education"],
    };
    for (const [section, cards] of Object.entries(groups)) {
      const region = main().getByRole("region", { name: section });
      expect(await region.count(), section).toBe(1);
      const cardTitles = await region.getByRole("heading", { level: 3 }).allInnerTexts();
      expect(cardTitles).toEqual(cards);
      // every card carries a sentence or two under its title
      const bodies = await region.locator("h3 + p").allInnerTexts();
      expect(bodies).toHaveLength(cards.length);
      for (const body of bodies) expect(body.length).toBeGreaterThan(40);
    }
  });
});

describe("/board", () => {
  it("shows six members with portrait, name, role, bio and Expertise chips", async () => {
    await open("/board");
    expect(await h1Text()).toEqual(["The Board"]);
    const cards = main().getByRole("article");
    expect(await cards.count()).toBe(6);
    expect(await main().getByRole("heading", { level: 3 }).allInnerTexts()).toEqual(boardMembers.map((m) => m.name));

    for (const member of boardMembers) {
      const card = main().getByRole("article", { name: member.name });
      const text = await card.innerText();
      expect(text).toContain(member.role);
      expect(text).toContain(member.bio);
      expect(await card.getByRole("heading", { name: "Expertise" }).count()).toBe(1);
      expect(await card.getByRole("list", { name: `Expertise of ${member.name}` }).getByRole("listitem").allInnerTexts()).toEqual([...member.skills]);

      const img = card.getByRole("img", { name: `Portrait of ${member.name}` });
      // loaded (not a broken image) and sized in the markup, so it cannot shift the layout
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      expect(await img.getAttribute("width")).toBe("88");
      expect(await img.getAttribute("height")).toBe("88");
    }
  });

  it("links real profiles in a new tab, and renders a '#' profile as a disabled non-link", async () => {
    await open("/board");
    const withProfile = boardMembers.filter((m) => m.social.linkedin !== "#");
    const withoutProfile = boardMembers.filter((m) => m.social.linkedin === "#");
    expect(withoutProfile.length).toBeGreaterThan(0);

    for (const member of withProfile) {
      const card = main().getByRole("article", { name: member.name });
      const link = card.getByRole("link", { name: /LinkedIn/ });
      expect(await link.getAttribute("href")).toBe(member.social.linkedin);
      expect(await link.getAttribute("target")).toBe("_blank");
    }

    for (const member of withoutProfile) {
      const card = main().getByRole("article", { name: member.name });
      // not a link: no link role, no href, cannot take focus, dimmed, explained to screen readers
      expect(await card.getByRole("link").count()).toBe(0);
      const disabled = card.locator('[aria-disabled="true"]');
      expect(await disabled.count()).toBe(1);
      expect(await disabled.getAttribute("href")).toBeNull();
      expect(await disabled.innerText()).toContain("LinkedIn");
      expect(await disabled.textContent()).toContain(`profile of ${member.name}: not available`);
      const state = await disabled.evaluate((el: HTMLElement) => {
        el.focus();
        return { focused: document.activeElement === el, opacity: Number(getComputedStyle(el).opacity) };
      });
      expect(state.focused).toBe(false);
      expect(state.opacity).toBeLessThan(1);
      // clicking it goes nowhere
      const before = page.url();
      await disabled.click({ force: true });
      expect(page.url()).toBe(before);
    }
  });

  it("keyboard focus never lands on a disabled profile link", async () => {
    await open("/board");
    const focusedDisabled = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press("Tab");
      const info = await page.evaluate(() => ({
        disabled: document.activeElement?.getAttribute("aria-disabled") === "true",
        text: document.activeElement?.textContent ?? "",
      }));
      if (info.disabled) focusedDisabled.push(info.text);
    }
    expect(focusedDisabled).toEqual([]);
  });

  it("shows the board text: membership mainly by invitation, write to the contact e-mail", async () => {
    await open("/board");
    const region = main().getByRole("region", { name: "Joining the Board" });
    await expect(region.innerText()).resolves.toMatch(/mainly by invitation/);
    const mail = region.getByRole("link", { name: site.contactEmail });
    expect(await mail.getAttribute("href")).toMatch(new RegExp(`^mailto:${site.contactEmail.replace(".", "\\.")}(\\?|$)`));
  });
});

describe("/innovation", () => {
  it("shows the title, subtitle, four tiles, the founder's quote and the essay sections", async () => {
    await open("/innovation");
    expect(await h1Text()).toEqual(["Innovation"]);
    await expect(page.locator("header", { has: page.locator("h1") }).innerText()).resolves.toContain("Where Technology Meets Creativity");
    for (const tile of ["Music Evolution", "Community Driven", "Gaming Integration", "Future Growth"]) await expectHeading(tile, 3);
    const quote = main().locator("figure");
    await expect(quote.locator("blockquote").innerText()).resolves.not.toBe("");
    await expect(quote.locator("figcaption").innerText()).resolves.toContain(site.founderName);
    for (const section of ["The New Era of Participation", "AI: Partner, Not Threat"]) await expectHeading(section);
    // order: quote, then the essay
    const order = await main().evaluate((m) => {
      const all = [...m.querySelectorAll("blockquote, h3")].map((el) => el.tagName === "BLOCKQUOTE" ? "quote" : el.textContent);
      return all.filter((x) => x === "quote" || x === "The New Era of Participation" || x === "AI: Partner, Not Threat");
    });
    expect(order).toEqual(["quote", "The New Era of Participation", "AI: Partner, Not Threat"]);
  });

  it("has the Submit your ideas mail link (subject Ideas) and the schedule-a-meeting link in a new tab", async () => {
    await open("/innovation");
    await expectLink("Submit your ideas", `mailto:${site.contactEmail}?subject=Ideas`);
    await expectLink(/^schedule a meeting\./, site.meetingUrl, { newTab: true });
  });
});

describe("/ai-brands", () => {
  const FEATURES = [
    "Free Global Distribution",
    "AI-Powered Production Tools",
    "Transparent Royalty Management",
    "Automated Promotional Campaigns",
    "Metadata Integrity & Protection",
    "Comprehensive Artist Ecosystem",
    "AI-Powered Deliverables Assistance",
    "Automated Subtitle & Trailer Generation",
    "Global Distribution Network",
    "Real-time Financial Transparency (payouts through online payment providers)",
    "Free Integrated Promotion",
    "Performance Analytics",
    "Automated Content ID Protection",
    "Higher Ad Revenue Potential",
    "Secure Channel Growth",
    "Full Creator Control",
    "Transparent & Timely Payments",
    "Exclusive to Original Content",
    "Fully Branded Platform",
    "AI-Driven & Automated",
    "Zero Upfront Cost",
    "Complete Control & Transparency",
    "Artist Self-Management",
    "Global Distribution & Reach",
  ];

  it("shows four platform blocks, each with icon, name, statement, six features and a Visit link in a new tab", async () => {
    await open("/ai-brands");
    expect(await h1Text()).toEqual(["AI-Powered Platforms"]);
    const blocks = main().locator("section[id]").filter({ has: page.getByRole("link", { name: /^Visit / }) });
    expect(await blocks.count()).toBe(4);

    const seenFeatures: string[] = [];
    for (let i = 0; i < 4; i++) {
      const block = blocks.nth(i);
      const name = (await block.getByRole("heading", { level: 2 }).innerText()).trim();
      expect(name.length).toBeGreaterThan(3);
      expect(await block.locator("svg").first().getAttribute("aria-hidden")).toBe("true");
      expect((await block.locator(".prose-html p").innerText()).length).toBeGreaterThan(80);
      const features = await block.getByRole("heading", { level: 3 }).allInnerTexts();
      expect(features).toHaveLength(6);
      seenFeatures.push(...features);

      const visit = block.getByRole("link", { name: new RegExp(`^Visit ${name}`) });
      expect(await visit.count()).toBe(1);
      // the visible label is exactly "Visit " + name; the rest is the hidden new-tab notice
      expect((await visit.innerText()).replace(/\s*\(opens in a new tab\)\s*$/, "").trim()).toBe(`Visit ${name}`);
      expect(await visit.getAttribute("target")).toBe("_blank");
      expect(new URL((await visit.getAttribute("href"))!).protocol).toBe("https:");
    }
    expect(seenFeatures).toEqual(FEATURES);
  });

  it("ends with Seamless Integration: Unified Dashboard, Shared Analytics, AI Synergy", async () => {
    await open("/ai-brands");
    const region = main().getByRole("region", { name: "Seamless Integration" });
    expect(await region.getByRole("heading", { level: 3 }).allInnerTexts()).toEqual(["Unified Dashboard", "Shared Analytics", "AI Synergy"]);
  });
});

describe("/investors", () => {
  it("shows the brief with its subtitle and five cards of bullet lines with the spec's figures", async () => {
    await open("/investors");
    expect(await h1Text()).toEqual(["Investors"]);
    await expectHeading("Investor Brief", 2);
    await expect(main().innerText()).resolves.toContain("Shaping the Future of Music, Film, and Content Creation");
    const titles = ["The Opportunity", "Our Vision", `Why ${site.companyName}`, "Investment Strategy", "The Future"];
    expect(await main().getByRole("region", { name: "Investor Brief" }).getByRole("heading", { level: 3 }).allInnerTexts()).toEqual(titles);
    for (const title of titles) {
      const card = main().getByRole("article").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
      expect(await card.getByRole("listitem").count(), title).toBeGreaterThanOrEqual(3);
    }
    const text = await main().innerText();
    for (const figure of ["$29B", "$100–200B+", "$500K", "soon rising to $1M", "$150M–$250M", "monthly royalty statements", "weekly store notifications", "30 years"]) {
      expect(text, figure).toContain(figure);
    }
  });

  it("has the invitation-only Join block with a Schedule a Meeting button to the 30-minute booking link in a new tab", async () => {
    await open("/investors");
    const join = main().getByRole("region", { name: "Join the Future of Music" });
    await expect(join.innerText()).resolves.toContain("Invitation-Only");
    const button = join.getByRole("link", { name: /^Schedule a Meeting/ });
    expect(await button.getAttribute("href")).toBe(site.meetingUrl);
    expect(site.meetingUrl).toMatch(/30min/);
    expect(await button.getAttribute("target")).toBe("_blank");
    expect(await button.getAttribute("rel")).toContain("noopener");
  });
});

describe("accessibility and layout at phone and desktop widths", () => {
  for (const width of [1280, 390]) {
    for (const path of STORY_ROUTES) {
      it(`${path} at ${width} px: no axe violations, no horizontal scroll`, async () => {
        const p = await newPage(browser, { viewport: { width, height: width === 390 ? 844 : 900 } });
        try {
          await gotoHydrated(p, path);
          await expectNoAxeViolations(p);
          const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          expect(overflow).toBeLessThanOrEqual(0);
          if (process.env.SCREENSHOT_DIR) await screenshot(p, `story${path === "/" ? "-home" : path.replace(/\//g, "-")}-${width}`);
        } finally {
          await p.context().close();
        }
      });
    }
  }
});

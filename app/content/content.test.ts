import { describe, expect, it } from "vitest";
import { boardMembers, hasProfileLink, NO_PROFILE } from "./board";
import { editorial } from "./editorial";
import { homeEcosystem, homeHero, homeStats } from "./home";
import { founderQuote, innovationEssay, innovationPage, innovationTiles } from "./innovation";
import { investorBriefSections, investorKeyFigures, investorsPage } from "./investors";
import { guidingPrinciples, missionCards, missionPage, visionCards } from "./mission";
import { platforms, seamlessIntegration } from "./platforms";
import { site } from "./site";

const titles = (items: ReadonlyArray<{ title: string }>) => items.map((i) => i.title);

describe("home content (product-rules §2 Home, §9)", () => {
  it("has the hero, the two actions and the static stats", () => {
    expect(homeHero.title).toBe("Beat The Ordinary");
    expect(homeHero.primaryAction).toEqual({ label: "Browse Catalog", href: "/catalog" });
    expect(homeHero.secondaryAction).toEqual({ label: "Join / Distribute Your Music", href: "/contact" });
    expect(homeStats).toEqual([
      { label: "Albums in Catalog", value: "25,000+" },
      { label: "Hours of Music", value: "50,000+" },
      { label: "Countries Reached", value: "150+" },
    ]);
    expect(homeEcosystem.title).toBe("Our AI-Powered Ecosystem for Creators & Innovators");
    expect(homeEcosystem.action).toEqual({ label: "Explore All Platforms", href: "/ai-brands" });
  });

  it("founder's letter announces the initiative, gives an example.com address and cites 30 years", () => {
    expect(homeHero.founderLetterHtml).toContain("Creative Tokenization for You");
    expect(homeHero.founderLetterHtml).toContain("30 years in the music business");
    expect(homeHero.founderLetterHtml).toMatch(/mailto:[a-z.]+@example\.com/);
  });
});

describe("mission content (product-rules §2 Mission & Vision)", () => {
  it("has the three mission cards, three vision cards and four principles, each with body copy", () => {
    expect(missionPage.title).toBe("Our Mission & Vision");
    expect(titles(missionCards)).toEqual([
      "Empowering Human Creativity",
      "Pioneering Responsible Innovation",
      "Building an Honest Ecosystem",
    ]);
    expect(titles(visionCards)).toEqual([
      "Music as an Immersive Experience",
      "A Global Stage for Every Artist",
      "Fearless Innovation & Growth",
    ]);
    expect(titles(guidingPrinciples)).toEqual([
      "Artist-Centric",
      "Innovation & Adaptability",
      "Transparency & Integrity",
      "Empowerment & Education",
    ]);
    for (const card of [...missionCards, ...visionCards, ...guidingPrinciples]) {
      expect(card.body.length, card.title).toBeGreaterThan(40);
    }
  });
});

describe("board content (product-rules §3 Board member, §9: 6 members)", () => {
  it("has six complete members with unique names and portraits under /assets/board/", () => {
    expect(boardMembers).toHaveLength(6);
    expect(new Set(boardMembers.map((m) => m.name)).size).toBe(6);
    for (const member of boardMembers) {
      expect(member.role, member.name).not.toBe("");
      expect(member.bio.length, member.name).toBeGreaterThan(60);
      expect(member.image, member.name).toMatch(/^\/assets\/board\/[a-z-]+\.svg$/);
      expect(member.skills.length, member.name).toBeGreaterThanOrEqual(2);
      expect(member.social.email, member.name).toMatch(/@example\.com$/);
    }
  });

  it("keeps at least one member without a public profile, to exercise the disabled link", () => {
    expect(boardMembers.some((m) => m.social.linkedin === NO_PROFILE)).toBe(true);
    expect(boardMembers.some((m) => hasProfileLink(m.social.linkedin))).toBe(true);
  });

  it("hasProfileLink treats '#' and blanks as no profile", () => {
    expect(hasProfileLink("#")).toBe(false);
    expect(hasProfileLink("")).toBe(false);
    expect(hasProfileLink("  ")).toBe(false);
    expect(hasProfileLink("https://www.linkedin.com/in/someone")).toBe(true);
  });
});

describe("platform content (product-rules §2 AI-Powered Platforms, §9: 4 platforms)", () => {
  it("lists the spec's 24 feature titles verbatim, 6 per platform, in order", () => {
    expect(platforms.map((p) => p.features.map((f) => f.title))).toEqual([
      [
        "Free Global Distribution",
        "AI-Powered Production Tools",
        "Transparent Royalty Management",
        "Automated Promotional Campaigns",
        "Metadata Integrity & Protection",
        "Comprehensive Artist Ecosystem",
      ],
      [
        "AI-Powered Deliverables Assistance",
        "Automated Subtitle & Trailer Generation",
        "Global Distribution Network",
        "Real-time Financial Transparency (payouts through online payment providers)",
        "Free Integrated Promotion",
        "Performance Analytics",
      ],
      [
        "Automated Content ID Protection",
        "Higher Ad Revenue Potential",
        "Secure Channel Growth",
        "Full Creator Control",
        "Transparent & Timely Payments",
        "Exclusive to Original Content",
      ],
      [
        "Fully Branded Platform",
        "AI-Driven & Automated",
        "Zero Upfront Cost",
        "Complete Control & Transparency",
        "Artist Self-Management",
        "Global Distribution & Reach",
      ],
    ]);
  });

  it("gives every platform a name, an example.com website, a hex colour, a statement and described features", () => {
    expect(new Set(platforms.map((p) => p.name)).size).toBe(4);
    for (const p of platforms) {
      expect(new URL(p.website).hostname, p.name).toMatch(/(^|\.)example\.com$/);
      expect(p.color, p.name).toMatch(/^#[0-9a-f]{6}$/i);
      expect(p.statement, p.name).toMatch(/^<p>.+<\/p>$/s);
      expect(p.logo, p.name).toMatch(/^\/assets\/platforms\/.+\.svg$/);
      for (const f of p.features) expect(f.description.length, f.title).toBeGreaterThan(20);
    }
  });

  it("ends with the three Seamless Integration cards", () => {
    expect(seamlessIntegration.title).toBe("Seamless Integration");
    expect(titles(seamlessIntegration.cards)).toEqual(["Unified Dashboard", "Shared Analytics", "AI Synergy"]);
  });
});

describe("investor content (product-rules §2 Investors, §3 InvestorBriefSection, §9 figures)", () => {
  it("has the five brief sections in order, with the company's name in the third", () => {
    expect(titles(investorBriefSections)).toEqual([
      "The Opportunity",
      "Our Vision",
      `Why ${site.companyName}`,
      "Investment Strategy",
      "The Future",
    ]);
    for (const section of investorBriefSections) expect(section.content.length, section.title).toBeGreaterThanOrEqual(3);
  });

  it("uses the spec's editorial figures", () => {
    const text = [...investorBriefSections.flatMap((s) => s.content), ...investorKeyFigures.flatMap((f) => [f.value, f.label])].join("\n");
    for (const figure of ["$29B", "$100–200B+", "$500K", "soon rising to $1M", "$150M–$250M", "monthly royalty statements", "weekly store notifications", "30 years"]) {
      expect(text, figure).toContain(figure);
    }
    expect(investorsPage.join).toMatchObject({ title: "Join the Future of Music", badge: "Invitation-Only", action: "Schedule a Meeting", meetingMinutes: 30 });
  });
});

describe("innovation content (product-rules §2 Innovation)", () => {
  it("has the four tiles, the quote and the two essay sections", () => {
    expect(innovationPage).toMatchObject({ title: "Innovation", subtitle: "Where Technology Meets Creativity" });
    expect(titles(innovationTiles)).toEqual(["Music Evolution", "Community Driven", "Gaming Integration", "Future Growth"]);
    expect(founderQuote.author).toBe(site.founderName);
    expect(innovationEssay.map((s) => s.heading)).toEqual(["The New Era of Participation", "AI: Partner, Not Threat"]);
    expect(innovationPage.callToAction).toMatchObject({ ideasLabel: "Submit your ideas", ideasSubject: "Ideas", meetingLabel: "schedule a meeting." });
  });
});

describe("editorial blocks (product-rules §2 Home, editorial HTML blocks)", () => {
  it("has all eleven blocks, each with a title and non-empty HTML", () => {
    expect(Object.keys(editorial).sort()).toEqual(
      [
        "catalogIntro",
        "founderWelcome",
        "missionAndVision",
        "board",
        "musicDistribution",
        "filmDistribution",
        "contentManagementNetwork",
        "whiteLabel",
        "investors",
        "podcasts",
        "innovationLeadership",
      ].sort(),
    );
    for (const [key, block] of Object.entries(editorial)) {
      expect(block.title, key).not.toBe("");
      expect(block.html, key).toMatch(/^<p>/);
    }
  });

  it("says what the spec names: board by invitation with the contact e-mail, CMS apply link, sections", () => {
    expect(editorial.board.html).toMatch(/mainly by invitation/);
    expect(editorial.board.html).toContain(`mailto:${site.contactEmail}`);
    expect(editorial.contentManagementNetwork.html).toContain(`href="${editorial.contentManagementNetwork.applyUrl}"`);
    expect(editorial.contentManagementNetwork.html).toContain('target="_blank"');
    for (const heading of ["Music Distribution", "Film Distribution", "Content-Management Network", "White Label", "The Vision"]) {
      expect(editorial.missionAndVision.html).toContain(`<h3>${heading}</h3>`);
    }
    expect(editorial.whiteLabel.html).toContain("<h3>Music</h3>");
    expect(editorial.whiteLabel.html).toContain("<h3>Film</h3>");
  });

  it("trusted HTML contains no script, inline handlers or javascript: URLs", () => {
    const all = [homeHero.founderLetterHtml, ...platforms.map((p) => p.statement), ...Object.values(editorial).map((b) => b.html)];
    for (const html of all) {
      expect(html).not.toMatch(/<script|\son\w+=|javascript:/i);
    }
  });
});

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { podcastShows } from "./podcasts";
import { filmPartners, findPartnerDirectory, musicPartners, partnerCategories, partnerSlug, type Partner } from "./partners";
import sharp from "sharp";
import { logoSvg, PNG_HEIGHT, PNG_WIDTH, SPRITE, spritesOf, svgSourceOf } from "../../commands/generate-partner-logos.ts";
import { logoCellsOf } from "./partner-logo-sprites";
import { featuredTokenizationPartner, findWeb3Topic, web3Topics } from "./web3";

const publicDir = path.resolve(import.meta.dirname, "../../public");
const existsInPublic = (urlPath: string) => fs.existsSync(path.join(publicDir, urlPath));
const HEX = /^#[0-9a-f]{6}$/i;

describe("podcast shows (product-rules §3 PodcastShow, §9)", () => {
  it("has 3 shows, each with two hex colours, https links and a logo under /assets/podcasts/ that exists", () => {
    expect(podcastShows).toHaveLength(3);
    for (const show of podcastShows) {
      expect(show.title.length).toBeGreaterThan(2);
      expect(show.description.length).toBeGreaterThan(40);
      expect(show.color1).toMatch(HEX);
      expect(show.color2).toMatch(HEX);
      expect(show.color1).not.toBe(show.color2);
      expect(new URL(show.bookingLink).protocol).toBe("https:");
      expect(new URL(show.playlistLink).protocol).toBe("https:");
      expect(show.logo.startsWith("/assets/podcasts/")).toBe(true);
      expect(existsInPublic(show.logo), show.logo).toBe(true);
    }
    expect(new Set(podcastShows.map((s) => s.bookingLink)).size).toBe(3);
  });
});

function expectWellFormedDirectory(partners: Partner[], category: "music" | "film") {
  const names = partners.map((p) => p.name.toLowerCase());
  expect(new Set(names).size, "unique names").toBe(names.length);
  expect(new Set(partners.map((p) => p.slug)).size, "unique slugs").toBe(partners.length);
  for (const partner of partners) {
    expect(partner.logo).toBe(`/assets/dsps/${category}/${partner.slug}.png`);
    expect(existsInPublic(partner.logo), partner.logo).toBe(true);
    expect(existsInPublic(svgSourceOf(partner.logo)), svgSourceOf(partner.logo)).toBe(true);
    expect(new URL(partner.url).protocol, partner.name).toBe("https:");
  }
}

describe("partner directories (product-rules §3 Partner, §9 counts)", () => {
  it("lists about 90 music partners with unique names and logos on disk", () => {
    expect(musicPartners.length).toBeGreaterThanOrEqual(85);
    expect(musicPartners.length).toBeLessThanOrEqual(95);
    expectWellFormedDirectory(musicPartners, "music");
  });

  it("lists about 160 film partners with unique names and logos on disk", () => {
    expect(filmPartners.length).toBeGreaterThanOrEqual(150);
    expect(filmPartners.length).toBeLessThanOrEqual(170);
    expectWellFormedDirectory(filmPartners, "film");
  });

  it("keeps no logo or sprite on disk that no partner uses", () => {
    for (const [category, partners] of [["music", musicPartners], ["film", filmPartners]] as const) {
      const onDisk = fs.readdirSync(path.join(publicDir, "assets/dsps", category)).sort();
      expect(onDisk).toEqual(partners.flatMap((p) => [`${p.slug}.png`, `${p.slug}.svg`]).sort());
    }
    const sprites = [...logoCellsOf("music", musicPartners), ...logoCellsOf("film", filmPartners)].map((c) => path.basename(c!.src));
    expect(fs.readdirSync(path.join(publicDir, "assets/dsps")).sort()).toEqual(["film", "music", ...new Set(sprites)].sort());
  });

  it("has committed logos that match the generator (run commands/generate-partner-logos.ts)", () => {
    for (const partners of [musicPartners, filmPartners]) {
      partners.forEach((partner, index) => {
        const svg = fs.readFileSync(path.join(publicDir, svgSourceOf(partner.logo)), "utf8");
        expect(svg, partner.logo).toBe(logoSvg(partner, index));
        expect(svg.length).toBeLessThan(1024);
        expect(svg).toContain(`aria-label="${partner.name.replace(/&/g, "&amp;")}"`);
        // ADR 0150: the PNG rendered from it (not compared byte for byte: the rendering depends
        // on the machine's fonts), a small file of the generator's size
        const png = fs.readFileSync(path.join(publicDir, partner.logo));
        expect(png.subarray(1, 4).toString("latin1"), partner.logo).toBe("PNG");
        expect([png.readUInt32BE(16), png.readUInt32BE(20)], partner.logo).toEqual([PNG_WIDTH, PNG_HEIGHT]);
        expect(png.length, partner.logo).toBeLessThan(16 * 1024);
      });
    }
  });

  it("has current sprites of each directory's logos, every partner in its own cell (ADR 0150, amended)", async () => {
    for (const [category, partners] of [["music", musicPartners], ["film", filmPartners]] as const) {
      const cells = logoCellsOf(category, partners);
      // named by what they are drawn from: a changed list or logo needs the generator run again
      const sprites = spritesOf(category, partners.map((p, i) => logoSvg(p, i)));
      expect([...new Set(cells.map((c) => c?.src))], category).toEqual(sprites.map((s) => s.src));
      // in the directory's order, a dozen to a sprite, six to a row: tile i shows partner i
      cells.forEach((cell, i) => {
        const j = i % SPRITE.perSprite;
        expect(cell, partners[i].name).toEqual({
          src: sprites[Math.floor(i / SPRITE.perSprite)].src,
          columns: SPRITE.columns,
          rows: sprites[Math.floor(i / SPRITE.perSprite)].rows,
          column: j % SPRITE.columns,
          row: Math.floor(j / SPRITE.columns),
        });
      });
      let spriteBytes = 0;
      for (const sprite of sprites) {
        const file = path.join(publicDir, sprite.src);
        const meta = await sharp(file).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(["webp", SPRITE.columns * SPRITE.cellWidth, sprite.rows * SPRITE.cellHeight]);
        spriteBytes += fs.statSync(file).size;
      }
      // lighter than the directory's PNGs together
      const pngBytes = partners.reduce((sum, p) => sum + fs.statSync(path.join(publicDir, p.logo)).size, 0);
      expect(spriteBytes).toBeLessThan(pngBytes * 0.8);
    }
  });

  it("shows a partner the sprites do not hold from its own logo file, not from another's cell", () => {
    const newcomer: Partner = { name: "Newcomer", slug: "newcomer", logo: "/assets/dsps/film/newcomer.png", url: "https://newcomer.example" };
    const [second, none, first] = logoCellsOf("film", [filmPartners[1], newcomer, filmPartners[0]]);
    expect([second?.column, none, first?.column]).toEqual([1, null, 0]);
    expect(logoCellsOf("youtube", [newcomer])).toEqual([null]);
  });

  it("has 3 categories: music and film available, youtube coming soon with no partners", () => {
    expect(partnerCategories.map((c) => [c.id, c.link, c.available])).toEqual([
      ["music", "/partners/music", true],
      ["film", "/partners/film", true],
      ["youtube", "/partners/youtube", false],
    ]);
    expect(partnerCategories.map((c) => c.title).slice(0, 2)).toEqual(["Music DSPs", "Film DSPs"]);
    expect(findPartnerDirectory("youtube")?.partners).toEqual([]);
  });

  it("finds no directory for unknown categories, including inherited object keys", () => {
    for (const name of ["unknown", "constructor", "__proto__", "toString", "Music"]) {
      expect(findPartnerDirectory(name)).toBeUndefined();
    }
  });

  it("turns names into file-safe slugs", () => {
    expect(partnerSlug("Disney+")).toBe("disney-plus");
    expect(partnerSlug("Claro música")).toBe("claro-musica");
    expect(partnerSlug("RTÉ Player")).toBe("rte-player");
  });
});

describe("web3 topics (product-rules §3 Web3Topic, §9)", () => {
  it("has blockchain (HTML), tokenization (Coming Soon) and metadata (Coming Soon, unavailable)", () => {
    expect(web3Topics.map((t) => [t.id, t.title, t.available])).toEqual([
      ["blockchain", "Blockchain", true],
      ["tokenization", "Tokenization", true],
      ["metadata", "Metadata", false],
    ]);
    expect(findWeb3Topic("blockchain")!.description).toMatch(/^<p>/);
    expect(findWeb3Topic("tokenization")!.description).toBe("Coming Soon");
    expect(findWeb3Topic("metadata")!.description).toBe("Coming Soon");
    expect(findWeb3Topic("whatever")).toBeUndefined();
  });

  it("keeps the trusted blockchain HTML free of scripts and event handlers (ADR 0020)", () => {
    for (const topic of web3Topics) {
      expect(topic.description).not.toMatch(/<script|\son\w+\s*=|javascript:/i);
    }
  });

  it("features a tokenization partner whose logo is our own file", () => {
    expect(existsInPublic(featuredTokenizationPartner.logo)).toBe(true);
    expect(new URL(featuredTokenizationPartner.url).protocol).toBe("https:");
  });
});

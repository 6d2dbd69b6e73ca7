/**
 * Writes one small SVG wordmark per partner to public/assets/dsps/{music|film}/{slug}.svg
 * (ADR 0030), and the PNG rendered from it, {slug}.png (ADR 0150: each SVG <img> is a document
 * Chromium parses, styles and lays out on the main thread; a PNG is decoded off it). It also
 * writes one WebP sprite of each directory's logos, public/assets/dsps/{music|film}-{hash}.webp,
 * and its layout, app/content/partner-logo-sprites.json, which the directory pages show the logos
 * from (ADR 0150, amended: one image arrives once and costs one frame, where dozens of PNGs cost
 * a frame each). The files are committed; run this again after editing app/content/partners.ts:
 *
 *   node_modules/.bin/node commands/generate-partner-logos.ts [--check]
 *
 * --check writes nothing and exits 1 when a logo is missing or out of date (a PNG is written
 * again whenever its SVG is; it is not compared byte for byte, since the rendering depends on
 * the machine's fonts).
 * Colours are spread around the hue circle by the golden angle, so neighbours in the grid
 * never look alike; the text stays white on a dark enough background for contrast.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import sharp from "sharp";
import path from "node:path";
import { filmPartners, musicPartners, type Partner } from "../app/content/partners.ts";
import { escapeXml } from "./lib/escape-xml.ts";
import { helpFromHeader } from "./lib/usage.ts";

helpFromHeader(import.meta.filename);

const root = path.resolve(import.meta.dirname, "..");
const WIDTH = 200;
const HEIGHT = 100;
const PADDING = 14;
/** Average advance of a bold sans-serif glyph, in ems; good enough to size a wordmark. */
const GLYPH_EM = 0.62;
const GOLDEN_ANGLE = 137.508;
/**
 * The PNG's size: the tiles are at most ~200 CSS px wide (170–190 px at 390 and 1280 px), so
 * 480 px wide is sharp up to a device pixel ratio of about 2.5–2.8. A 64-colour palette keeps
 * the gradient smooth at 5–10 KB a file.
 */
export const PNG_WIDTH = 480;
export const PNG_HEIGHT = 240;

/**
 * The sprites of a directory's logos (ADR 0150, amended): `perSprite` logos each, in the
 * directory's order, in cells of 400×200 (sharp at a device pixel ratio of 2 on tiles up to
 * 200 CSS px wide: 170–175 px at 390 and 1280 px), six to a row. The tiles a phone loads at
 * first (about 40) arrive in a few images, and no image is large: Lighthouse's simulator counts
 * an image that finished before the largest paint as needed for it, at 1.6 Mbit/s, and one sprite
 * of all 162 film logos (430 KB) moved the simulated LCP from about 1.9 s to 3.9 s.
 * A lossy WebP: a dozen gradients need more than a palette's 256 colours.
 */
export const SPRITE = { columns: 6, perSprite: 12, cellWidth: 400, cellHeight: 200, quality: 80 } as const;
const SPRITES_FILE = path.join(root, "app/content/partner-logo-sprites.json");

/** What app/content/partner-logo-sprites.json holds (read by app/content/partner-logo-sprites.ts). */
export interface SpriteManifest {
  note: string;
  columns: number;
  perSprite: number;
  music: { slugs: string[]; sprites: Array<{ src: string; rows: number }> };
  film: { slugs: string[]; sprites: Array<{ src: string; rows: number }> };
}

/**
 * A sprite's URL, named by a hash of what it is drawn from (its SVGs and the layout), so a
 * changed list gets new URLs: the service worker serves /assets/* cache-first, and a stale
 * sprite would show one partner's name on another's tile. Not a hash of the file's bytes, which
 * depend on the machine's fonts, so `--check` agrees on every machine.
 */
export function spriteSrc(category: "music" | "film", svgs: string[]): string {
  const hash = crypto.createHash("sha256").update(JSON.stringify({ SPRITE, svgs })).digest("hex").slice(0, 10);
  return `/assets/dsps/${category}-${hash}.webp`;
}

/** The directory's logos in sprites of SPRITE.perSprite: each sprite's URL, rows and SVGs. */
export function spritesOf(category: "music" | "film", svgs: string[]) {
  const sprites: Array<{ src: string; rows: number; svgs: string[] }> = [];
  for (let start = 0; start < svgs.length; start += SPRITE.perSprite) {
    const part = svgs.slice(start, start + SPRITE.perSprite);
    sprites.push({ src: spriteSrc(category, part), rows: Math.ceil(part.length / SPRITE.columns), svgs: part });
  }
  return sprites;
}

/** Draws logos' SVGs into one sprite, in order, SPRITE.columns to a row. */
export async function renderSprite(svgs: string[]): Promise<Buffer> {
  const { columns, cellWidth, cellHeight } = SPRITE;
  const cells = await Promise.all(
    svgs.map(async (svg, i) => ({
      input: await sharp(Buffer.from(svg), { density: (72 * cellWidth) / WIDTH }).resize(cellWidth, cellHeight).png().toBuffer(),
      left: (i % columns) * cellWidth,
      top: Math.floor(i / columns) * cellHeight,
    })),
  );
  // transparent, as the PNGs are: the corners outside each logo's rounded rectangle
  const canvas = {
    width: columns * cellWidth,
    height: Math.ceil(svgs.length / columns) * cellHeight,
    channels: 4 as const,
    background: { r: 0, g: 0, b: 0, alpha: 0 },
  };
  return sharp({ create: canvas }).composite(cells).webp({ quality: SPRITE.quality, effort: 6 }).toBuffer();
}

/** The SVG a PNG logo is rendered from (same folder, same slug). */
export function svgSourceOf(logo: string): string {
  return logo.replace(/\.png$/, ".svg");
}

/** Renders a logo SVG to the PNG the page shows. */
export function renderLogoPng(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg), { density: (72 * PNG_WIDTH) / WIDTH })
    .resize(PNG_WIDTH, PNG_HEIGHT)
    .png({ palette: true, colours: 64, compressionLevel: 9, effort: 10 })
    .toBuffer();
}

/** Splits a long multi-word name into two balanced lines. */
export function wordmarkLines(name: string): string[] {
  const words = name.split(" ");
  if (name.length <= 13 || words.length < 2) return [name];
  let best = [name];
  let bestWidth = Infinity;
  for (let i = 1; i < words.length; i++) {
    const lines = [words.slice(0, i).join(" "), words.slice(i).join(" ")];
    const width = Math.max(...lines.map((l) => l.length));
    if (width < bestWidth) [best, bestWidth] = [lines, width];
  }
  return best;
}

/** hsl → #rrggbb, because SVG renderers outside browsers may not read CSS Color 4. */
function hslHex(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const v = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255).toString(16).padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

export function logoSvg(partner: Partner, index: number): string {
  const hue = Math.round((index * GOLDEN_ANGLE + (partner.logo.includes("/film/") ? 200 : 12)) % 360);
  const from = hslHex(hue, 62, 30);
  const to = hslHex((hue + 34) % 360, 70, 22);
  const lines = wordmarkLines(partner.name);
  const longest = Math.max(...lines.map((l) => l.length));
  const fontSize = Math.min(lines.length > 1 ? 22 : 28, Math.floor((WIDTH - 2 * PADDING) / (longest * GLYPH_EM)));
  const lineGap = fontSize * 1.1;
  const firstBaseline = HEIGHT / 2 - ((lines.length - 1) * lineGap) / 2 + fontSize * 0.35;
  const text = lines
    .map((line, i) => `<tspan x="100" y="${(firstBaseline + i * lineGap).toFixed(1)}">${escapeXml(line)}</tspan>`)
    .join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeXml(partner.name)}">` +
    `<defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
    `<rect width="${WIDTH}" height="${HEIGHT}" rx="14" fill="url(#g)"/>` +
    `<circle cx="178" cy="18" r="34" fill="#fff" fill-opacity=".07"/>` +
    `<text font-family="Inter,Segoe UI,Helvetica,Arial,sans-serif" font-weight="700" font-size="${fontSize}" fill="#fff" text-anchor="middle" letter-spacing="-.02em">${text}</text>` +
    `</svg>\n`
  );
}

async function main() {
  const check = process.argv.includes("--check");
  let stale = 0;
  const manifest: SpriteManifest = {
    note: "Written by commands/generate-partner-logos.ts (ADR 0150, amended); do not edit.",
    columns: SPRITE.columns,
    perSprite: SPRITE.perSprite,
    music: { slugs: [], sprites: [] },
    film: { slugs: [], sprites: [] },
  };
  for (const [category, partners] of [["music", musicPartners], ["film", filmPartners]] as const) {
    const svgs = partners.map((partner, index) => logoSvg(partner, index));
    const sprites = spritesOf(category, svgs);
    manifest[category] = { slugs: partners.map((p) => p.slug), sprites: sprites.map(({ src, rows }) => ({ src, rows })) };
    for (const sprite of sprites) {
      if (fs.existsSync(path.join(root, "public", sprite.src))) continue;
      stale++;
      if (check) console.error(`out of date: ${sprite.src}`);
      else fs.writeFileSync(path.join(root, "public", sprite.src), await renderSprite(sprite.svgs));
    }
    // Sprites of earlier lists.
    const current = new Set(sprites.map((s) => path.basename(s.src)));
    for (const file of fs.readdirSync(path.join(root, "public/assets/dsps"))) {
      if (!file.startsWith(`${category}-`) || current.has(file)) continue;
      stale++;
      if (check) console.error(`not in content: ${file}`);
      else fs.rmSync(path.join(root, "public/assets/dsps", file));
    }

    const dir = path.join(root, "public/assets/dsps", category);
    fs.mkdirSync(dir, { recursive: true });
    const wanted = new Set<string>();
    for (const [index, partner] of partners.entries()) {
      const png = path.join(root, "public", partner.logo);
      const file = path.join(root, "public", svgSourceOf(partner.logo));
      wanted.add(path.basename(file)).add(path.basename(png));
      const svg = svgs[index];
      const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null;
      if (current === svg && fs.existsSync(png)) continue;
      stale++;
      if (check) console.error(`out of date: ${partner.logo}`);
      else {
        fs.writeFileSync(file, svg);
        fs.writeFileSync(png, await renderLogoPng(svg));
      }
    }
    // Logos of partners that were removed from the content.
    for (const file of fs.readdirSync(dir)) {
      if (wanted.has(file)) continue;
      stale++;
      if (check) console.error(`not in content: ${category}/${file}`);
      else fs.rmSync(path.join(dir, file));
    }
  }
  const manifestJson = `${JSON.stringify(manifest, null, 2)}\n`;
  if (!fs.existsSync(SPRITES_FILE) || fs.readFileSync(SPRITES_FILE, "utf8") !== manifestJson) {
    stale++;
    if (check) console.error(`out of date: ${path.relative(root, SPRITES_FILE)}`);
    else fs.writeFileSync(SPRITES_FILE, manifestJson);
  }
  if (check && stale > 0) process.exit(1);
  console.log(check ? "partner logos are up to date" : `partner logos written (${stale} changed)`);
}

if (import.meta.main) await main();

/**
 * Writes one small SVG wordmark per partner to public/assets/dsps/{music|film}/{slug}.svg
 * (ADR 0030), and the PNG the directory page shows, {slug}.png, rendered from it (ADR 0150:
 * each SVG <img> is a document Chromium parses, styles and lays out on the main thread; a PNG is
 * decoded off it). The files are committed; run this again after editing app/content/partners.ts:
 *
 *   node_modules/.bin/node commands/generate-partner-logos.ts [--check]
 *
 * --check writes nothing and exits 1 when a logo is missing or out of date (a PNG is written
 * again whenever its SVG is; it is not compared byte for byte, since the rendering depends on
 * the machine's fonts).
 * Colours are spread around the hue circle by the golden angle, so neighbours in the grid
 * never look alike; the text stays white on a dark enough background for contrast.
 */
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
  for (const [category, partners] of [["music", musicPartners], ["film", filmPartners]] as const) {
    const dir = path.join(root, "public/assets/dsps", category);
    fs.mkdirSync(dir, { recursive: true });
    const wanted = new Set<string>();
    for (const [index, partner] of partners.entries()) {
      const png = path.join(root, "public", partner.logo);
      const file = path.join(root, "public", svgSourceOf(partner.logo));
      wanted.add(path.basename(file)).add(path.basename(png));
      const svg = logoSvg(partner, index);
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
  if (check && stale > 0) process.exit(1);
  console.log(check ? "partner logos are up to date" : `partner logos written (${stale} changed)`);
}

if (import.meta.main) await main();

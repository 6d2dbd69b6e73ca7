// Generates the committed raster brand assets in public/ from SVG, once, with sharp:
// the favicon.ico, the PWA icons, the Apple touch icon and the 1200×630 Open Graph image.
// Run: node_modules/.bin/node commands/generate-brand-assets.ts (only when the brand changes).
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { site } from "../app/content/site.ts";
import { escapeXml } from "./lib/escape-xml.ts";
import { helpFromHeader } from "./lib/usage.ts";

helpFromHeader(import.meta.filename);

const publicDir = path.resolve(import.meta.dirname, "../public");
const gradient = `<linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff8a5c"/><stop offset=".55" stop-color="#e23a7a"/><stop offset="1" stop-color="#8b5cf6"/></linearGradient>`;
const beat = `<path d="M5 17h5l2.5-7 4 13 3-9 1.8 3H27" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>`;

/** The mark on a full-bleed tile; `padding` keeps it inside the maskable safe zone. */
function iconSvg(size: number, padding: number, rounded: boolean): string {
  const inner = size - padding * 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
<defs>${gradient}</defs>
<rect width="${size}" height="${size}" rx="${rounded ? size * 0.28 : 0}" fill="url(#g)"/>
<g transform="translate(${padding} ${padding}) scale(${inner / 32})">${beat}</g></svg>`;
}

function ogSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<defs>${gradient}
<radialGradient id="a" cx="0.9" cy="0" r="0.7"><stop offset="0" stop-color="#8b5cf6" stop-opacity=".45"/><stop offset="1" stop-color="#8b5cf6" stop-opacity="0"/></radialGradient>
<radialGradient id="b" cx="0" cy="0.2" r="0.6"><stop offset="0" stop-color="#ff7a45" stop-opacity=".35"/><stop offset="1" stop-color="#ff7a45" stop-opacity="0"/></radialGradient>
<linearGradient id="t" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#ff8a5c"/><stop offset=".55" stop-color="#ff5c8d"/><stop offset="1" stop-color="#a78bfa"/></linearGradient>
</defs>
<rect width="1200" height="630" fill="#07070d"/>
<rect width="1200" height="630" fill="url(#a)"/>
<rect width="1200" height="630" fill="url(#b)"/>
<g transform="translate(96 110) scale(3)"><rect width="32" height="32" rx="9" fill="url(#g)"/>${beat}</g>
<text x="216" y="170" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="44" font-weight="700" fill="#f4f4f8">${escapeXml(site.companyName)}</text>
<text x="96" y="330" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="76" font-weight="700" fill="#f4f4f8" letter-spacing="-2">Distribution for independent</text>
<text x="96" y="420" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="76" font-weight="700" fill="url(#t)" letter-spacing="-2">music, film and creators.</text>
<text x="96" y="520" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="30" fill="#b4b4c8">Zero-cost distribution · AI tools · Sync licensing · Web3</text>
</svg>`;
}

async function png(svg: string, file: string, palette = true) {
  const out = path.join(publicDir, file);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette, quality: 90, effort: 10 }).toFile(out);
  console.log(`${file}: ${fs.statSync(out).size} bytes`);
}

/**
 * issue #41, ADR 0150 (amended, sixth session): the tab's icon as a raster. Chromium draws a linked
 * SVG favicon as a whole SVG document on the page's main thread after the first paint (twice),
 * which Lighthouse counted as blocking time; a small PNG decodes in microseconds. One .ico holds
 * the mark at the sizes browsers ask for a tab (16, 32 and 48 px: 16 CSS px at 1×, 2× and 3×),
 * each frame a PNG (every browser since 2012 reads PNG frames in an .ico); favicon.svg stays the
 * manifest's scalable icon.
 */
async function ico(file: string, sizes: number[]) {
  const frames = await Promise.all(sizes.map((size) => sharp(Buffer.from(iconSvg(size, 0, true))).png({ compressionLevel: 9, palette: false }).toBuffer()));
  const header = Buffer.alloc(6 + 16 * frames.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1: an icon
  header.writeUInt16LE(frames.length, 4);
  let offset = header.length;
  frames.forEach((frame, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(sizes[i]! % 256, entry); // width (0 means 256)
    header.writeUInt8(sizes[i]! % 256, entry + 1); // height
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(frame.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += frame.length;
  });
  const out = path.join(publicDir, file);
  fs.writeFileSync(out, Buffer.concat([header, ...frames]));
  console.log(`${file}: ${fs.statSync(out).size} bytes`);
}

await ico("favicon.ico", [16, 32, 48]);
await png(iconSvg(192, 24, true), "icons/icon-192.png");
await png(iconSvg(512, 64, true), "icons/icon-512.png");
// Maskable: full bleed, the mark inside the central 80 % safe zone.
await png(iconSvg(512, 110, false), "icons/icon-maskable-512.png");
await png(iconSvg(180, 22, false), "icons/apple-touch-icon.png");
await png(ogSvg(), "og-image.png");

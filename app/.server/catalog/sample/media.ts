import sharp from "sharp";
import { createPrng } from "./prng.ts";

/**
 * Sample artwork, synthesised at run time so nothing large lives in git: abstract gradients
 * (SVG rendered by sharp). The sample audio is tracks.ts, encoded by audio-worker.ts.
 */

type Shape = "portrait" | "landscape" | "square";
const SIZES: Record<Shape, [number, number]> = { square: [600, 600], portrait: [400, 600], landscape: [800, 450] };

export function artworkSvg(seed: number, shape: Shape = "square"): string {
  const r = createPrng(seed * 7919 + 17);
  const [w, h] = SIZES[shape];
  const hue = Math.floor(r.next() * 360);
  const hue2 = (hue + 40 + Math.floor(r.next() * 140)) % 360;
  const circles = Array.from({ length: 5 }, () => {
    const cx = Math.floor(r.next() * w);
    const cy = Math.floor(r.next() * h);
    const rad = Math.floor((0.12 + r.next() * 0.35) * Math.min(w, h));
    const hh = (hue + Math.floor(r.next() * 120)) % 360;
    return `<circle cx="${cx}" cy="${cy}" r="${rad}" fill="hsl(${hh},70%,${45 + Math.floor(r.next() * 25)}%)" fill-opacity="${(0.25 + r.next() * 0.4).toFixed(2)}"/>`;
  }).join("");
  const lines = Array.from({ length: 6 }, (_, i) => {
    const y = Math.floor(((i + 1) / 7) * h);
    return `<path d="M0 ${y} Q ${w / 2} ${y - 60 + Math.floor(r.next() * 120)} ${w} ${y}" stroke="white" stroke-opacity="0.12" stroke-width="3" fill="none"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="hsl(${hue},65%,28%)"/><stop offset="1" stop-color="hsl(${hue2},70%,18%)"/>
</linearGradient><radialGradient id="v" cx="0.5" cy="0.4" r="0.8"><stop offset="0.6" stop-color="black" stop-opacity="0"/><stop offset="1" stop-color="black" stop-opacity="0.45"/></radialGradient></defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>${circles}${lines}<rect width="${w}" height="${h}" fill="url(#v)"/></svg>`;
}

/** A WebP image of the given artwork. */
export function renderArtwork(seed: number, shape: Shape = "square"): Promise<Buffer> {
  return sharp(Buffer.from(artworkSvg(seed, shape))).webp({ quality: 78 }).toBuffer();
}

/**
 * Where each partner's logo is in its directory's sprites (ADR 0150, amended): WebPs of a dozen
 * logos each, written with their layout (partner-logo-sprites.json) by
 * commands/generate-partner-logos.ts. The directory pages cut every tile's logo from them, so
 * the logos a phone loads at first arrive in a few images and cost the page a few frames, not
 * one frame each (issue #41). Read by the directory's loader only, so the layout stays out of
 * the client's bundles.
 */
import manifest from "./partner-logo-sprites.json" with { type: "json" };
import type { Partner, PartnerCategoryId } from "./partners";

/** One partner's logo in a sprite: the sprite's URL and grid, and the partner's cell. */
export interface LogoCell {
  src: string;
  columns: number;
  rows: number;
  column: number;
  row: number;
}

/**
 * Each partner's cell, in the order given. A partner the sprites do not hold (the list was
 * edited and the generator not run again) gets `null` and is shown from its own PNG, so a tile
 * never shows another partner's logo.
 */
export function logoCellsOf(category: PartnerCategoryId, partners: Partner[]): (LogoCell | null)[] {
  const directory = category === "music" || category === "film" ? manifest[category] : null;
  return partners.map((partner) => {
    const i = directory ? directory.slugs.indexOf(partner.slug) : -1;
    const sprite = i < 0 ? undefined : directory?.sprites[Math.floor(i / manifest.perSprite)];
    if (!sprite) return null;
    const j = i % manifest.perSprite;
    return { src: sprite.src, columns: manifest.columns, rows: sprite.rows, column: j % manifest.columns, row: Math.floor(j / manifest.columns) };
  });
}

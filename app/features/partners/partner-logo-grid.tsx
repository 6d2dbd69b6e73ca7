import type { LogoCell } from "~/content/partner-logo-sprites";
import type { Partner } from "~/content/partners";

/** The logo tiles' size in CSS px: the generated logos' viewBox, 2:1 (ADR 0030). */
const TILE = { width: 200, height: 100 };

/**
 * product-rules §2 "Partner directory": each logo opens the partner's site in a new tab and shows
 * the partner's name in a tooltip on hover and on keyboard focus (`data-tooltip`, wired by
 * app/enhance/tooltip.ts: /partners/{category} is a document page, ADR 0083). The logo's alt
 * text is the name, so it is also the link's accessible name.
 *
 * Each logo is the partner's own `<img alt>`, cut from one of the directory's sprites (a dozen
 * logos each, ADR 0150 amended): the tiles of a sprite share one URL, so their logos arrive
 * together and are painted in one frame. Dozens of files arriving one by one each cost a frame,
 * and on a phone those frames were most of the page's blocking time (issue #41). The image is the
 * whole sprite, scaled so that one cell fills the tile, moved to the partner's cell and clipped by
 * the tile. A partner the sprites do not hold is shown from its own file.
 */
export function PartnerLogoGrid({
  partners,
  logoCells,
  label,
}: {
  partners: Partner[];
  logoCells: (LogoCell | null)[];
  label: string;
}) {
  return (
    <ul aria-label={label} className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 md:grid-cols-4 lg:grid-cols-5 xl:grid-cols-6">
      {partners.map((partner, i) => {
        const cell = logoCells[i];
        return (
          <li key={partner.slug}>
            <a
              href={partner.url}
              target="_blank"
              rel="noopener noreferrer"
              data-tooltip={partner.name}
              className="block rounded-[14px] ring-1 ring-white/10 transition-[transform,box-shadow] duration-150 hover:-translate-y-0.5 hover:shadow-[0_10px_28px_-12px_rgb(0_0_0/0.9)] hover:ring-white/30"
            >
              {cell ? (
                <span className="relative block aspect-[2/1] overflow-hidden rounded-[14px]">
                  <img
                    src={cell.src}
                    alt={partner.name}
                    // the sprite's own ratio, so its height follows its width with no layout shift
                    width={cell.columns * TILE.width}
                    height={cell.rows * TILE.height}
                    loading="lazy"
                    decoding="async"
                    className="absolute h-auto max-w-none"
                    // percentages of the tile: the sprite is `columns` tiles wide, and the partner's
                    // cell is `column` tiles to the right and `row` tiles down
                    style={{ width: `${cell.columns * 100}%`, left: `${-cell.column * 100}%`, top: `${-cell.row * 100}%` }}
                  />
                </span>
              ) : (
                <img
                  src={partner.logo}
                  alt={partner.name}
                  width={TILE.width}
                  height={TILE.height}
                  loading="lazy"
                  decoding="async"
                  className="aspect-[2/1] h-auto w-full rounded-[14px]"
                />
              )}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}

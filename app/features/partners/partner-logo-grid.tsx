import type { Partner } from "~/content/partners";

/**
 * product-rules §2 "Partner directory": each logo opens the partner's site in a new tab and shows
 * the partner's name in a tooltip on hover and on keyboard focus (`data-tooltip`, wired by
 * app/enhance/tooltip.ts: /partners/{category} is a document page, ADR 0083). The logo's alt
 * text is the name, so it is also the link's accessible name.
 */
export function PartnerLogoGrid({ partners, label }: { partners: Partner[]; label: string }) {
  return (
    <ul aria-label={label} className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 md:grid-cols-4 lg:grid-cols-5 xl:grid-cols-6">
      {partners.map((partner) => (
        <li key={partner.slug}>
          <a
            href={partner.url}
            target="_blank"
            rel="noopener noreferrer"
            data-tooltip={partner.name}
            className="block rounded-[14px] ring-1 ring-white/10 transition-[transform,box-shadow] duration-150 hover:-translate-y-0.5 hover:shadow-[0_10px_28px_-12px_rgb(0_0_0/0.9)] hover:ring-white/30"
          >
            <img
              src={partner.logo}
              alt={partner.name}
              width={200}
              height={100}
              loading="lazy"
              decoding="async"
              className="aspect-[2/1] h-auto w-full rounded-[14px]"
            />
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

import { ArrowUpRight } from "~/components/ui/icons/arrow-up-right";
import { Button } from "~/components/ui/button";
import type { featuredTokenizationPartner } from "~/content/web3";

type FeaturedPartner = typeof featuredTokenizationPartner;

/** product-rules §2 "Web3 overview": the featured asset-tokenization partner. */
export function FeaturedPartner({ partner }: { partner: FeaturedPartner }) {
  return (
    <section
      aria-labelledby="featured-partner-heading"
      className="card relative overflow-hidden p-6 sm:p-10"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-24 -right-24 size-80 rounded-full bg-[radial-gradient(circle,rgb(226_58_122/0.28),transparent_65%)]"
      />
      <div className="relative flex flex-col gap-6 sm:flex-row sm:items-center sm:gap-10">
        <img src={partner.logo} alt={partner.name} width={120} height={120} className="size-20 shrink-0 rounded-3xl sm:size-28" />
        <div className="flex-1">
          <p className="text-sm font-semibold tracking-wide text-ring uppercase">
            {partner.eyebrow} · {partner.name}
          </p>
          <h2 id="featured-partner-heading" className="section-title mt-2">
            {partner.heading}
          </h2>
          <p className="mt-4 max-w-3xl text-lg leading-relaxed text-muted">{partner.text}</p>
          <Button asChild className="mt-6">
            <a href={partner.url} target="_blank" rel="noopener noreferrer">
              {partner.linkLabel}
              <ArrowUpRight aria-hidden="true" />
              <span className="sr-only"> about {partner.name} (opens in a new tab)</span>
            </a>
          </Button>
        </div>
      </div>
    </section>
  );
}

import { ArrowUpRight } from "~/components/ui/icons/arrow-up-right";
import { Check } from "~/components/ui/icons/check";
import { platformsPage, type Platform } from "~/content/platforms";
import { ExternalLink } from "./external-link";
import { IconTile } from "./story-icon";
import { TrustedHtml } from "./trusted-html";

/** One sister platform (product-rules §2 "AI-Powered Platforms"): icon, name, statement, features, link. */
export function PlatformBlock({ platform }: { platform: Platform }) {
  const headingId = `platform-${platform.id}`;
  return (
    <section
      id={platform.id}
      aria-labelledby={headingId}
      className="card relative overflow-hidden p-5 sm:p-10"
      style={{ backgroundImage: `radial-gradient(60rem 24rem at 0% 0%, ${platform.color}26, transparent 60%)` }}
    >
      <div className="grid gap-8 lg:grid-cols-[minmax(0,0.9fr)_minmax(0,1.1fr)] lg:gap-14">
        <div className="flex flex-col">
          <IconTile name={platform.icon} color={platform.color} className="size-14 rounded-2xl" />
          <h2 id={headingId} className="section-title mt-6">
            {platform.name}
          </h2>
          <TrustedHtml html={platform.statement} className="mt-2 leading-relaxed text-[#dcdce8] sm:text-lg [&_strong]:text-fg" />
          <div className="mt-6 lg:mt-auto lg:pt-8">
            <ExternalLink href={platform.website} className="btn-secondary">
              {platformsPage.visitPrefix}
              {platform.name}
              <ArrowUpRight aria-hidden="true" className="size-4" />
            </ExternalLink>
          </div>
        </div>
        <ul className="grid gap-2.5 sm:grid-cols-2 sm:gap-3" aria-label={`${platform.name} features`}>
          {platform.features.map((feature) => (
            <li key={feature.title} className="rounded-2xl border border-white/8 bg-bg/50 p-4 sm:p-5">
              <h3 className="flex items-start gap-2 font-semibold">
                <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0" style={{ color: platform.color }} strokeWidth={3} />
                <span>{feature.title}</span>
              </h3>
              <p className="mt-1.5 pl-6 text-sm leading-relaxed text-muted">{feature.description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

import { ArrowRight } from "~/components/ui/icons/arrow-right";
import { useRouteLoaderData } from "react-router";
import { Link } from "~/components/ui/link";
import type { Route } from "./+types/home";
import { JsonLd, organizationJsonLd } from "~/components/seo/json-ld";
import { homeEcosystem, homeHero, homeStats } from "~/content/home";
import { platforms } from "~/content/platforms";
import { site } from "~/content/site";
import { services } from "~/.server/context";
import { FeaturedAlbums } from "~/features/catalog/featured-albums";
import { IconTile } from "~/features/story/story-icon";
import { TrustedHtml } from "~/features/story/trusted-html";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: `${site.companyName} — Beat The Ordinary`,
      description:
        "Free global distribution and AI tools for independent music artists, filmmakers and creators. Browse our catalog of 25,000+ albums reaching 150+ countries.",
      path: "/",
    },
    matches,
  );

/** product-rules §2 Home: up to 6 featured albums, from the catalog index (one small list, not the catalog). */
export function loader({ context }: Route.LoaderArgs) {
  return { featuredAlbums: services(context).catalogIndex.featuredAlbums(6) };
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  // SITE_URL comes from the root loader, so the JSON-LD names the public origin.
  const siteUrl = useRouteLoaderData<{ siteUrl: string }>("root")?.siteUrl ?? "";
  return (
    <>
      <JsonLd data={organizationJsonLd(siteUrl)} />
      <section aria-labelledby="hero-title" className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-40 left-1/2 -z-10 h-[36rem] w-[60rem] -translate-x-1/2 rounded-full bg-[radial-gradient(closest-side,rgb(255_122_69/0.22),rgb(226_58_122/0.12)_55%,transparent)] blur-2xl"
        />
        <div className="mx-auto grid max-w-6xl gap-10 px-5 pt-14 pb-12 sm:px-8 sm:pt-20 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.05fr)] lg:gap-14 lg:pb-16">
          <div className="flex flex-col justify-center lg:sticky lg:top-[calc(var(--header-height)+2rem)] lg:self-start">
            <p className="mb-5 text-xs font-semibold tracking-[0.2em] text-[#ffb38f] uppercase">{homeHero.eyebrow}</p>
            <h1 id="hero-title" className="text-[clamp(3rem,9vw,5.75rem)] leading-[0.95] font-extrabold tracking-[-0.04em] text-balance">
              <span className="text-gradient">{homeHero.title}</span>
            </h1>
            <p className="mt-6 max-w-md text-lg text-pretty text-muted">
              Zero-cost distribution, AI production tools and honest royalties — for artists, filmmakers and creators who
              would rather own their future than sign it away.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to={homeHero.primaryAction.href} className="btn-primary" prefetch="intent">
                {homeHero.primaryAction.label}
                <ArrowRight aria-hidden="true" className="size-4" />
              </Link>
              <Link to={homeHero.secondaryAction.href} className="btn-secondary" prefetch="intent">
                {homeHero.secondaryAction.label}
              </Link>
            </div>
          </div>

          <article
            aria-labelledby="founder-letter-title"
            className="card relative p-6 shadow-[0_30px_80px_-40px_rgb(226_58_122/0.55)] sm:p-9"
          >
            <h2 id="founder-letter-title" className="text-xs font-semibold tracking-[0.2em] text-[#ffb38f] uppercase">
              A letter from our founder
            </h2>
            <TrustedHtml html={homeHero.founderLetterHtml} className="mt-3 text-[1.0625rem] leading-relaxed text-[#dcdce8] [&_strong]:text-fg" />
          </article>
        </div>
      </section>

      <section aria-label={`${site.companyName} in numbers`} className="mx-auto max-w-6xl px-5 sm:px-8">
        <dl className="grid grid-cols-3 overflow-hidden rounded-3xl border border-border bg-[linear-gradient(120deg,rgb(255_122_69/0.10),rgb(139_92_246/0.10))]">
          {homeStats.map((stat, i) => (
            <div
              key={stat.label}
              className={`flex flex-col-reverse items-center justify-end gap-1 px-2 py-6 text-center sm:px-6 sm:py-9 ${i > 0 ? "border-l border-border" : ""}`}
            >
              <dt className="text-xs font-medium text-balance text-muted sm:text-sm sm:tracking-wide">{stat.label}</dt>
              <dd className="text-[1.4rem] leading-tight font-extrabold tracking-tight tabular-nums sm:text-5xl">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      {/* product-rules §2 Home / §9: up to 6 featured albums (catalog team). */}
      <FeaturedAlbums albums={loaderData.featuredAlbums} />

      <section aria-labelledby="ecosystem-title" className="mx-auto max-w-6xl px-5 py-16 sm:px-8 sm:py-24">
        <div className="mx-auto max-w-3xl text-center">
          <h2 id="ecosystem-title" className="section-title text-balance">
            {homeEcosystem.title}
          </h2>
          <p className="mt-4 text-lg text-pretty text-muted">{homeEcosystem.text}</p>
        </div>
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {platforms.map((platform) => (
            <li key={platform.id} className="card flex items-start gap-4 p-5 sm:flex-col sm:p-6">
              <IconTile name={platform.icon} color={platform.color} />
              <div>
                <h3 className="text-lg font-semibold">{platform.name}</h3>
                <p className="mt-1 text-sm text-muted">{platform.tagline}</p>
              </div>
            </li>
          ))}
        </ul>
        <div className="mt-10 flex justify-center">
          <Link to={homeEcosystem.action.href} className="btn-primary" prefetch="intent">
            {homeEcosystem.action.label}
            <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </div>
      </section>
    </>
  );
}

import type { Route } from "./+types/ai-brands";
import { platforms, platformsPage, seamlessIntegration } from "~/content/platforms";
import { PageHeader, StorySection } from "~/features/story/page-header";
import { PlatformBlock } from "~/features/story/platform-block";
import { IconTile } from "~/features/story/story-icon";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: "AI-Powered Platforms",
      description:
        "Four sister platforms for creators: free AI music distribution, AI film distribution, a certified content-management network and white-label distribution for labels.",
      path: "/ai-brands",
    },
    matches,
  );

export default function AiBrandsPage() {
  return (
    <>
      <PageHeader eyebrow="Our brands" title={platformsPage.title} subtitle={platformsPage.subtitle}>
        <nav aria-label="Platforms on this page" className="mt-8 flex flex-wrap justify-center gap-2">
          {platforms.map((platform) => (
            <a
              key={platform.id}
              href={`#${platform.id}`}
              className="inline-flex min-h-10 items-center rounded-full border border-border bg-white/4 px-4 text-sm font-medium hover:bg-white/10"
            >
              {platform.name}
            </a>
          ))}
        </nav>
      </PageHeader>

      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-5 sm:px-8">
        {platforms.map((platform) => (
          <PlatformBlock key={platform.id} platform={platform} />
        ))}
      </div>

      <StorySection id="integration" title={seamlessIntegration.title} lead={seamlessIntegration.subtitle} className="pb-12 sm:pb-20">
        <ul className="grid gap-5 md:grid-cols-3">
          {seamlessIntegration.cards.map((card) => (
            <li key={card.title} className="card flex flex-col gap-4 p-6 sm:p-7">
              <IconTile name={card.icon} />
              <h3 className="text-xl font-semibold">{card.title}</h3>
              <p className="leading-relaxed text-muted">{card.description}</p>
            </li>
          ))}
        </ul>
      </StorySection>
    </>
  );
}

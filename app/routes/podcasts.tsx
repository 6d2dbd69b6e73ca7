import { Podcast } from "~/components/ui/icons/podcast";
import type { Route } from "./+types/podcasts";
import { podcastShows, podcastsPage } from "~/content/podcasts";
import { GetFeaturedDialog } from "~/features/podcasts/get-featured-dialog";
import { PodcastCard } from "~/features/podcasts/podcast-card";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: "Podcasts",
      description:
        "Three podcast shows for independent artists, filmmakers and video creators. Watch the episodes or book your own guest spot.",
      path: "/podcasts",
    },
    matches,
  );

export default function PodcastsPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
      <header className="max-w-3xl">
        <p className="mb-4 inline-flex items-center gap-2 text-sm font-semibold tracking-wide text-ring uppercase">
          <Podcast aria-hidden="true" className="size-4" />
          On air
        </p>
        <h1 className="page-title">
          <span className="text-gradient">{podcastsPage.title}</span>
        </h1>
        <p className="mt-4 text-xl font-medium text-fg">{podcastsPage.subtitle}</p>
        {podcastsPage.intro.map((paragraph) => (
          <p key={paragraph.slice(0, 24)} className="mt-4 text-lg leading-relaxed text-muted">
            {paragraph}
          </p>
        ))}
      </header>

      <section aria-label="Shows" className="mt-12 grid gap-6 md:grid-cols-3">
        {podcastShows.map((show) => (
          <PodcastCard key={show.slug} show={show} />
        ))}
      </section>

      <section
        aria-labelledby="get-featured-heading"
        className="card relative mt-16 overflow-hidden px-6 py-12 text-center sm:px-12"
      >
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgb(255_122_69/0.18),transparent_60%),radial-gradient(ellipse_at_bottom_right,rgb(139_92_246/0.18),transparent_55%)]"
        />
        <div className="relative">
          <h2 id="get-featured-heading" className="section-title">
            {podcastsPage.cta.title}
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-muted">{podcastsPage.cta.text}</p>
          <div className="mt-8">
            <GetFeaturedDialog
              shows={podcastShows}
              buttonLabel={podcastsPage.cta.button}
              title={podcastsPage.dialog.title}
              description={podcastsPage.dialog.description}
            />
          </div>
        </div>
      </section>
    </div>
  );
}

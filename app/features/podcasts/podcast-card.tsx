import { CalendarCheck } from "~/components/ui/icons/calendar-check";
import { ListVideo } from "~/components/ui/icons/list-video";
import type { PodcastShow } from "~/content/podcasts";
import { Button } from "~/components/ui/button";

/** product-rules §2 "Podcasts": logo on the show's two-colour gradient, title, description, two links. */
export function PodcastCard({ show }: { show: PodcastShow }) {
  const headingId = `podcast-${show.slug}`;
  return (
    <article aria-labelledby={headingId} className="card flex flex-col overflow-hidden">
      <div
        className="relative flex h-44 items-center justify-center overflow-hidden"
        style={{ backgroundImage: `linear-gradient(135deg, ${show.color1}, ${show.color2})` }}
      >
        <div
          aria-hidden="true"
          className="absolute inset-0 bg-[radial-gradient(circle_at_20%_15%,rgb(255_255_255/0.28),transparent_55%)]"
        />
        <img src={show.logo} alt="" width={112} height={112} className="relative size-28 drop-shadow-[0_10px_24px_rgb(0_0_0/0.25)]" />
      </div>
      <div className="flex flex-1 flex-col gap-3 p-6">
        <h2 id={headingId} className="text-xl font-bold tracking-tight">
          {show.title}
        </h2>
        <p className="flex-1 leading-relaxed text-muted">{show.description}</p>
        <div className="mt-3 grid gap-2.5">
          <Button asChild size="sm">
            <a href={show.bookingLink} target="_blank" rel="noopener noreferrer">
              <CalendarCheck aria-hidden="true" />
              Book Your Spot<span className="sr-only"> on {show.title} (opens in a new tab)</span>
            </a>
          </Button>
          <Button asChild size="sm" variant="secondary">
            <a href={show.playlistLink} target="_blank" rel="noopener noreferrer">
              <ListVideo aria-hidden="true" />
              View Episodes<span className="sr-only"> of {show.title} (opens in a new tab)</span>
            </a>
          </Button>
        </div>
      </div>
    </article>
  );
}

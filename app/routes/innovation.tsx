import { CalendarClock } from "~/components/ui/icons/calendar-clock";
import { Mail } from "~/components/ui/icons/mail";
import { Quote } from "~/components/ui/icons/quote";
import type { Route } from "./+types/innovation";
import { founderQuote, innovationEssay, innovationPage, innovationTiles } from "~/content/innovation";
import { site } from "~/content/site";
import { ExternalLink } from "~/features/story/external-link";
import { PageHeader } from "~/features/story/page-header";
import { IconTile } from "~/features/story/story-icon";
import { mailtoHref } from "~/lib/mailto";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: "Innovation",
      description:
        "Where technology meets creativity: our founder on the new era of participation, AI as a partner for artists, gaming and the future of music.",
      path: "/innovation",
      type: "article",
    },
    matches,
  );

const TILE_COLORS = ["#ff7a45", "#e23a7a", "#8b5cf6", "#22c3a6"];

export default function InnovationPage() {
  const cta = innovationPage.callToAction;
  return (
    <>
      <PageHeader eyebrow="From our founder" title={innovationPage.title} subtitle={innovationPage.subtitle} />

      <section aria-labelledby="pillars-title" className="mx-auto max-w-6xl px-5 pb-12 sm:px-8">
        <h2 id="pillars-title" className="sr-only">
          What we are building
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {innovationTiles.map((tile, i) => (
            <li key={tile.title} className="card flex flex-col gap-4 p-6">
              <IconTile name={tile.icon} color={TILE_COLORS[i % TILE_COLORS.length]} />
              <h3 className="text-lg font-semibold">{tile.title}</h3>
              <p className="text-sm leading-relaxed text-muted">{tile.description}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-label="Founder's quote" className="mx-auto max-w-4xl px-5 py-10 sm:px-8 sm:py-14">
        <figure className="relative text-center">
          <Quote aria-hidden="true" className="mx-auto mb-6 size-10 text-[#ff7a45]" />
          <blockquote className="text-2xl leading-snug font-semibold tracking-tight text-balance sm:text-3xl">
            <p>&ldquo;{founderQuote.text}&rdquo;</p>
          </blockquote>
          <figcaption className="mt-6 text-muted">
            <span className="font-semibold text-fg">{founderQuote.author}</span>, {founderQuote.role}
          </figcaption>
        </figure>
      </section>

      <article aria-labelledby="essay-title" className="mx-auto max-w-3xl px-5 py-10 sm:px-8 sm:py-14">
        <h2 id="essay-title" className="text-xs font-semibold tracking-[0.2em] text-[#ffb38f] uppercase">
          {innovationPage.essayTitle}
        </h2>
        {innovationEssay.map((section) => (
          <section key={section.heading} className="mt-8 first-of-type:mt-4">
            <h3 className="section-title">{section.heading}</h3>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph.slice(0, 32)} className="mt-4 text-lg leading-relaxed text-pretty text-[#dcdce8]">
                {paragraph}
              </p>
            ))}
          </section>
        ))}
      </article>

      <section aria-labelledby="ideas-title" className="mx-auto max-w-6xl px-5 pt-6 pb-12 sm:px-8 sm:pb-20">
        <div className="card bg-[linear-gradient(120deg,rgb(255_122_69/0.14),rgb(139_92_246/0.16))] p-7 text-center sm:p-12">
          <h2 id="ideas-title" className="section-title mx-auto max-w-2xl text-balance">
            {cta.heading}
          </h2>
          <p className="mt-3 text-lg text-muted">{cta.lead}</p>
          <p className="mt-8 flex flex-col items-center justify-center gap-3 text-muted sm:flex-row sm:flex-wrap">
            <a href={mailtoHref(site.contactEmail, { subject: cta.ideasSubject })} className="btn-primary">
              <Mail aria-hidden="true" className="size-4" />
              {cta.ideasLabel}
            </a>
            <span>{cta.meetingLead}</span>
            <ExternalLink href={site.meetingUrl} className="btn-secondary">
              <CalendarClock aria-hidden="true" className="size-4" />
              {cta.meetingLabel}
            </ExternalLink>
          </p>
        </div>
      </section>
    </>
  );
}

import { CalendarClock } from "~/components/ui/icons/calendar-clock";
import { LockKeyhole } from "~/components/ui/icons/lock-keyhole";
import type { Route } from "./+types/investors";
import { editorial } from "~/content/editorial";
import { investorBriefSections, investorKeyFigures, investorsPage } from "~/content/investors";
import { site } from "~/content/site";
import { ExternalLink } from "~/features/story/external-link";
import { PageHeader } from "~/features/story/page-header";
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
      title: "Investors",
      description:
        "Investor brief: a $29B music industry heading to $100–200B+, our vision for music, film and content creation, and an invitation-only program. Book a 30-minute meeting.",
      path: "/investors",
    },
    matches,
  );

const CARD_COLORS = ["#ff7a45", "#e23a7a", "#8b5cf6", "#22c3a6", "#f59e0b"];

export default function InvestorsPage() {
  const join = investorsPage.join;
  return (
    <>
      <PageHeader eyebrow="Investor relations" title={investorsPage.title}>
        <TrustedHtml html={editorial.investors.html} className="mx-auto mt-5 max-w-2xl text-lg text-pretty text-muted" />
      </PageHeader>

      <section aria-labelledby="brief-title" className="mx-auto max-w-6xl px-5 pb-12 sm:px-8">
        <div className="mb-10 text-center">
          <h2 id="brief-title" className="section-title">
            {investorsPage.briefTitle}
          </h2>
          <p className="mt-3 text-lg text-muted">{investorsPage.briefSubtitle}</p>
        </div>
        <dl className="mb-8 grid gap-px overflow-hidden rounded-3xl border border-border bg-border sm:grid-cols-3">
          {investorKeyFigures.map((figure) => (
            <div key={figure.label} className="flex flex-col-reverse gap-1 bg-[#0d0d16] px-6 py-6 text-center sm:py-8">
              <dt className="text-sm text-pretty text-muted">{figure.label}</dt>
              <dd className="text-gradient text-3xl font-extrabold tracking-tight sm:text-4xl">{figure.value}</dd>
            </div>
          ))}
        </dl>
        <ul className="grid gap-5 md:grid-cols-2 lg:grid-cols-6">
          {investorBriefSections.map((section, i) => (
            <li key={section.title} className={i < 3 ? "lg:col-span-2" : "lg:col-span-3"}>
              <article className="card flex h-full flex-col p-6 sm:p-7">
                <div className="flex items-center gap-4">
                  <IconTile name={section.icon} color={CARD_COLORS[i % CARD_COLORS.length]} />
                  <h3 className="text-xl font-semibold tracking-tight">{section.title}</h3>
                </div>
                <ul className="mt-5 space-y-3">
                  {section.content.map((line) => (
                    <li key={line} className="flex gap-3 leading-relaxed text-[#dcdce8]">
                      <span
                        aria-hidden="true"
                        className="mt-2.5 size-1.5 shrink-0 rounded-full"
                        style={{ background: CARD_COLORS[i % CARD_COLORS.length] }}
                      />
                      <span>{line}</span>
                    </li>
                  ))}
                </ul>
              </article>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="join-title" className="mx-auto max-w-6xl px-5 pt-4 pb-12 sm:px-8 sm:pb-20">
        <div className="card relative overflow-hidden bg-[linear-gradient(120deg,rgb(255_122_69/0.16),rgb(226_58_122/0.12),rgb(139_92_246/0.18))] p-7 text-center sm:p-12">
          <p className="inline-flex items-center gap-2 rounded-full border border-white/15 bg-bg/60 px-4 py-1.5 text-sm font-semibold text-[#ffc2a6]">
            <LockKeyhole aria-hidden="true" className="size-4" />
            {join.badge}
          </p>
          <h2 id="join-title" className="section-title mt-5">
            {join.title}
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-pretty text-muted">{join.text}</p>
          <div className="mt-8">
            <ExternalLink href={site.meetingUrl} className="btn-primary">
              <CalendarClock aria-hidden="true" className="size-4" />
              {join.action}
            </ExternalLink>
            <p className="mt-3 text-sm text-muted">{join.meetingMinutes}-minute video call</p>
          </div>
        </div>
      </section>
    </>
  );
}

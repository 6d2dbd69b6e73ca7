import type { Route } from "./+types/mission";
import { guidingPrinciples, missionCards, missionPage, visionCards } from "~/content/mission";
import { PageHeader, StorySection } from "~/features/story/page-header";
import { StoryIcon } from "~/features/story/story-icon";
import { ValueCard } from "~/features/story/value-card";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: "Our Mission & Vision",
      description:
        "Why we exist and where we are heading: empowering human creativity, responsible innovation and an honest ecosystem for independent artists and filmmakers.",
      path: "/mission",
    },
    matches,
  );

export default function MissionPage() {
  return (
    <>
      <PageHeader eyebrow="About us" title={missionPage.title} subtitle={missionPage.intro} />

      <StorySection id="mission" title={missionPage.missionHeading}>
        <ul className="grid gap-5 md:grid-cols-3">
          {missionCards.map((card) => (
            <li key={card.title}>
              <ValueCard card={card} color="#ff7a45" />
            </li>
          ))}
        </ul>
      </StorySection>

      <StorySection id="vision" title={missionPage.visionHeading}>
        <ul className="grid gap-5 md:grid-cols-3">
          {visionCards.map((card) => (
            <li key={card.title}>
              <ValueCard card={card} color="#8b5cf6" />
            </li>
          ))}
        </ul>
      </StorySection>

      <StorySection id="principles" title={missionPage.principlesHeading} className="pb-12 sm:pb-20">
        <ul className="grid overflow-hidden rounded-3xl border border-border sm:grid-cols-2">
          {guidingPrinciples.map((principle, i) => (
            <li
              key={principle.title}
              className={`flex gap-5 bg-surface/60 p-6 sm:p-8 ${i > 0 ? "border-t border-border" : ""} ${i === 1 ? "sm:border-t-0" : ""} ${i % 2 === 1 ? "sm:border-l" : ""}`}
            >
              <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-[linear-gradient(135deg,#ff7a45,#e23a7a)] text-[#12060a]">
                <StoryIcon name={principle.icon} className="size-5" />
              </span>
              <div>
                <h3 className="text-lg font-semibold">{principle.title}</h3>
                <p className="mt-2 leading-relaxed text-muted">{principle.body}</p>
              </div>
            </li>
          ))}
        </ul>
      </StorySection>
    </>
  );
}

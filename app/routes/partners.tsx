import { Handshake } from "~/components/ui/icons/handshake";
import type { Route } from "./+types/partners";
import { partnerCategories, partnerDirectories, partnersPage } from "~/content/partners";
import { PartnerCategoryCard } from "~/features/partners/partner-category-card";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: "Our Partners",
      description:
        "The music and film distribution partners that carry our artists' and filmmakers' releases: streaming services, download stores and video-on-demand platforms.",
      path: "/partners",
    },
    matches,
  );

// The page's copy comes through the loader so the ~250 partner entries of the content
// module never reach the browser bundle; this page needs only the cards and their counts.
export function loader() {
  return {
    page: partnersPage,
    cards: partnerCategories.map((card) => ({ card, partnerCount: partnerDirectories[card.id].partners.length })),
  };
}

export default function PartnersPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
      <header className="max-w-3xl">
        <p className="mb-4 inline-flex items-center gap-2 text-sm font-semibold tracking-wide text-ring uppercase">
          <Handshake aria-hidden="true" className="size-4" />
          Distribution network
        </p>
        <h1 className="page-title">{loaderData.page.title}</h1>
        <p className="mt-5 text-lg leading-relaxed text-muted">{loaderData.page.subtitle}</p>
      </header>
      <ul className="mt-12 grid gap-6 md:grid-cols-3">
        {loaderData.cards.map(({ card, partnerCount }) => (
          <li key={card.id} className="flex">
            <PartnerCategoryCard card={card} partnerCount={partnerCount} />
          </li>
        ))}
      </ul>
    </div>
  );
}

import { SearchX } from "~/components/ui/icons/search-x";
import { data } from "react-router";
import type { Route } from "./+types/partners.$category";
import { comingSoonText, findPartnerDirectory, isCategoryAvailable } from "~/content/partners";
import { logoCellsOf } from "~/content/partner-logo-sprites";
import { Badge } from "~/components/ui/badge";
import { BackLink } from "~/components/ui/back-link";
import { ComingSoonPanel } from "~/components/ui/coming-soon-panel";
import { PartnerLogoGrid } from "~/features/partners/partner-logo-grid";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export function loader({ params }: Route.LoaderArgs) {
  const directory = findPartnerDirectory(params.category);
  // product-rules §8: an unknown partner category shows "Category Not Found". It answers 404 so
  // crawlers and monitors see a missing page, while the visitor still gets the layout.
  if (!directory) return data({ found: false as const, category: params.category }, { status: 404 });
  return {
    found: true as const,
    category: directory.id,
    title: directory.title,
    description: directory.description,
    available: isCategoryAvailable(directory.id),
    partners: directory.partners,
    // ADR 0150, amended: the logos are cut from a few sprites per directory
    logoCells: logoCellsOf(directory.id, directory.partners),
    comingSoonText,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches, params }) => {
  const path = `/partners/${params.category}`;
  if (!loaderData?.found) {
    return seo({ title: "Category Not Found", description: "This partner category does not exist.", path }, matches);
  }
  const description = loaderData.available
    ? `${loaderData.partners.length} ${loaderData.title.replace(/s$/, "")} partners that carry releases distributed by us. ${loaderData.description}`
    : `${loaderData.title}: ${loaderData.comingSoonText}`;
  return seo({ title: loaderData.title, description, path }, matches);
};

function BackToPartners() {
  return <BackLink to="/partners">Back to Partners</BackLink>;
}

export default function PartnerDirectoryPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.found) {
    return (
      <div className="mx-auto flex max-w-2xl flex-col items-center px-4 py-24 text-center sm:px-6 sm:py-32">
        <span aria-hidden="true" className="mb-6 flex size-16 items-center justify-center rounded-2xl bg-white/10 text-muted">
          <SearchX className="size-8" />
        </span>
        <h1 className="page-title">Category Not Found</h1>
        <p className="mt-4 text-lg text-muted">We have no partner directory called “{loaderData.category}”.</p>
        <div className="mt-8">
          <BackToPartners />
        </div>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <BackToPartners />
      <header className="mt-8 max-w-3xl">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="page-title">{loaderData.title}</h1>
          {!loaderData.available && (
            <Badge variant="soon" className="px-3 py-1 text-sm">
              Coming Soon
            </Badge>
          )}
        </div>
        <p className="mt-5 text-lg leading-relaxed text-muted">{loaderData.description}</p>
        {loaderData.partners.length > 0 && (
          <p className="mt-3 text-sm font-semibold text-ring">{loaderData.partners.length} partners · select a logo to visit the partner</p>
        )}
      </header>

      {loaderData.partners.length > 0 ? (
        <div className="mt-10">
          <PartnerLogoGrid partners={loaderData.partners} logoCells={loaderData.logoCells} label={`${loaderData.title} partners`} />
        </div>
      ) : (
        <ComingSoonPanel label="Coming soon">
          <p className="max-w-md text-lg text-fg">{loaderData.comingSoonText}</p>
        </ComingSoonPanel>
      )}
    </div>
  );
}

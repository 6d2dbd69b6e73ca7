import { data, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/catalog-item";
import { logNotFound, services } from "~/.server/context";
import { loadItemPage } from "~/.server/catalog/item-page";
import { JsonLd } from "~/components/seo/json-ld";
import { NotFoundMessage } from "~/components/layout/not-found-message";
import { ItemPage } from "~/features/catalog/item-page";
import { albumJsonLd, breadcrumbJsonLd, filmJsonLd, singleJsonLd } from "~/features/catalog/json-ld";
import { CATALOG_TYPE_OF, catalogReturnHref, itemPagePath, parseItemPageKind } from "~/lib/catalog/item-url";
import { catalogHref, defaultCatalogState } from "~/lib/catalog/url-state";
import { notFoundSeo, seo } from "~/lib/seo";
import { site } from "~/content/site";

/**
 * Item pages (issue #11, DESIGN.md §3b): `/catalog/albums/{id}`, `/catalog/singles/{id}`,
 * `/catalog/films/{film_id}`, each with an optional `/{slug}`. Any slug, right, wrong or
 * missing, answers the page, whose canonical link names the right one (ADR 0096). An unknown
 * id (or kind) answers the 404 page with status 404, logged as product-rules §2 asks (at info: issue #41).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const kind = parseItemPageKind(params.kind);
  const found = kind ? await loadItemPage(services(context), kind, params.id) : null;
  const url = new URL(request.url);
  if (!kind || !found) {
    logNotFound(context, url.pathname);
    return data({ found: false as const, path: url.pathname }, { status: 404 });
  }
  const { item } = found;
  const payload = {
    found: true as const,
    kind,
    item,
    path: itemPagePath(kind, item.id, item.kind === "album" ? item.name : item.title),
    back: catalogReturnHref(url.searchParams.get("from"), kind),
  };
  // Analysis slow to answer, or a release detail not fetched: sent, not cached (ADR 0080).
  return found.complete ? payload : data(payload, { headers: { "Cache-Control": "no-store" } });
}

/** The loader's Cache-Control reaches the document and the `.data` answer alike. */
export const headers: Route.HeadersFunction = ({ parentHeaders, loaderHeaders }) => {
  const merged = new Headers(parentHeaders);
  loaderHeaders.forEach((value, name) => merged.set(name, value));
  return merged;
};

/** "{name} by {artist}" (the site's name follows, app/lib/seo.ts); films: "{title}, a {format}". */
function pageTitle(item: Extract<Route.ComponentProps["loaderData"], { found: true }>["item"]): string {
  switch (item.kind) {
    case "album":
      return item.artist ? `${item.name} by ${item.artist}` : item.name;
    case "single":
      return item.artist ? `${item.title} by ${item.artist}` : item.title;
    case "film":
      return item.format ? `${item.title} (${item.format})` : item.title;
  }
}

function description(item: Extract<Route.ComponentProps["loaderData"], { found: true }>["item"]): string {
  switch (item.kind) {
    case "album": {
      const tracks = item.tracks.length === 1 ? "1 track" : `${item.tracks.length} tracks`;
      return `${item.name} by ${item.artist || "an independent artist"}${item.genre ? `, ${item.genre}` : ""}: ${tracks} with 10-second previews, ready for sync licensing from ${site.companyName}.`;
    }
    case "single":
      return `${item.title} by ${item.artist || "an independent artist"}${item.genre ? ` (${item.genre})` : ""}: listen to a 10-second preview, see the release details and license it for sync.`;
    case "film":
      return `${item.title}${item.format ? `, ${item.format.toLowerCase()}` : ""}, an independent film distributed worldwide by ${site.companyName}.`;
  }
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData?.found) return notFoundSeo(loaderData?.path ?? "/", matches);
  const { item, path } = loaderData;
  return seo(
    {
      title: pageTitle(item),
      description: description(item),
      path,
      image: item.image?.src,
      type: item.kind === "album" ? "music.album" : item.kind === "single" ? "music.song" : "video.movie",
    },
    matches,
  );
};

/** The catalog view of each kind, as the breadcrumb and the default "Back to …" name it. */
const VIEW_NAMES = { albums: "Music Catalog", singles: "Singles", films: "Film Catalog" } as const;

export default function CatalogItemRoute({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData("root") as { siteUrl?: string } | undefined;
  if (!loaderData.found) return <NotFoundMessage />;
  const origin = root?.siteUrl ?? "";
  const { item, kind, path, back } = loaderData;
  const type = CATALOG_TYPE_OF[kind];
  const typeView = catalogHref(defaultCatalogState(type));
  const url = origin + path;
  const name = item.kind === "album" ? item.name : item.title;
  const ld =
    item.kind === "album" ? albumJsonLd(item, origin, url) : item.kind === "single" ? singleJsonLd(item, origin, url) : filmJsonLd(item, origin, url);
  return (
    <>
      <JsonLd data={ld} />
      <JsonLd
        data={breadcrumbJsonLd([
          { name: "Home", url: `${origin}/` },
          { name: VIEW_NAMES[kind], url: origin + typeView },
          { name, url },
        ])}
      />
      <ItemPage item={item} backHref={back} backLabel={back === typeView ? VIEW_NAMES[kind] : "the catalog"} />
    </>
  );
}

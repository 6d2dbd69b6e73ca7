import { data, redirect, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/catalog";
import { services } from "~/.server/context";
import { catalogViewState, loadCatalogPage } from "~/.server/catalog/query-page";
import { referenceSeed } from "~/.server/sounds-like/service";
import { CatalogPage } from "~/features/catalog/catalog-page";
import { JsonLd } from "~/components/seo/json-ld";
import { albumJsonLd, catalogItemList } from "~/features/catalog/json-ld";
import { itemPagePath } from "~/lib/catalog/item-url";
import { catalogTitle } from "~/lib/catalog/nouns";
import { catalogHref } from "~/lib/catalog/url-state";
import { seo } from "~/lib/seo";

/**
 * /catalog (product-rules §2 "Catalog"). Every view is a URL (DESIGN.md §3 deviation 5): the loader
 * reads the URL's canonical state (catalogViewState: the one parser, which the page cache's key
 * is made from too), asks the in-memory indexes for one page of cards, and returns only that
 * page, the filter options and the open item's details — never the catalog.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const all = services(context);
  const { config, soundsLike } = all;
  const state = catalogViewState(all, new URL(request.url).searchParams);
  // product-rules §2: the Channels tab is disabled unless the operator enables it.
  if (state.type === "channels" && !config.CATALOG_CHANNELS_ENABLED) throw redirect("/catalog");
  // issue #19: a reference file's `like=` view reads its fingerprint from the references' store
  const reference =
    state.view === "tracks" && state.like.startsWith("ref-")
      ? await referenceSeed(soundsLike, state.like).catch(() => ({ id: state.like, status: "unknown" as const }))
      : undefined;
  const { complete, ...page } = await loadCatalogPage(all, state, reference);
  const payload = { ...page, channelsEnabled: config.CATALOG_CHANNELS_ENABLED };
  // A page with data still missing (a slow upstream) is not kept by the page cache (ADR 0080).
  return complete ? payload : data(payload, { headers: { "Cache-Control": "no-store" } });
}

/** The loader's Cache-Control reaches the document and the `.data` answer alike. */
export const headers: Route.HeadersFunction = ({ parentHeaders, loaderHeaders }) => {
  const merged = new Headers(parentHeaders);
  loaderHeaders.forEach((value, name) => merged.set(name, value));
  return merged;
};

const descriptions: Record<string, string> = {
  music: "Browse thousands of independent albums by genre, with 10-second previews, ready for sync licensing.",
  tracks: "Find a track by how it sounds: tempo, length and key filters over every album track, with 10-second previews.",
  film: "Browse independent films distributed worldwide.",
  singles: "Browse delivered singles by genre and sub-genre, with previews and full release details.",
  channels: "Browse the video-platform channels in our content-management network.",
};

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const type = loaderData?.state.type ?? "music";
  // the track view (issue #10) is a listing of its own: its own description and canonical URL
  const tracksView = loaderData?.state.view === "tracks";
  // A `?item=` view's canonical page is the item's own page (issue #11).
  const detail = loaderData?.detail;
  const canonical = detail
    ? detail.kind === "album"
      ? itemPagePath("albums", detail.id, detail.name)
      : itemPagePath("singles", detail.id, detail.title)
    : null;
  return seo(
    {
      title: catalogTitle(type),
      description: tracksView ? descriptions.tracks : (descriptions[type] ?? descriptions.music),
      path: canonical ?? (type === "music" ? (tracksView ? "/catalog?view=tracks" : "/catalog") : `/catalog?type=${type}`),
    },
    matches,
  );
};

export default function CatalogRoute({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData("root") as { siteUrl?: string } | undefined;
  const origin = root?.siteUrl ?? "";
  const { state } = loaderData;
  const jsonLd = catalogItemList(loaderData.items, origin, origin + catalogHref({ ...state, item: "" }));
  const { detail } = loaderData;
  return (
    <>
      {jsonLd.itemListElement.length ? <JsonLd data={jsonLd} /> : null}
      {detail?.kind === "album" ? <JsonLd data={albumJsonLd(detail, origin, origin + itemPagePath("albums", detail.id, detail.name))} /> : null}
      <CatalogPage
        state={state}
        total={loaderData.total}
        pageCount={loaderData.pageCount}
        items={loaderData.items}
        musicLevels={loaderData.musicLevels}
        singlesGenres={loaderData.singlesGenres}
        subGenres={loaderData.subGenres}
        detail={loaderData.detail}
        tracks={loaderData.tracks}
        channelsEnabled={loaderData.channelsEnabled}
      />
    </>
  );
}

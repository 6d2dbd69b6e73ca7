import { albumDetail, singleDetail, type CatalogPageServices } from "./query-page.ts";
import type { AlbumDetailData, FilmCardData, SingleDetailData } from "../../lib/catalog/cards.ts";
import type { ItemPageKind } from "../../lib/catalog/item-url.ts";

/** What an item page shows (issue #11): the album sheet's or single sheet's data, or a film's card. */
export type ItemPageItem = AlbumDetailData | SingleDetailData | FilmCardData;

/**
 * The item behind `/catalog/{kind}/{id}`, or null for an unknown id. Albums and singles are
 * read exactly as their catalog sheets are (query-page.ts), so an album page shows the same
 * analysis; `complete` is false when part of it is missing for now (analysis slow to answer,
 * a release detail not fetched), and such a page is not kept by the page cache (ADR 0080).
 */
export async function loadItemPage(services: CatalogPageServices, kind: ItemPageKind, id: string): Promise<{ item: ItemPageItem; complete: boolean } | null> {
  const found =
    kind === "albums"
      ? await albumDetail(services, id)
      : kind === "singles"
        ? await singleDetail(services, id)
        : { data: services.catalogIndex.film(id), complete: true };
  return found.data ? { item: found.data, complete: found.complete } : null;
}

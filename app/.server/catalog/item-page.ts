import type { CatalogService } from "./service.ts";
import { catalogIndexFor } from "./index.ts";
import { albumDetail, singleDetail } from "./query-page.ts";
import type { AnalysisLookup } from "../analysis/stage/types.ts";
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
export async function loadItemPage(
  catalog: CatalogService,
  kind: ItemPageKind,
  id: string,
  analysis: AnalysisLookup | undefined,
): Promise<{ item: ItemPageItem; complete: boolean } | null> {
  const found =
    kind === "albums"
      ? await albumDetail(catalog, id, analysis)
      : kind === "singles"
        ? await singleDetail(catalog, id)
        : { data: catalogIndexFor(catalog).film(id), complete: true };
  return found.data ? { item: found.data, complete: found.complete } : null;
}

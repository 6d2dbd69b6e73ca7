import type { Film } from "../../../lib/catalog/types.ts";
import type { Logger } from "../../logger.ts";
import type { FilmProviderClient } from "../film-provider/client.ts";
import { mergeFilmLists } from "../film-provider/merge.ts";
import { isCompletedFilm, reshapeFilm } from "../reshape.ts";
import { rawFilmSchema } from "../schemas.ts";
import { isHttpSource } from "./read.ts";
import { readJsonIfChanged, UNCHANGED, validList, type RequestOptions, type SyncSource } from "./source.ts";

export interface FilmsSourceOptions {
  /** FILM_API_URL with a client, else FILMS_URL or the sample's films.json */
  location: string;
  /** the film provider (FILM_API_*), when configured */
  client?: FilmProviderClient;
  request: RequestOptions;
  log: Logger;
}

/** Films: the film provider's two lists merged (product-rules §7), or a films file (product-rules §3 "Film"). */
export function filmsSource(opts: FilmsSourceOptions): SyncSource<Film[]> {
  const { location, client, request, log } = opts;
  // product-rules §4 "Films": only 'completed' films are shown
  const toFilms = (raw: unknown): Film[] => validList(log, "films", raw, rawFilmSchema, location).map(reshapeFilm).filter(isCompletedFilm);
  return {
    name: "films",
    location,
    local: !client && !isHttpSource(location),
    empty: () => [],
    async load(ctx) {
      if (client) {
        // product-rules §7: both lists, merged by film_id (catalog items win)
        const catalogItems = await client.catalogItems();
        const detailItems = await client.detailItems();
        return { data: toFilms(mergeFilmLists(filmRecords(catalogItems), filmRecords(detailItems))) };
      }
      const read = await readJsonIfChanged(location, ctx, request);
      if (!read) return UNCHANGED;
      return { data: toFilms(read.raw), stamp: read.stamp };
    },
    count: (list) => list.length,
  };
}

/** The provider's items with a film_id, the id as a string (the merge key). */
function filmRecords(raw: unknown[]) {
  return raw.flatMap((item) =>
    item && typeof item === "object" && (item as { film_id?: unknown }).film_id != null
      ? [{ ...(item as Record<string, unknown>), film_id: String((item as { film_id: unknown }).film_id) }]
      : [],
  );
}

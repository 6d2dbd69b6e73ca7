import type { Logger } from "../../logger.ts";
import type { MusicSource } from "../music-api/source.ts";
import { genreNames } from "../schemas.ts";
import type { MusicLookups } from "./music-lookups.ts";
import { UNCHANGED, type SyncSource } from "./source.ts";

/**
 * The singles genre list (product-rules §7 api/Genre/), names only, and the sub-genres of every genre
 * (music-lookups.ts), so the singles filter never waits on the API.
 */
export function genresSource(opts: { music: MusicSource; lookups: MusicLookups; log: Logger }): SyncSource<string[]> {
  const { music, lookups, log } = opts;
  return {
    name: "genres",
    location: music.location,
    local: music.kind === "sample",
    empty: () => [],
    async load(ctx) {
      const names = genreNames(await music.genres());
      if (names === null) {
        // product-rules §8: a warning and an empty list; a previous good list is kept (see ADR 0051)
        log.warn({ location: music.location }, "genre response is not a list");
        return ctx.current ? UNCHANGED : { data: [] };
      }
      await lookups.refreshSubGenres(names);
      return { data: names };
    },
    count: (list) => list.length,
  };
}

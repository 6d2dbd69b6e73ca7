import type { Single } from "../../../lib/catalog/types.ts";
import type { Logger } from "../../logger.ts";
import type { MusicSource } from "../music-api/source.ts";
import { reshapeSingle, selectVisibleSingles } from "../music-api/singles.ts";
import { rawSubmissionSchema } from "../schemas.ts";
import type { MusicLookups } from "./music-lookups.ts";
import { validList, type SyncSource } from "./source.ts";

export interface SinglesSourceOptions {
  music: MusicSource;
  lookups: MusicLookups;
  /** MUSIC_API_EXCLUDED_USER_IDS (the source may know more of its own) */
  excludedUserIds: readonly string[];
  log: Logger;
}

/**
 * Singles: the music API's delivered submissions (or the sample's), test users excluded,
 * de-duplicated and sorted (product-rules §4 "Singles"), with every missing release detail fetched
 * during the sync (music-lookups.ts).
 */
export function singlesSource(opts: SinglesSourceOptions): SyncSource<Single[]> {
  const { music, lookups, log } = opts;
  return {
    name: "singles",
    location: music.location,
    local: music.kind === "sample",
    empty: () => [],
    async load() {
      const raw = await music.deliveredSubmissions();
      const items = validList(log, "singles", raw, rawSubmissionSchema, music.location);
      const excluded = [...opts.excludedUserIds, ...(await music.extraExcludedUserIds())];
      const singles = selectVisibleSingles(items, excluded).map(reshapeSingle);
      // product-rules §8: "No singles data received from API"
      if (!singles.length) log.warn({ location: music.location }, "No singles data received from API");
      // details are merged into the singles served: new ones change them, even if the list did not
      const added = await lookups.prefetchDetails(singles);
      return { data: singles, alsoChanged: added > 0 };
    },
    count: (list) => list.length,
  };
}

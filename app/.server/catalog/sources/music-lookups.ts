import type { ReleaseDetail, Single } from "../../../lib/catalog/types.ts";
import type { Logger } from "../../logger.ts";
import type { MusicSource } from "../music-api/source.ts";
import { reshapeReleaseDetail, withDetail } from "../music-api/singles.ts";
import type { RetryOptions } from "../retry.ts";
import { genreNames, rawReleaseDetailSchema } from "../schemas.ts";
import type { SnapshotStore } from "../snapshots.ts";
import { errorMessage } from "../errors.ts";

const DETAIL_CONCURRENCY = 4;

export type LookupName = "release-details" | "sub-genres";

export interface MusicLookupsOptions {
  music: MusicSource;
  store: SnapshotStore;
  log: Logger;
  /** the sync's retry schedule (a visitor's lookup is never retried) */
  retry?: RetryOptions;
  /** follow mode (ADR 0081): answer from the snapshots only, never call the upstream */
  follow: boolean;
  /** a release detail fetched for a visitor changed the singles served */
  onDetailsChanged(): void;
}

/**
 * Release details and sub-genres (product-rules §7), prefetched by the singles and genres sources
 * during a sync and kept in memory and in snapshots (`release-details.json`,
 * `sub-genres.json`, ADR 0050), so a single's sheet and the singles filter open without an
 * upstream call. The singles served carry their details (withDetails).
 */
export class MusicLookups {
  private readonly details = new Map<string, ReleaseDetail>();
  private readonly subGenreCache = new Map<string, string[]>();
  private readonly opts: MusicLookupsOptions;

  constructor(opts: MusicLookupsOptions) {
    this.opts = opts;
  }

  get location(): string {
    return this.opts.music.location;
  }

  /** The singles as served: each with its release detail's sub-genre and date, when known. */
  withDetails(singles: readonly Single[]): Single[] {
    return singles.map((s) => withDetail(s, this.details.get(s.id)));
  }

  /**
   * A single's release detail for its sheet: from the cache, else fetched once (no retry: a
   * visitor waits) for a visible single only — an excluded or unknown id is never looked up,
   * and a follower never looks up (the syncing process fetches every visible single's).
   */
  async releaseDetail(submissionId: string, visible: (id: string) => boolean): Promise<ReleaseDetail | null> {
    const cached = this.details.get(submissionId);
    if (cached) return cached;
    if (this.opts.follow || !visible(submissionId)) return null;
    try {
      const detail = await this.fetchDetail(submissionId, { retries: 0 });
      if (detail) {
        this.opts.onDetailsChanged();
        void this.save("release-details");
      }
      return detail ?? null;
    } catch (error) {
      this.opts.log.warn({ submissionId, err: errorMessage(error) }, "release detail not fetched");
      return null;
    }
  }

  /** A genre's sub-genres, cached; fetched (no retry) for a known genre when missing, never by a follower. */
  async subGenres(genre: string, genres: readonly string[]): Promise<string[]> {
    const cached = this.subGenreCache.get(genre);
    if (cached) return cached;
    if (this.opts.follow || !genres.includes(genre)) return [];
    try {
      const names = await this.loadSubGenres(genre, { retries: 0 });
      if (names?.length) void this.save("sub-genres");
      return names ?? [];
    } catch (error) {
      this.opts.log.warn({ genre, err: errorMessage(error) }, "sub-genres not fetched");
      return [];
    }
  }

  /** The singles source: every missing release detail, 4 at a time. Returns how many were added. */
  async prefetchDetails(singles: readonly Single[]): Promise<number> {
    const missing = singles.filter((s) => !this.details.has(s.id)).map((s) => s.id);
    if (!missing.length) return 0;
    let failed = 0;
    let added = 0;
    const queue = [...missing];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          if (await this.fetchDetail(id, this.opts.retry)) added++;
        } catch (error) {
          failed++;
          this.opts.log.debug({ submissionId: id, err: errorMessage(error) }, "release detail not fetched");
        }
      }
    };
    await Promise.all(Array.from({ length: DETAIL_CONCURRENCY }, worker));
    if (failed) this.opts.log.warn({ failed, of: missing.length }, "some release details could not be fetched; retried at the next sync");
    if (added) await this.save("release-details");
    return added;
  }

  /** The genres source: the sub-genres of every genre, so the singles filter never waits on the API. */
  async refreshSubGenres(genres: readonly string[]): Promise<void> {
    let changed = false;
    for (const genre of genres) {
      try {
        const before = JSON.stringify(this.subGenreCache.get(genre));
        const after = await this.loadSubGenres(genre, this.opts.retry);
        if (JSON.stringify(after) !== before) changed = true;
      } catch (error) {
        this.opts.log.warn({ genre, err: errorMessage(error) }, "sub-genres not fetched");
      }
    }
    if (changed) await this.save("sub-genres");
  }

  /**
   * Loads the release details or sub-genres snapshot of this music source into its cache (at
   * start-up, and in follow mode whenever the syncing process rewrote it). True when loaded.
   */
  async load(name: LookupName): Promise<boolean> {
    const stored = await this.opts.store.read<Record<string, unknown>>(name);
    if (stored?.source !== this.location) return false;
    const cache: Map<string, unknown> = name === "release-details" ? this.details : this.subGenreCache;
    cache.clear();
    for (const [key, value] of Object.entries(stored.data)) cache.set(key, value);
    return true;
  }

  /** Fetches and caches one release detail. Undefined when it has an unexpected shape. */
  private async fetchDetail(id: string, retry?: RetryOptions): Promise<ReleaseDetail | undefined> {
    const raw = await this.opts.music.releaseDetail(id, { retry });
    const parsed = rawReleaseDetailSchema.safeParse(raw);
    if (!parsed.success || !raw || typeof raw !== "object") {
      this.opts.log.warn({ submissionId: id }, "release detail has an unexpected shape");
      return undefined;
    }
    const detail = reshapeReleaseDetail(parsed.data);
    // the response may omit its own id; the one we asked for is authoritative
    if (!detail.submissionId) detail.submissionId = id;
    this.details.set(id, detail);
    return detail;
  }

  /** One sub-genre call. A response that is not a list: warning, empty list (product-rules §8). */
  private async loadSubGenres(genre: string, retry?: RetryOptions): Promise<string[]> {
    const raw = await this.opts.music.subGenres(genre, { retry });
    const names = genreNames(raw);
    if (names === null) {
      this.opts.log.warn({ genre }, "sub-genre response is not a list");
      return [];
    }
    this.subGenreCache.set(genre, names);
    return names;
  }

  private save(name: LookupName): Promise<void> {
    const cache: Map<string, unknown> = name === "release-details" ? this.details : this.subGenreCache;
    return this.opts.store
      .write({ name, savedAt: new Date().toISOString(), source: this.location, fingerprint: "", data: Object.fromEntries(cache) })
      .catch((error) => this.opts.log.error({ err: error }, name === "release-details" ? "could not save the release-detail snapshot" : "could not save the sub-genre snapshot"));
  }
}


import crypto from "node:crypto";
import fsp from "node:fs/promises";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { Album, Channel, Film, ReleaseDetail, Single } from "../../lib/catalog/types.ts";
import { PayloadError, UpstreamError } from "./errors.ts";
import { MAX_ITEM_CHARS } from "./json-stream.ts";
import { FilmProviderClient } from "./film-provider/client.ts";
import { mergeFilmLists } from "./film-provider/merge.ts";
import { mediaUrl as buildMediaUrl } from "./media-url.ts";
import { MusicApiClient } from "./music-api/client.ts";
import { reshapeReleaseDetail, reshapeSingle, selectVisibleSingles, withDetail } from "./music-api/singles.ts";
import { apiMusicSource, sampleMusicSource, type MusicSource } from "./music-api/source.ts";
import { isCompletedFilm, reshapeAlbum, reshapeChannels, reshapeFilm, uniqueIds } from "./reshape.ts";
import type { RetryOptions } from "./retry.ts";
import { ensureSampleData, samplePaths } from "./sample/ensure.ts";
import {
  albumEntrySchema,
  genreNames,
  parseList,
  rawChannelSchema,
  rawFilmSchema,
  rawReleaseDetailSchema,
  rawSubmissionSchema,
} from "./schemas.ts";
import { SnapshotStore, type StoredSnapshot } from "./snapshots.ts";
import { isHttpSource, readJsonList, readJsonSource, sourceFile } from "./sources.ts";
import { AlbumTable } from "./album-table.ts";
import { AlbumSnapshotWriter, readAlbumSnapshot, type SnapshotMeta } from "./album-snapshot.ts";

/**
 * The catalog as the rest of the server sees it (DESIGN.md §1). Sources are synced in the
 * background into snapshots; reading never waits on an upstream.
 *
 * CONTRACT between the catalog sync (sources, snapshots, sample data) and the catalog
 * index/UI (queries, loaders): keep these names.
 */
export interface CatalogSnapshot {
  /**
   * The service serves an AlbumTable (columns, tracks on disk: ADR 0082); a plain list is
   * accepted too (fixtures), and the index wraps it.
   */
  albums: AlbumTable | readonly Album[];
  films: Film[];
  singles: Single[];
  channels: Channel[];
  /** singles genre list (spec §7 api/Genre/), names only */
  genres: string[];
  /** increments on every change, so derived indexes know when to rebuild */
  version: number;
  /** ISO time of the last successful sync of any source */
  updatedAt: string;
}

export type CatalogSourceName = "albums" | "films" | "channels" | "singles" | "genres";

/** What an operator wants to know about each source (logged, and available to a health page). */
export interface CatalogSourceStatus {
  name: CatalogSourceName;
  /** a path or URL (no credentials) */
  location: string;
  ok: boolean;
  count: number;
  /** ISO time of the last successful sync (or of the snapshot loaded at start) */
  updatedAt?: string;
  lastAttemptAt?: string;
  error?: string;
}

/** The snapshot the service serves: its albums are always a table. */
export interface ServedSnapshot extends CatalogSnapshot {
  albums: AlbumTable;
}

export interface CatalogService {
  /** The current data. Never waits on an upstream. */
  snapshot(): ServedSnapshot;
  /** Sub-genres of a singles genre (spec §7 api/Genre/Get/SubGenres), cached. */
  subGenres(genre: string): Promise<string[]>;
  /** A single's release detail, fetched once and cached. */
  releaseDetail(submissionId: string): Promise<ReleaseDetail | null>;
  /** Public URL of an album/track/channel media key (MEDIA_URL) or a film image key (FILM_MEDIA_URL). */
  mediaUrl(key: string, kind: "music" | "film"): string;
  /** Per-source sync state. */
  status(): CatalogSourceStatus[];
  /**
   * Syncs every source (or the chosen ones) now; this also runs every CATALOG_REFRESH_SECONDS.
   * Never throws: a failure shows in status() and the log. `force` accepts an answer the
   * guard would hold back (an empty list, or one that shrank by more than CATALOG_MAX_SHRINK)
   * and re-reads a file source even when its size and time are unchanged.
   */
  syncNow(opts?: SyncOptions): Promise<void>;
  /** Bytes the index may keep in cached match lists (CATALOG_CACHE_MAX_BYTES). */
  readonly cacheBytes: number;
  close(): Promise<void>;
}

export interface SyncOptions {
  /** the operator's `npm run catalog -- sync --force` */
  force?: boolean;
  /** default: every source */
  sources?: readonly CatalogSourceName[];
}

export const CATALOG_SOURCE_NAMES: readonly CatalogSourceName[] = ["albums", "films", "channels", "singles", "genres"];

export interface CatalogDeps {
  config: Config;
  logger: Logger;
  /** upstream retry schedule (tests shorten it) */
  retry?: RetryOptions;
  /** deadline of one upstream request, body included, in ms (default UPSTREAM_TIMEOUT_SECONDS) */
  timeoutMs?: number;
  /** largest upstream body in bytes (default UPSTREAM_MAX_BYTES) */
  maxBytes?: number;
  /** start the periodic refresh (default true) */
  refresh?: boolean;
  /** sync every source at start (default true); the `catalog` command syncs what it is asked to */
  initialSync?: boolean;
  /**
   * Follow mode (WEB_CONCURRENCY > 1, every server process but the syncing one, ADR 0081):
   * never call an upstream and never generate the sample data; serve the snapshots the
   * syncing process writes, adopting each one when its file changes (checked every
   * `followIntervalMs`). `refresh` and `initialSync` do not apply.
   */
  follow?: boolean;
  /** how often a follower looks for new snapshots (default 2 s; tests shorten it) */
  followIntervalMs?: number;
}

interface SourceResult<T> {
  data: T;
  /** set when the source reports the data has not changed since the last sync */
  unchanged?: boolean;
  /** size:mtime of the file read, recorded only once the data is accepted */
  stamp?: string;
  /**
   * A source that writes its snapshot as it reads (albums, ADR 0082): the fingerprint is
   * known, commit() puts the written snapshot in place, discard() drops it and its data.
   */
  staged?: { fingerprint: string; savedAt: string; commit(): Promise<void>; discard(): Promise<void> };
}

interface SourceDef<T> {
  name: CatalogSourceName;
  location: string;
  /** a local file: cheap to read, so start-up may wait for it */
  local: boolean;
  fetch(): Promise<SourceResult<T> | undefined>;
  count(data: T): number;
  /** Reads its stored snapshot itself (albums: as a stream); `accept` may decline it from its header. */
  readSnapshot?(accept: (meta: SnapshotMeta) => boolean): Promise<StoredSnapshot<T> | undefined>;
  /** Releases data that is no longer served (albums: the snapshot file the table reads). */
  release?(data: T): void;
}

const DETAIL_CONCURRENCY = 4;
/** A follower's look for new snapshots: a few stat calls, so a short delay costs nothing. */
const FOLLOW_INTERVAL_MS = 2_000;

export async function startCatalog(deps: CatalogDeps): Promise<CatalogService> {
  const { config, logger } = deps;
  const log = logger.child({ component: "catalog" });
  const sample = samplePaths(config.DATA_DIR);
  const filmApi = Boolean(config.FILM_API_URL && config.FILM_API_EMAIL && config.FILM_API_PASSWORD);
  const musicApi = Boolean(config.MUSIC_API_URL && config.MUSIC_API_USERNAME && config.MUSIC_API_PASSWORD);
  const usesSample = !config.ALBUMS_URL || !config.CHANNELS_URL || (!filmApi && !config.FILMS_URL) || !musicApi;
  // issue #7: every upstream read is bounded in time and size (tests pass smaller values)
  const requestOpts = {
    retry: deps.retry,
    timeoutMs: deps.timeoutMs ?? config.UPSTREAM_TIMEOUT_SECONDS * 1000,
    maxBytes: deps.maxBytes ?? config.UPSTREAM_MAX_BYTES,
  };

  // A follower never writes the sample data: the syncing process does, and the follower
  // adopts the snapshots made from it.
  if (usesSample && !deps.follow) {
    try {
      await ensureSampleData(config.DATA_DIR, { logger: log });
    } catch (error) {
      log.error({ err: error }, "could not generate the sample catalog");
    }
  }

  const store = new SnapshotStore(config.DATA_DIR);

  // ---- state ------------------------------------------------------------------------------
  const data = {
    albums: AlbumTable.empty(),
    films: [] as Film[],
    channels: [] as Channel[],
    singles: [] as Single[],
    genres: [] as string[],
  };
  const fingerprints = new Map<CatalogSourceName, string>();
  const statuses = new Map<CatalogSourceName, CatalogSourceStatus>();
  const details = new Map<string, ReleaseDetail>();
  const subGenreCache = new Map<string, string[]>();
  let version = 0;
  let updatedAt = new Date(0).toISOString();
  let current: ServedSnapshot | undefined;

  const rebuild = () => {
    version++;
    current = undefined;
  };

  // ---- sources ----------------------------------------------------------------------------
  /** File sources are re-read only when their size or mtime changed. */
  const fileStamps = new Map<CatalogSourceName, string>();
  /** Set while a forced sync runs: the file-stamp shortcut is skipped. */
  const forcing = new Set<CatalogSourceName>();
  /** A file source's size:mtime (undefined over HTTP, or when it cannot be had); null when unchanged. */
  const fileStamp = async (name: CatalogSourceName, location: string): Promise<string | undefined | null> => {
    if (isHttpSource(location)) return undefined;
    const stat = await fsp.stat(sourceFile(location)).catch(() => undefined);
    const stamp = stat ? `${stat.size}:${stat.mtimeMs}` : "";
    if (stamp && !forcing.has(name) && fileStamps.get(name) === stamp && fingerprints.has(name)) return null;
    return stamp || undefined;
  };
  const readList = async (name: CatalogSourceName, location: string): Promise<{ raw: unknown; stamp?: string } | undefined> => {
    const stamp = await fileStamp(name, location);
    if (stamp === null) return undefined;
    return { raw: await readJsonSource(location, requestOpts), stamp };
  };

  const logDropped = (name: string, location: string, nulls: number, invalid: number) => {
    if (invalid) log.warn({ source: name, location, invalid }, "dropped invalid catalog entries");
    if (nulls) log.debug({ source: name, location, nulls }, "discarded null catalog entries");
  };

  /**
   * parseList, plus issue #7: a list whose entries all fail validation is a fault of the
   * upstream, not an empty catalog, so it is an error (the snapshot is kept), even when forced.
   */
  const checkList = (name: CatalogSourceName, location: string, list: { count: number; nulls: number; invalid: number }) => {
    logDropped(name, location, list.nulls, list.invalid);
    if (!list.count && list.invalid) {
      throw new PayloadError(`none of the ${list.invalid} entries from ${location} is valid`, location);
    }
  };
  const validList = <T>(
    name: CatalogSourceName,
    raw: unknown,
    schema: Parameters<typeof parseList<T>>[1],
    location: string,
  ): T[] => {
    const list = parseList(raw, schema, location);
    checkList(name, location, { count: list.items.length, nulls: list.nulls, invalid: list.invalid });
    return list.items;
  };

  const albumsLocation = config.ALBUMS_URL ?? sample.albums;
  const albumsSnapshotFile = store.file("albums");
  /**
   * The album list is read as a stream and written to a new snapshot file as it is validated,
   * one entry at a time (ADR 0082): at 250,000 albums the whole list in memory — text, parsed
   * tree and validated copy — was over a gigabyte. The table built alongside keeps each
   * album's byte range in that file; the hold-back rules (ADR 0074) then decide, as for any
   * source, whether the new snapshot replaces the served one or is discarded.
   */
  const albumsSource: SourceDef<AlbumTable> = {
    name: "albums",
    location: albumsLocation,
    local: !isHttpSource(albumsLocation),
    async fetch() {
      const stamp = await fileStamp("albums", albumsLocation);
      if (stamp === null) return { data: data.albums, unchanged: true };
      return readJsonList(albumsLocation, requestOpts, async (entries) => {
        const writer = await AlbumSnapshotWriter.create(albumsSnapshotFile, { savedAt: new Date().toISOString(), source: albumsLocation, stamp });
        try {
          const nextId = uniqueIds();
          let nulls = 0;
          let invalid = 0;
          let oversized = 0;
          for await (const entry of entries) {
            if ("oversized" in entry) {
              oversized++;
              continue;
            }
            if (entry.value == null) {
              nulls++;
              continue;
            }
            const parsed = albumEntrySchema.safeParse(entry.value);
            if (parsed.success) await writer.push(reshapeAlbum(parsed.data, nextId));
            else invalid++;
          }
          if (oversized) log.warn({ source: "albums", location: albumsLocation, oversized, maxItemChars: MAX_ITEM_CHARS }, "dropped catalog entries over the size bound");
          checkList("albums", albumsLocation, { count: writer.count, nulls, invalid: invalid + oversized });
          const { table, fingerprint } = await writer.finish();
          return {
            data: table,
            stamp,
            staged: {
              fingerprint,
              savedAt: writer.meta.savedAt,
              commit: () => writer.commit(),
              discard: async () => {
                await table.close();
                await writer.discard();
              },
            },
          };
        } catch (error) {
          await writer.discard();
          throw error;
        }
      });
    },
    count: (d) => d.length,
    async readSnapshot(accept) {
      const read = await readAlbumSnapshot(albumsSnapshotFile, accept);
      return read && { ...read.meta, data: read.table };
    },
    release: (table) => void table.close(),
  };

  const channelsLocation = config.CHANNELS_URL ?? sample.channels;
  const channelsSource: SourceDef<Channel[]> = {
    name: "channels",
    location: channelsLocation,
    local: !isHttpSource(channelsLocation),
    async fetch() {
      const read = await readList("channels", channelsLocation);
      if (!read) return { data: data.channels, unchanged: true };
      return { data: reshapeChannels(validList("channels", read.raw, rawChannelSchema, channelsLocation)), stamp: read.stamp };
    },
    count: (d) => d.length,
  };

  const filmRecords = (raw: unknown[]) =>
    raw.flatMap((item) =>
      item && typeof item === "object" && (item as { film_id?: unknown }).film_id != null
        ? [{ ...(item as Record<string, unknown>), film_id: String((item as { film_id: unknown }).film_id) }]
        : [],
    );
  const toFilms = (raw: unknown, location: string): Film[] => {
    // spec §4 "Films": only 'completed' films are shown
    return validList("films", raw, rawFilmSchema, location).map(reshapeFilm).filter(isCompletedFilm);
  };
  const filmClient = filmApi
    ? new FilmProviderClient({
        baseUrl: config.FILM_API_URL!,
        email: config.FILM_API_EMAIL!,
        password: config.FILM_API_PASSWORD!,
        ...requestOpts,
      })
    : undefined;
  const filmsLocation = filmApi ? config.FILM_API_URL! : (config.FILMS_URL ?? sample.films);
  const filmsSource: SourceDef<Film[]> = {
    name: "films",
    location: filmsLocation,
    local: !filmApi && !isHttpSource(filmsLocation),
    async fetch() {
      if (filmClient) {
        // spec §7: both lists, merged by film_id (catalog items win)
        const catalogItems = await filmClient.catalogItems();
        const detailItems = await filmClient.detailItems();
        return { data: toFilms(mergeFilmLists(filmRecords(catalogItems), filmRecords(detailItems)), filmsLocation) };
      }
      const read = await readList("films", filmsLocation);
      if (!read) return { data: data.films, unchanged: true };
      return { data: toFilms(read.raw, filmsLocation), stamp: read.stamp };
    },
    count: (d) => d.length,
  };

  const music: MusicSource = musicApi
    ? apiMusicSource(
        new MusicApiClient({
          baseUrl: config.MUSIC_API_URL!,
          username: config.MUSIC_API_USERNAME!,
          password: config.MUSIC_API_PASSWORD!,
          clientId: config.MUSIC_API_CLIENT_ID,
          clientSecret: config.MUSIC_API_CLIENT_SECRET,
          scope: config.MUSIC_API_SCOPE,
          grantType: config.MUSIC_API_GRANT_TYPE,
          appSource: config.MUSIC_API_APP_SOURCE,
          ...requestOpts,
        }),
        config.MUSIC_API_URL!,
      )
    : sampleMusicSource(sample.musicApi);

  /** Fetches and caches one release detail. Returns undefined when it cannot be had. */
  const fetchDetail = async (id: string, retry?: RetryOptions): Promise<ReleaseDetail | undefined> => {
    const raw = await music.releaseDetail(id, { retry });
    const parsed = rawReleaseDetailSchema.safeParse(raw);
    if (!parsed.success || !raw || typeof raw !== "object") {
      log.warn({ submissionId: id }, "release detail has an unexpected shape");
      return undefined;
    }
    const detail = reshapeReleaseDetail(parsed.data);
    // the response may omit its own id; the one we asked for is authoritative
    if (!detail.submissionId) detail.submissionId = id;
    details.set(id, detail);
    return detail;
  };

  const saveDetails = () =>
    store
      .write({
        name: "release-details",
        savedAt: new Date().toISOString(),
        source: music.location,
        fingerprint: "",
        data: Object.fromEntries(details),
      })
      .catch((error) => log.error({ err: error }, "could not save the release-detail snapshot"));

  /** Release details are fetched once per submission and cached (memory + snapshot on disk). */
  const prefetchDetails = async (singles: Single[]) => {
    const missing = singles.filter((s) => !details.has(s.id)).map((s) => s.id);
    if (!missing.length) return 0;
    let failed = 0;
    let added = 0;
    const queue = [...missing];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        try {
          if (await fetchDetail(id, deps.retry)) added++;
        } catch (error) {
          failed++;
          log.debug({ submissionId: id, err: describe(error) }, "release detail not fetched");
        }
      }
    };
    await Promise.all(Array.from({ length: DETAIL_CONCURRENCY }, worker));
    if (failed) log.warn({ failed, of: missing.length }, "some release details could not be fetched; retried at the next sync");
    if (added) await saveDetails();
    return added;
  };

  const singlesSource: SourceDef<Single[]> = {
    name: "singles",
    location: music.location,
    local: music.kind === "sample",
    async fetch() {
      const raw = await music.deliveredSubmissions();
      const items = validList("singles", raw, rawSubmissionSchema, music.location);
      const excluded = [...config.MUSIC_API_EXCLUDED_USER_IDS, ...(await music.extraExcludedUserIds())];
      const singles = selectVisibleSingles(items, excluded).map(reshapeSingle);
      // spec §8: "No singles data received from API"
      if (!singles.length) log.warn({ location: music.location }, "No singles data received from API");
      const added = await prefetchDetails(singles);
      if (added) rebuild();
      return { data: singles };
    },
    count: (d) => d.length,
  };

  const saveSubGenres = () =>
    store
      .write({
        name: "sub-genres",
        savedAt: new Date().toISOString(),
        source: music.location,
        fingerprint: "",
        data: Object.fromEntries(subGenreCache),
      })
      .catch((error) => log.error({ err: error }, "could not save the sub-genre snapshot"));

  /** One sub-genre call. A response that is not a list: warning, empty list (spec §8). */
  const loadSubGenres = async (genre: string, retry?: RetryOptions): Promise<string[] | undefined> => {
    const raw = await music.subGenres(genre, { retry });
    const names = genreNames(raw);
    if (names === null) {
      log.warn({ genre }, "sub-genre response is not a list");
      return [];
    }
    subGenreCache.set(genre, names);
    return names;
  };

  const genresSource: SourceDef<string[]> = {
    name: "genres",
    location: music.location,
    local: music.kind === "sample",
    async fetch() {
      const names = genreNames(await music.genres());
      if (names === null) {
        // spec §8: a warning and an empty list; a previous good list is kept (see ADR 0051)
        log.warn({ location: music.location }, "genre response is not a list");
        return { data: fingerprints.has("genres") ? data.genres : [], unchanged: fingerprints.has("genres") };
      }
      // the sub-genres of every genre too, so the singles filter never waits on the API
      let changed = false;
      for (const genre of names) {
        try {
          const before = JSON.stringify(subGenreCache.get(genre));
          const after = await loadSubGenres(genre, deps.retry);
          if (JSON.stringify(after) !== before) changed = true;
        } catch (error) {
          log.warn({ genre, err: describe(error) }, "sub-genres not fetched");
        }
      }
      if (changed) await saveSubGenres();
      return { data: names };
    },
    count: (d) => d.length,
  };

  const sources = [albumsSource, filmsSource, channelsSource, singlesSource, genresSource] as SourceDef<unknown>[];
  for (const s of sources) statuses.set(s.name, { name: s.name, location: s.location, ok: false, count: 0 });

  const assign = (def: SourceDef<unknown>, value: unknown) => {
    const before = (data as Record<CatalogSourceName, unknown>)[def.name];
    (data as Record<CatalogSourceName, unknown>)[def.name] = value;
    if (before !== value) def.release?.(before);
  };

  /**
   * Issue #7 "Upstream faults keep the last good data": an answer that would empty a source,
   * or shrink it by more than CATALOG_MAX_SHRINK, is held back while a snapshot with data
   * exists. A fresh catalog (no snapshot yet) may be empty. Returns why, or undefined.
   */
  const holdBackReason = (def: SourceDef<unknown>, next: number): string | undefined => {
    if (!fingerprints.has(def.name)) return undefined;
    const kept = def.count((data as Record<CatalogSourceName, unknown>)[def.name]);
    if (kept === 0) return undefined;
    if (next === 0) return `the upstream answered an empty list; the snapshot has ${kept}`;
    if (next < kept * (1 - config.CATALOG_MAX_SHRINK)) {
      return `the list shrank from ${kept} to ${next}, by more than CATALOG_MAX_SHRINK (${Math.round(config.CATALOG_MAX_SHRINK * 100)} %)`;
    }
    return undefined;
  };

  // ---- snapshots written by another process -------------------------------------------------
  /** size:mtime of each snapshot file as this process last wrote or read it. */
  const snapshotStamps = new Map<string, string>();
  const snapshotStamp = async (name: string) => {
    const stat = await fsp.stat(store.file(name)).catch(() => undefined);
    return stat ? `${stat.size}:${stat.mtimeMs}` : "";
  };
  /**
   * When the snapshot file changed under us — the operator's `npm run catalog -- sync --force`
   * accepted an answer this server holds back, or another server process synced — adopt it
   * before syncing, so the forced data is served without a restart and the guard compares the
   * next answer with it. One stat per source per sync.
   */
  const adoptChangedSnapshot = async (def: SourceDef<unknown>) => {
    const stamp = await snapshotStamp(def.name);
    if (!stamp || stamp === snapshotStamps.get(def.name)) return;
    snapshotStamps.set(def.name, stamp);
    const stored = await readStored(def, (meta) => meta.source === def.location && meta.fingerprint !== fingerprints.get(def.name));
    if (!stored || stored.source !== def.location || stored.fingerprint === fingerprints.get(def.name)) return;
    serveStored(def, stored);
    rebuild();
    log.info({ source: def.name, count: statuses.get(def.name)!.count, savedAt: stored.savedAt }, "catalog snapshot replaced by another process; serving it");
  };

  /** A source's stored snapshot: read by the source itself (albums, as a stream) or whole. */
  const readStored = (def: SourceDef<unknown>, accept: (meta: SnapshotMeta) => boolean) =>
    def.readSnapshot ? def.readSnapshot(accept) : store.read<unknown>(def.name);

  /** Serves a source's stored snapshot (at start-up, or one another process wrote). */
  const serveStored = (def: SourceDef<unknown>, stored: StoredSnapshot<unknown>) => {
    assign(def, stored.data);
    fingerprints.set(def.name, stored.fingerprint);
    if (stored.stamp) fileStamps.set(def.name, stored.stamp);
    else fileStamps.delete(def.name);
    if (stored.savedAt > updatedAt) updatedAt = stored.savedAt;
    const status = statuses.get(def.name)!;
    status.updatedAt = stored.savedAt;
    status.count = def.count(stored.data);
  };

  /**
   * Loads the release details or sub-genres snapshot of this music source into its cache (at
   * start-up, and in follow mode whenever the syncing process rewrote it). True when loaded.
   */
  const loadLookups = async (name: "release-details" | "sub-genres"): Promise<boolean> => {
    const stored = await store.read<Record<string, unknown>>(name);
    if (stored?.source !== music.location) return false;
    const cache: Map<string, unknown> = name === "release-details" ? details : subGenreCache;
    cache.clear();
    for (const [key, value] of Object.entries(stored.data)) cache.set(key, value);
    return true;
  };

  /**
   * Follow mode: the release details and sub-genres the syncing process fetched (it fetches
   * them for every visible single and every genre), adopted when their snapshot changes.
   */
  const adoptChangedLookups = async () => {
    for (const name of ["release-details", "sub-genres"] as const) {
      const stamp = await snapshotStamp(name);
      if (!stamp || stamp === snapshotStamps.get(name)) continue;
      snapshotStamps.set(name, stamp);
      // details are part of each single in snapshot(); sub-genres are looked up per request
      if ((await loadLookups(name)) && name === "release-details") rebuild();
    }
  };

  // ---- sync -------------------------------------------------------------------------------
  const running = new Map<CatalogSourceName, Promise<void>>();
  const syncSource = (def: SourceDef<unknown>, force = false): Promise<void> => {
    const inFlight = running.get(def.name);
    // a forced sync must read afresh: it waits for the running one, then runs its own
    if (inFlight) return force ? inFlight.then(() => syncSource(def, true)) : inFlight;
    const run = (async () => {
      const status = statuses.get(def.name)!;
      status.lastAttemptAt = new Date().toISOString();
      if (force) forcing.add(def.name);
      try {
        await adoptChangedSnapshot(def);
        const result = await def.fetch();
        const heldBack = result && !result.unchanged && !force ? holdBackReason(def, def.count(result.data)) : undefined;
        if (result && heldBack) {
          await result.staged?.discard();
          status.ok = false;
          status.error = `Held back: ${heldBack}. Serving the last snapshot; \`npm run catalog -- sync --force --source ${def.name}\` accepts it.`;
          log.error(
            {
              source: def.name,
              location: def.location,
              count: def.count(result.data),
              snapshotCount: status.count,
              maxShrink: config.CATALOG_MAX_SHRINK,
              err: heldBack,
              servingSnapshotFrom: status.updatedAt ?? null,
            },
            "catalog source answer held back; serving its last snapshot",
          );
          return;
        }
        if (result && !result.unchanged) {
          if (result.stamp) fileStamps.set(def.name, result.stamp);
          const { staged } = result;
          const json = staged ? undefined : JSON.stringify(result.data);
          const fingerprint = staged ? staged.fingerprint : crypto.createHash("sha1").update(json!).digest("hex");
          const savedAt = staged ? staged.savedAt : new Date().toISOString();
          if (fingerprint !== fingerprints.get(def.name)) {
            fingerprints.set(def.name, fingerprint);
            assign(def, result.data);
            rebuild();
            const meta = { savedAt, source: def.location, fingerprint, stamp: fileStamps.get(def.name) };
            await (staged ? staged.commit() : store.writeJson(def.name, meta, json!))
              .then(async () => snapshotStamps.set(def.name, await snapshotStamp(def.name)))
              .catch((error) => log.error({ err: error, source: def.name }, "could not save the catalog snapshot"));
          } else {
            await staged?.discard();
          }
          status.updatedAt = savedAt;
          if (savedAt > updatedAt) {
            updatedAt = savedAt;
            current = undefined;
          }
        }
        status.ok = true;
        status.error = undefined;
        status.count = def.count((data as Record<CatalogSourceName, unknown>)[def.name]);
        log.info({ source: def.name, count: status.count, changed: Boolean(result && !result.unchanged), forced: force || undefined }, "catalog source synced");
      } catch (error) {
        status.ok = false;
        status.error = describe(error);
        log.error(
          {
            source: def.name,
            location: def.location,
            status: error instanceof UpstreamError ? error.status : undefined,
            err: status.error,
            servingSnapshotFrom: status.updatedAt ?? null,
          },
          "catalog source failed; serving its last snapshot",
        );
      } finally {
        forcing.delete(def.name);
        running.delete(def.name);
      }
    })();
    running.set(def.name, run);
    return run;
  };

  const syncAll = async (opts: SyncOptions = {}) => {
    const chosen = opts.sources ? sources.filter((s) => opts.sources!.includes(s.name)) : sources;
    await Promise.all(chosen.map((def) => syncSource(def, opts.force ?? false)));
  };

  // ---- start: snapshots first, so pages never wait ----------------------------------------
  const snapshotLoads = sources.map(async (def) => {
    snapshotStamps.set(def.name, await snapshotStamp(def.name));
    const stored = await readStored(def, (meta) => meta.source === def.location);
    if (!stored || stored.source !== def.location) return false;
    serveStored(def, stored);
    return true;
  });
  const loaded = await Promise.all(snapshotLoads);
  for (const name of ["release-details", "sub-genres"] as const) {
    snapshotStamps.set(name, await snapshotStamp(name));
    await loadLookups(name);
  }
  if (loaded.some(Boolean)) {
    rebuild();
    log.info({ sources: sources.filter((_, i) => loaded[i]).map((s) => s.name) }, "catalog snapshots loaded");
  }

  // Local files are read before the server listens when there is no snapshot yet (first
  // start); everything else syncs in the background.
  if (deps.initialSync !== false && !deps.follow) {
    const initial = sources.map((def, i) => ({ wait: def.local && !loaded[i], run: syncSource(def) }));
    await Promise.all(initial.filter((x) => x.wait).map((x) => x.run));
  }

  let timer: NodeJS.Timeout | undefined;
  if (deps.refresh !== false && !deps.follow) {
    timer = setInterval(() => void syncAll(), config.CATALOG_REFRESH_SECONDS * 1000);
    timer.unref();
  }

  // Follow mode: one look at a time (adopting a large snapshot takes a while to parse), the
  // next one scheduled when it is done.
  let following: Promise<void> | undefined;
  let followTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  const followOnce = (): Promise<void> =>
    (following ??= (async () => {
      try {
        for (const def of sources) await adoptChangedSnapshot(def);
        await adoptChangedLookups();
      } catch (error) {
        log.warn({ err: describe(error) }, "catalog: could not adopt the syncing process's snapshots; trying again shortly");
      } finally {
        following = undefined;
      }
    })());
  const scheduleFollow = () => {
    if (stopped) return;
    followTimer = setTimeout(() => void followOnce().then(scheduleFollow), deps.followIntervalMs ?? FOLLOW_INTERVAL_MS);
    followTimer.unref();
  };
  if (deps.follow) {
    log.info({ intervalMs: deps.followIntervalMs ?? FOLLOW_INTERVAL_MS }, "catalog: following the snapshots another process syncs");
    scheduleFollow();
  }

  const visibleSingleIds = () => new Set(data.singles.map((s) => s.id));

  return {
    snapshot(): ServedSnapshot {
      current ??= {
        albums: data.albums,
        films: data.films,
        singles: data.singles.map((s) => withDetail(s, details.get(s.id))),
        channels: data.channels,
        genres: data.genres,
        version,
        updatedAt,
      };
      return current;
    },
    async subGenres(genre) {
      const cached = subGenreCache.get(genre);
      if (cached) return cached;
      // a follower never calls the upstream: the syncing process fetches every genre's list
      if (deps.follow || !data.genres.includes(genre)) return [];
      try {
        const names = await loadSubGenres(genre, { retries: 0 });
        if (names?.length) void saveSubGenres();
        return names ?? [];
      } catch (error) {
        log.warn({ genre, err: describe(error) }, "sub-genres not fetched");
        return [];
      }
    },
    async releaseDetail(submissionId) {
      const cached = details.get(submissionId);
      if (cached) return cached;
      // only visible singles: an id of an excluded or unknown submission is never looked up;
      // a follower never looks up (the syncing process fetches every visible single's detail)
      if (deps.follow || !visibleSingleIds().has(submissionId)) return null;
      try {
        const detail = await fetchDetail(submissionId, { retries: 0 });
        if (detail) {
          current = undefined;
          rebuild();
          void saveDetails();
        }
        return detail ?? null;
      } catch (error) {
        log.warn({ submissionId, err: describe(error) }, "release detail not fetched");
        return null;
      }
    },
    mediaUrl: (key, kind) => buildMediaUrl(key, kind === "film" ? config.FILM_MEDIA_URL : config.MEDIA_URL),
    status: () => sources.map((s) => ({ ...statuses.get(s.name)! })),
    // a follower's "sync" is a look at the snapshots: it never calls an upstream
    syncNow: (opts) => (deps.follow ? followOnce() : syncAll(opts)),
    cacheBytes: config.CATALOG_CACHE_MAX_BYTES,
    async close() {
      stopped = true;
      if (timer) clearInterval(timer);
      clearTimeout(followTimer);
      await following;
      // a sync stuck on a slow upstream must not hold up shutdown for long
      await Promise.race([Promise.allSettled([...running.values()]), new Promise((r) => setTimeout(r, 2000).unref())]);
      await data.albums.close();
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

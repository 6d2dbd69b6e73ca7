import crypto from "node:crypto";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { Album, Channel, Film, ReleaseDetail, Single } from "../../lib/catalog/types.ts";
import type { AlbumTable } from "./album-table.ts";
import { FilmProviderClient } from "./film-provider/client.ts";
import { mediaUrl as buildMediaUrl } from "./media-url.ts";
import { MusicApiClient } from "./music-api/client.ts";
import { apiMusicSource, sampleMusicSource } from "./music-api/source.ts";
import type { RetryOptions } from "./retry.ts";
import { CatalogRunner, type CatalogChange, type SourceStatus, type Stage, type SyncOptions as RunnerSyncOptions } from "./runner.ts";
import { ensureSampleData, SampleSpaceError, samplePaths, usesSampleData } from "./sample/ensure.ts";
import { SnapshotStore } from "./snapshots.ts";
import { albumsSource } from "./sources/albums.ts";
import { channelsSource } from "./sources/channels.ts";
import { filmsSource } from "./sources/films.ts";
import { genresSource } from "./sources/genres.ts";
import { MusicLookups } from "./sources/music-lookups.ts";
import { singlesSource } from "./sources/singles.ts";
import type { RequestOptions } from "./sources/source.ts";
import type { SharedPostgres } from "../db/postgres-pool.ts";
import { openCatalogCluster, POLL_MS, type CatalogCluster } from "./cluster-sync.ts";

/**
 * The catalog as the rest of the server sees it (DESIGN.md §1). Sources are synced in the
 * background into snapshots; reading never waits on an upstream. This file composes the
 * five sources (sources/*.ts) and the runner that syncs them (runner.ts, ADR 0084) into the
 * snapshot the index and the pages read.
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
  /** singles genre list (product-rules §7 api/Genre/), names only */
  genres: string[];
  /** increments on every change, so derived indexes know when to rebuild */
  version: number;
  /**
   * What is served, by content: equal on every machine that serves the same data (a published
   * cluster version, or the same local files), unlike `version`, which counts this process's
   * changes. The shared cache's validators name it (server/shared-cache.ts, ADR 0157 amended).
   * Absent in fixtures: `version` stands in.
   */
  contentId?: string;
  /** ISO time of the newest data served: the last sync of any source that changed it */
  updatedAt: string;
}

export type CatalogSourceName = "albums" | "films" | "channels" | "singles" | "genres";

/** What an operator wants to know about each source (logged, and available to a health page). */
export type CatalogSourceStatus = SourceStatus<CatalogSourceName>;

/** A change of the served catalog: the version moved (runner.ts). */
export type CatalogChangeEvent = CatalogChange<CatalogSourceName>;

/** The data of each source, as the runner serves it. */
export interface CatalogData {
  albums: AlbumTable;
  films: Film[];
  channels: Channel[];
  singles: Single[];
  genres: string[];
}

/** Work run after a change of some sources, off the sync (ADR 0084 "Stages"; audio analysis, issue #9). */
export type CatalogStage = Stage<CatalogData>;

/** The snapshot the service serves: its albums are always a table. */
export interface ServedSnapshot extends CatalogSnapshot {
  albums: AlbumTable;
}

export interface CatalogService {
  /** The current data. Never waits on an upstream. The same object until the version moves. */
  snapshot(): ServedSnapshot;
  /** Sub-genres of a singles genre (product-rules §7 api/Genre/Get/SubGenres), cached. */
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
  /**
   * Called after every change of the served data (the version moved), synchronously: defer
   * heavy work. Returns the unsubscribe. The index warm-up (services.ts) listens here.
   */
  onChange(listener: (change: CatalogChangeEvent) => void): () => void;
  /** Runs `stage` after each change of its sources, in the background (ADR 0084). Returns its removal. */
  addStage(stage: CatalogStage): () => void;
  /** Bytes the index may keep in cached match lists (CATALOG_CACHE_MAX_BYTES). */
  readonly cacheBytes: number;
  /**
   * This process's membership of the cluster's one sync (ADR 0157), when it has one: the track
   * index publishes its figures through it while it holds the lease (ADR 0162 amended).
   */
  readonly cluster?: Pick<CatalogCluster, "leads" | "publishIndex">;
  close(): Promise<void>;
}

export type SyncOptions = RunnerSyncOptions<CatalogSourceName>;

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
  /**
   * The process's PostgreSQL pool (DATABASE_URL): with CATALOG_CLUSTER_SYNC, one process of the
   * cluster syncs and every machine serves what it publishes (issue #42, ADR 0157). Not in follow mode.
   */
  postgres?: SharedPostgres;
}

export async function startCatalog(deps: CatalogDeps): Promise<CatalogService> {
  const { config, logger } = deps;
  const log = logger.child({ component: "catalog" });
  const sample = samplePaths(config.DATA_DIR);
  const filmApi = Boolean(config.FILM_API_URL && config.FILM_API_EMAIL && config.FILM_API_PASSWORD);
  const musicApi = Boolean(config.MUSIC_API_URL && config.MUSIC_API_USERNAME && config.MUSIC_API_PASSWORD);
  const usesSample = usesSampleData(config);
  const follow = deps.follow ?? false;
  // issue #7: every upstream read is bounded in time and size (tests pass smaller values)
  const request: RequestOptions = {
    retry: deps.retry,
    timeoutMs: deps.timeoutMs ?? config.UPSTREAM_TIMEOUT_SECONDS * 1000,
    maxBytes: deps.maxBytes ?? config.UPSTREAM_MAX_BYTES,
  };

  // A follower never writes the sample data: the syncing process does, and the follower
  // adopts the snapshots made from it.
  if (usesSample && !follow) {
    try {
      await ensureSampleData(config.DATA_DIR, { logger: log });
    } catch (error) {
      // a first start on a full disk stops with the reason (the server prints it, exit 1)
      if (error instanceof SampleSpaceError) throw error;
      log.error({ err: error }, "could not generate the sample catalog");
    }
  }

  const store = new SnapshotStore(config.DATA_DIR);
  const music = musicApi
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
          ...request,
        }),
        config.MUSIC_API_URL!,
      )
    : sampleMusicSource(sample.musicApi);
  const lookups = new MusicLookups({
    music,
    store,
    log,
    retry: deps.retry,
    follow,
    // a release detail is part of the singles served (withDetails)
    onDetailsChanged: () => runner.touch(["singles"], "lookup"),
  });
  const filmClient = filmApi
    ? new FilmProviderClient({ baseUrl: config.FILM_API_URL!, email: config.FILM_API_EMAIL!, password: config.FILM_API_PASSWORD!, ...request })
    : undefined;

  const cluster = deps.postgres && config.CATALOG_CLUSTER_SYNC && !follow ? await joinCluster(deps.postgres, store, config, log) : undefined;

  const runner: CatalogRunner<CatalogData> = new CatalogRunner<CatalogData>({
    // status() and `npm run catalog -- status` list them in this order
    sources: {
      albums: albumsSource({ location: config.ALBUMS_URL ?? sample.albums, snapshotFile: store.file("albums"), request, log }),
      films: filmsSource({ location: filmApi ? config.FILM_API_URL! : (config.FILMS_URL ?? sample.films), client: filmClient, request, log }),
      channels: channelsSource({ location: config.CHANNELS_URL ?? sample.channels, request, log }),
      singles: singlesSource({ music, lookups, excludedUserIds: config.MUSIC_API_EXCLUDED_USER_IDS, log }),
      genres: genresSource({ music, lookups, log }),
    },
    lookups: [
      // details are part of each single in snapshot(); sub-genres are looked up per request
      { name: "release-details", load: () => lookups.load("release-details"), partOf: ["singles"], local: music.kind === "sample" },
      { name: "sub-genres", load: () => lookups.load("sub-genres"), partOf: [], local: music.kind === "sample" },
    ],
    store,
    log,
    maxShrink: config.CATALOG_MAX_SHRINK,
    follow,
    followIntervalMs: deps.followIntervalMs,
    cluster,
    // renewed three times within the lease, and never less often than a look for a new version
    clusterPollMs: Math.min(POLL_MS, (config.CATALOG_LEASE_SECONDS * 1000) / 3),
  });
  await runner.start({
    initialSync: deps.initialSync,
    refreshMs: deps.refresh !== false ? config.CATALOG_REFRESH_SECONDS * 1000 : undefined,
  });

  // the served snapshot: one object per version, so an unchanged sync moves nothing
  let current: ServedSnapshot | undefined;
  const snapshot = (): ServedSnapshot => {
    if (current?.version === runner.version) return current;
    const data = runner.data();
    const singles = lookups.withDetails(data.singles);
    // the sources' content hashes, and the singles as served: release details fetched for a
    // visitor's sheet change them without a sync (product-rules §7), on this machine only
    const contentId = crypto.hash("sha1", `${runner.fingerprints().join("|")}|${JSON.stringify(singles)}`, "base64url");
    current = { ...data, singles, version: runner.version, updatedAt: runner.updatedAt, contentId };
    return current;
  };

  return {
    snapshot,
    subGenres: (genre) => lookups.subGenres(genre, runner.get("genres")),
    releaseDetail: (submissionId) => lookups.releaseDetail(submissionId, (id) => runner.get("singles").some((s) => s.id === id)),
    mediaUrl: (key, kind) => buildMediaUrl(key, kind === "film" ? config.FILM_MEDIA_URL : config.MEDIA_URL),
    status: () => runner.status(),
    // a follower's "sync" is a look at the snapshots: it never calls an upstream
    syncNow: (opts) => runner.sync(opts),
    onChange: (listener) => runner.onChange(listener),
    addStage: (stage) => runner.addStage(stage),
    cacheBytes: config.CATALOG_CACHE_MAX_BYTES,
    cluster,
    close: async () => {
      await runner.close();
      await cluster?.close();
    },
  };
}

/**
 * Joins the cluster's one sync (ADR 0157). PostgreSQL unreachable: the machine serves its
 * snapshots and calls no upstream until it answers (each look tries again), so an outage never
 * turns a cluster back into every machine syncing for itself.
 */
function joinCluster(postgres: SharedPostgres, store: SnapshotStore, config: Config, log: Logger): Promise<CatalogCluster> {
  return openCatalogCluster({ postgres, dir: store.dir, log, leaseSeconds: config.CATALOG_LEASE_SECONDS, maxBytes: config.CATALOG_SNAPSHOT_MAX_BYTES });
}

import type { Logger } from "../logger.ts";
import type { CatalogCluster } from "./cluster-sync.ts";
import type { SnapshotStore } from "./snapshots.ts";
import type { SyncSource } from "./sources/source.ts";
/** What the catalog runner (runner.ts) and its stages (stages.ts) say about the served data. */

export type ChangeCause =
  /** start-up read the snapshots on disk */
  | "loaded"
  /** this process synced a source and its answer was new */
  | "sync"
  /** another process (a syncing server, `npm run catalog -- sync --force`) wrote the snapshot */
  | "adopted"
  /** a release detail fetched for a visitor's sheet (it is part of the singles served) */
  | "lookup"
  /** a stage's first run, with the data served when it was added */
  | "added";

export interface CatalogChange<N extends string = string> {
  /** the served version after the change */
  version: number;
  /** the sources whose served data changed */
  sources: readonly N[];
  cause: ChangeCause;
}

/** What an operator wants to know about each source (logged, and printed by `npm run catalog`). */
export interface SourceStatus<N extends string = string> {
  name: N;
  /** a path or URL (no credentials) */
  location: string;
  ok: boolean;
  count: number;
  /** ISO time of the last successful sync (or of the snapshot loaded at start) */
  updatedAt?: string;
  lastAttemptAt?: string;
  /** ISO time this process last synced the source successfully (changed or not); never in follow mode (issue #31 metrics) */
  lastSuccessAt?: string;
  /** syncs of the source that failed or were held back in this process since it started (issue #31 metrics) */
  failedSyncs?: number;
  error?: string;
}

export interface SyncOptions<N extends string = string> {
  /** the operator's `npm run catalog -- sync --force`: accept what the hold-back rules refuse, re-read unchanged files */
  force?: boolean;
  /** default: every source */
  sources?: readonly N[];
}

/** A snapshot that is not a source's but is served with one (release details, sub-genres). */
export interface LookupSnapshot<N extends string = string> {
  /** its snapshot's name */
  name: string;
  /** reads it into its cache; true when it was this configuration's */
  load(): Promise<boolean>;
  /** the sources it is served with: adopting it moves their version */
  partOf: readonly N[];
  /** made from a local file (the sample music API): each machine's own, never published to a cluster (ADR 0157) */
  local?: boolean;
}

export interface RunnerStartOptions {
  /** sync every source now (default true; never in follow mode); local sources without a snapshot are waited for */
  initialSync?: boolean;
  /** sync every source this often (CATALOG_REFRESH_SECONDS); none when undefined, nor in follow mode */
  refreshMs?: number;
}

export type SourceMap<D> = { [K in keyof D & string]: SyncSource<D[K]> };

export interface RunnerOptions<D> {
  /** in status() order; each key is its source's name */
  sources: SourceMap<D>;
  store: SnapshotStore;
  log: Logger;
  /** CATALOG_MAX_SHRINK (ADR 0074) */
  maxShrink: number;
  lookups?: readonly LookupSnapshot<keyof D & string>[];
  /** follow mode (ADR 0081): never load a source, adopt the snapshots another process writes */
  follow?: boolean;
  /** how often a follower looks for new snapshots (default 2 s) */
  followIntervalMs?: number;
  /**
   * Issue #42, ADR 0157 (DATABASE_URL): one sync per cluster. Only the lease's holder syncs each
   * interval and publishes; every machine takes the published versions (cluster-sync.ts).
   */
  cluster?: CatalogCluster;
  /** how often a cluster member renews or tries the lease and looks for a new version (default: cluster-sync.ts POLL_MS) */
  clusterPollMs?: number;
}


/** A source as the runner holds it: its served data and what it knows of it. */
export interface Slot {
  source: SyncSource<unknown>;
  data: unknown;
  /** the served data's fingerprint; undefined until a snapshot or a sync gave it data */
  fingerprint?: string;
  /** the served data's file stamp (file sources) */
  stamp?: string;
  /** size:mtime of its snapshot file as this process last wrote or read it */
  snapshotStamp: string;
  status: SourceStatus;
  running?: Promise<void>;
}

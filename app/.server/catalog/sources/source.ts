import type { Logger } from "../../logger.ts";
import type { SnapshotMeta } from "../album-snapshot.ts";
import { PayloadError } from "../errors.ts";
import type { RetryOptions } from "../retry.ts";
import { parseList } from "../schemas.ts";
import type { StoredSnapshot } from "../snapshots.ts";
import { fileStamp, isHttpSource, readHttpJsonIfChanged, readJsonSource, type ReadSourceOptions } from "./read.ts";

/**
 * One catalog source (ADR 0050, ADR 0084): where its list comes from and how it is read,
 * validated and reshaped. Everything around a load — single-flight, fingerprints, the
 * snapshot file, the hold-back rules (ADR 0074), status, adoption of snapshots another
 * process wrote (ADR 0081) and the change event — is the runner's (runner.ts), the same for
 * every source.
 */
export interface SyncSource<T> {
  /** the snapshot's name (DATA_DIR/catalog/snapshots/<name>.json) and the status' */
  readonly name: string;
  /** a path or URL (no credentials); a snapshot recorded from another location is never served */
  readonly location: string;
  /** a local file: cheap to read, so a first start waits for it before the server listens */
  readonly local: boolean;
  /** what is served before any snapshot or sync */
  empty(): T;
  /** Reads the source. Throws when it cannot (the runner keeps the last good data). */
  load(ctx: LoadContext<T>): Promise<LoadResult<T>>;
  /** entries in the data: the hold-back rules compare it, status() reports it */
  count(data: T): number;
  /** Reads its stored snapshot itself (albums, as a stream); `accept` may decline it from its header. Default: read whole. */
  readSnapshot?(accept: (meta: SnapshotMeta) => boolean): Promise<StoredSnapshot<T> | undefined>;
  /** Releases data no longer served (albums: the snapshot file its table reads). */
  release?(data: T): Promise<void>;
}

export interface LoadContext<T> {
  /** the data served, when it came from a snapshot or a sync; undefined before either */
  readonly current: T | undefined;
  /**
   * The file stamp (size:mtime) of the data served. A file source whose stamp is the same may
   * answer `unchanged` without reading it. Undefined when there is none, or when the operator
   * forces a sync (`--force` re-reads the file).
   */
  readonly stamp: string | undefined;
}

export type LoadResult<T> = Unchanged | Loaded<T>;

/** The source knows its data has not changed (an unchanged file, or an answer it chose to ignore). */
export interface Unchanged {
  unchanged: true;
}

export interface Loaded<T> {
  unchanged?: false;
  data: T;
  /** size:mtime of the file read, kept once the data is accepted */
  stamp?: string;
  /**
   * A source that writes its snapshot as it reads (albums, ADR 0082): the fingerprint is
   * known, commit() puts the written snapshot in place, discard() drops it and its data.
   */
  staged?: StagedSnapshot;
  /**
   * What is served alongside the list changed even if the list did not (the singles' release
   * details, merged into each single): the served snapshot's version moves.
   */
  alsoChanged?: boolean;
}

export interface StagedSnapshot {
  fingerprint: string;
  savedAt: string;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

export const UNCHANGED: Unchanged = { unchanged: true };

/** What every source reads upstreams with (issue #7: bounded in time and size). */
export interface RequestOptions extends ReadSourceOptions {
  retry?: RetryOptions;
  timeoutMs: number;
  maxBytes: number;
}

export interface ListCounts {
  /** entries kept */
  count: number;
  nulls: number;
  invalid: number;
}

/**
 * Logs what validation dropped; and issue #7: a list whose entries all fail validation is a
 * fault of the upstream, not an empty catalog, so it is an error (the snapshot is kept), even
 * when forced.
 */
export function checkList(log: Logger, name: string, location: string, list: ListCounts): void {
  if (list.invalid) log.warn({ source: name, location, invalid: list.invalid }, "dropped invalid catalog entries");
  if (list.nulls) log.debug({ source: name, location, nulls: list.nulls }, "discarded null catalog entries");
  if (!list.count && list.invalid) {
    throw new PayloadError(`none of the ${list.invalid} entries from ${location} is valid`, location);
  }
}

/** parseList (entry by entry, product-rules §3), then checkList. */
export function validList<T>(log: Logger, name: string, raw: unknown, schema: Parameters<typeof parseList<T>>[1], location: string): T[] {
  const list = parseList(raw, schema, location);
  checkList(log, name, location, { count: list.items.length, nulls: list.nulls, invalid: list.invalid });
  return list.items;
}

/**
 * A JSON document from a file or over HTTP; undefined when it is a file whose stamp is the
 * one served (ADR 0050: unchanged files are not parsed again), or an upstream that answers 304
 * to the served data's ETag or Last-Modified (issue #42, ADR 0157).
 */
export async function readJsonIfChanged(
  location: string,
  ctx: LoadContext<unknown>,
  opts: RequestOptions,
): Promise<{ raw: unknown; stamp?: string } | undefined> {
  if (isHttpSource(location)) return readHttpJsonIfChanged(location, ctx.stamp, opts);
  const stamp = await fileStamp(location);
  if (stamp && stamp === ctx.stamp) return undefined;
  return { raw: await readJsonSource(location, opts), stamp };
}

import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { createAnalysisPool, type AnalysisPool } from "../analysis/pool.ts";
import { openAnalysisStore } from "../analysis/stage/open.ts";
import { ReferenceStore, referenceSounding } from "../analysis/stage/references.ts";
import { segmentWindows } from "../analysis/segments.ts";
import { createSubmissionRateLimiter, type SubmissionRateLimiter } from "../leads/rate-limit.ts";
import type { ReferenceSeed } from "../catalog/tracks/track-index.ts";
import type { SharedPostgres } from "../db/postgres-pool.ts";
import type { HeardFile } from "../../lib/catalog/track-query.ts";

/**
 * Search by a reference file (issue #19, DESIGN.md §3c): what the upload route
 * (server/sounds-like.ts) and the `like=ref-…` view share, one per configuration.
 * - the references' store, in the analysis store's database (on the process's one PostgreSQL pool when there is one);
 * - a worker pool of its own (REFERENCE_SLOTS threads, one waiting at most): a visitor's file
 *   never waits behind the catalog's analysis backlog, and when the slots are taken the upload
 *   answers 503 with Retry-After instead of queueing without bound. Each thread's heap is
 *   capped (REFERENCE_HEAP_MB) and each task ends after REFERENCE_ANALYSIS_TIMEOUT_SECONDS;
 * - two per-client budgets, on the form rate limit's store (createSubmissionRateLimiter): files
 *   compared (REFERENCE_RATE_LIMIT) and files refused for what they are (REFERENCE_REFUSED_RATE_LIMIT,
 *   issue #41, ADR 0144); server/sounds-like.ts takes one of each and gives back the one that
 *   does not apply.
 * Built once by createServices (app/.server/services.ts) in the web server, closed with it.
 */

export const REFERENCE_SLOTS = 1;
export const REFERENCE_QUEUE = 1;
export const REFERENCE_HEAP_MB = 256;
/** The section analysed when none is given: the file's first 3 minutes (issue #19). */
export const DEFAULT_SECTION_SECONDS = 180;
/** The longest file accepted, in seconds of audio (an absurd header length is refused before decoding). */
export const REFERENCE_MAX_SECONDS = 20 * 60;

export interface SoundsLikeService {
  references(): Promise<ReferenceStore>;
  pool: AnalysisPool;
  /** files compared (REFERENCE_RATE_LIMIT per REFERENCE_RATE_WINDOW_SECONDS) */
  limiter: SubmissionRateLimiter;
  /** files refused for what they are (REFERENCE_REFUSED_RATE_LIMIT per the same window; issue #41, ADR 0144) */
  refusedLimiter: SubmissionRateLimiter;
  config: Config;
  close(): Promise<void>;
}

/** `opts.postgres`: the process's one PostgreSQL pool (services.ts, issue #42, ADR 0149). */
export function createSoundsLike(config: Config, logger: Logger, opts: { cluster?: boolean; postgres?: SharedPostgres } = {}): SoundsLikeService {
  let store: Promise<Awaited<ReturnType<typeof openAnalysisStore>>> | null = null;
  let references: Promise<ReferenceStore> | null = null;
  const pool = createAnalysisPool({
    concurrency: REFERENCE_SLOTS,
    maxQueue: REFERENCE_QUEUE,
    maxHeapMb: REFERENCE_HEAP_MB,
    maxBytes: config.UPLOAD_LIMIT_BYTES,
    maxSeconds: REFERENCE_MAX_SECONDS,
  });
  const limiter = createSubmissionRateLimiter({
    limit: config.REFERENCE_RATE_LIMIT,
    windowSeconds: config.REFERENCE_RATE_WINDOW_SECONDS,
    ipv6Prefix: config.LEADS_RATE_IPV6_PREFIX,
    databaseUrl: config.DATABASE_URL,
    postgres: opts.postgres,
    cluster: opts.cluster,
    logger,
    keyPrefix: "references",
  });
  const refusedLimiter = createSubmissionRateLimiter({
    limit: config.REFERENCE_REFUSED_RATE_LIMIT,
    windowSeconds: config.REFERENCE_RATE_WINDOW_SECONDS,
    ipv6Prefix: config.LEADS_RATE_IPV6_PREFIX,
    databaseUrl: config.DATABASE_URL,
    cluster: opts.cluster,
    logger,
    keyPrefix: "references-refused",
  });
  return {
    config,
    pool,
    limiter,
    refusedLimiter,
    references() {
      references ??= (store ??= openAnalysisStore(config, { postgres: opts.postgres })).then((s) => new ReferenceStore(s.db));
      // a store that could not be opened is tried again by the next request
      references.catch(() => ((references = null), (store = null)));
      return references;
    },
    async close() {
      await Promise.allSettled([pool.close(), limiter.close(), refusedLimiter.close(), store?.then((s) => s.close())]);
    },
  };
}

/** The seed of a `like=ref-…` view: the stored reference, or why there is none. */
export async function referenceSeed(service: SoundsLikeService, id: string, now = Date.now()): Promise<ReferenceSeed> {
  const found = await (await service.references()).get(id, now);
  if (found.status !== "ready") return { id, status: found.status };
  const { reference } = found;
  const sounding = referenceSounding(reference);
  const segments = segmentWindows(reference.segments);
  // what the site heard (issue #41), for the view's heading and waveform
  const heard: HeardFile | undefined = reference.heard ? { ...reference.heard, bpm: reference.bpm === null ? null : Math.round(reference.bpm), key: reference.key } : undefined;
  return sounding ? { id, status: "ready", sounding, label: reference.label, ...(segments ? { segments } : {}), ...(heard ? { heard } : {}) } : { id, status: "unknown" };
}

import { LRUCache } from "lru-cache";
import { errorMessage } from "../../catalog/errors.ts";
import type { Logger } from "../../logger.ts";
import type { TrackAnalysis } from "../analyze.ts";
import type { AnalysisStore, AnalysisSummary } from "./store.ts";
import type { AnalysisLookup } from "./types.ts";

/**
 * How pages read analyses (types.ts; ADR 0091): from a small in-memory LRU, else from the
 * store, for the keys of the album a page shows. Keys without a result are not remembered (a
 * page asks again, one indexed query), so a result stored by this process or another shows
 * on the next render.
 *
 * `version` moves when the stored results changed, in any process (the analyzer may be a
 * separate `npm run analyzer`, or another server's): reading it looks at the store's marker
 * (the last result number, ADR 0151) at most once per `refreshMs` (2 s, in the background: the
 * getter never waits), and a move also empties the LRU, so no page is rendered from an older
 * result under a newer version. A process that serves the track index also `watch`es: the
 * marker is read every `refreshMs` whether or not visitors come, so a result stored anywhere
 * reaches its like= answers within seconds (issue #42: 10 s p99), not at the first view after
 * it. A command that only reads asks the store nothing in the background.
 */
export interface AnalysisService extends AnalysisLookup {
  /** where the results are (a file, or postgres://host/db), for logs and the operator */
  readonly location: string;
  /** counts, the last hour's rate and the failures (`npm run catalog -- analysis`) */
  summary(opts?: { failures?: number }): Promise<AnalysisSummary>;
  /** Calls `listener` after `version` moved, looking every `refreshMs` from now on; returns the stop. */
  watch(listener: () => void): () => void;
  close(): Promise<void>;
}

export interface LookupOptions {
  logger: Logger;
  /** bytes of stored JSON kept in the LRU (default 8 MiB: about 2,000 tracks' peaks) */
  maxBytes?: number;
  /** how often `version` looks at the store (default 2 s: issue #42's 10 s p99 from store to like=, ADR 0151) */
  refreshMs?: number;
  now?: () => number;
}

export async function createAnalysisLookup(store: AnalysisStore, opts: LookupOptions): Promise<AnalysisService> {
  const log = opts.logger.child({ component: "analysis" });
  const now = opts.now ?? Date.now;
  const refreshMs = opts.refreshMs ?? 2_000;
  const listeners = new Set<() => void>();
  let watching: NodeJS.Timeout | undefined;
  // sized by the stored JSON's length: a result's peaks make most of it
  const cache = new LRUCache<string, TrackAnalysis>({ maxSize: opts.maxBytes ?? 8 * 1024 * 1024 });
  let marker = await store.marker();
  let version = 1;
  let checkedAt = now();
  let checking: Promise<void> | undefined;

  const refresh = () => {
    checkedAt = now();
    checking = store
      .marker()
      .then((next) => {
        if (next === marker) return;
        marker = next;
        version++;
        cache.clear();
        for (const listener of listeners) listener();
      })
      .catch((error: unknown) => log.warn({ err: errorMessage(error) }, "could not read the analysis store's marker"))
      .finally(() => (checking = undefined));
  };

  return {
    location: store.location,
    get version() {
      if (!checking && now() - checkedAt >= refreshMs) refresh();
      return version;
    },
    get marker() {
      if (!checking && now() - checkedAt >= refreshMs) refresh();
      return marker;
    },
    async lookup(keys) {
      const found = new Map<string, TrackAnalysis>();
      const missing: string[] = [];
      for (const key of new Set(keys)) {
        const hit = cache.get(key);
        if (hit) found.set(key, hit);
        else missing.push(key);
      }
      if (missing.length) {
        for (const r of await store.results(missing)) {
          found.set(r.key, r.analysis);
          cache.set(r.key, r.analysis, { size: Math.max(1, r.bytes) });
        }
      }
      return found;
    },
    figuresAfter: (cursor, limit) => store.figuresAfter(cursor, limit),
    segmentsOf: (keys) => store.segmentsOf(keys),
    summary: (summaryOpts) => store.summary({ now: now(), failures: summaryOpts?.failures }),
    watch(listener) {
      listeners.add(listener);
      // one timer for every listener, never keeping the process alive
      watching ??= setInterval(() => checking || refresh(), refreshMs).unref();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) watching = void clearInterval(watching);
      };
    },
    async close() {
      clearInterval(watching);
      listeners.clear();
      await checking;
      await store.close();
    },
  };
}

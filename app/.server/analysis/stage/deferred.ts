import type { AnalysisSummary } from "./store.ts";
import type { AnalysisService } from "./lookup.ts";

/**
 * The analysis service of a process whose results' store could not be opened at start
 * (services.ts retries): until `attach`, pages find no results (the sheet shows no tempo or
 * key) and the operator's summary says why; afterwards every call goes to the real service.
 */
export function deferredAnalysis(location: string): AnalysisService & { attach(service: AnalysisService): void } {
  let inner: AnalysisService | undefined;
  // watchers before the store opened: handed to it at `attach`
  const watchers = new Map<() => void, () => void>();
  return {
    get location() {
      return inner?.location ?? location;
    },
    get version() {
      return inner?.version ?? 0;
    },
    get marker() {
      return inner?.marker ?? "";
    },
    lookup: (keys) => (inner ? inner.lookup(keys) : Promise.resolve(new Map())),
    figuresAfter: (cursor, limit) => (inner ? inner.figuresAfter(cursor, limit) : Promise.resolve({ rows: [], next: null })),
    segmentsOf: (keys) => inner?.segmentsOf?.(keys) ?? Promise.resolve(new Map()),
    summary: (opts): Promise<AnalysisSummary> =>
      inner ? inner.summary(opts) : Promise.reject(new Error(`the analysis store (${location}) cannot be opened yet`)),
    watch(listener) {
      watchers.set(listener, inner ? inner.watch(listener) : () => undefined);
      return () => {
        watchers.get(listener)?.();
        watchers.delete(listener);
      };
    },
    close: () => inner?.close() ?? Promise.resolve(),
    attach(service) {
      inner = service;
      for (const listener of watchers.keys()) watchers.set(listener, service.watch(listener));
      // the results that were there all along: the track index reads them now
      for (const listener of watchers.keys()) listener();
    },
  };
}

import fs from "node:fs";
import path from "node:path";
import type { Logger } from "../app/.server/logger.ts";
import { TAGS } from "./shared-cache.ts";

/**
 * ADR 0119 (issue #30): tells the shared cache at CACHE_PURGE_URL which pages are stale, by tag,
 * soft-purging (Varnish with xkey, deploy/varnish/default.vcl: `PURGE` with `xkey-softpurge`),
 * so visitors keep the old page while the new one renders.
 * - the catalog version moved (a sync found an album, film, single or genre added, changed or
 *   removed): the `catalog` tag (lists, item pages, sitemaps, their 404s);
 * - new analysis results landed: the `analysis` tag (album pages, open sheets, the track view);
 * - a new build: the previous build's tag (its id kept in DATA_DIR/cache-build-id).
 * Versions are read once a second; purges go from a queue, never from a sync's own work. A
 * failed purge is logged once per episode (and its end once), and retried a second later.
 */
export interface CachePurgerOptions {
  url: string;
  logger: Logger;
  dataDir: string;
  buildId: string;
  catalogVersion: () => number;
  analysisVersion?: () => number;
  intervalMs?: number;
}

export function startCachePurger(opts: CachePurgerOptions) {
  const pending = new Set<string>();
  const buildFile = path.join(opts.dataDir, "cache-build-id");
  let previousBuild: string | null = null;
  try {
    previousBuild = fs.readFileSync(buildFile, "utf8").trim() || null;
  } catch {
    previousBuild = null;
  }
  if (previousBuild && previousBuild !== opts.buildId) pending.add(TAGS.build(previousBuild));
  let catalog = opts.catalogVersion();
  let analysis = opts.analysisVersion?.();
  let failing = false;
  let busy = false;

  async function tick() {
    const c = opts.catalogVersion();
    if (c !== catalog) {
      catalog = c;
      pending.add(TAGS.catalog);
    }
    const a = opts.analysisVersion?.();
    if (a !== analysis) {
      analysis = a;
      pending.add(TAGS.analysis);
    }
    if (busy || pending.size === 0) return;
    busy = true;
    const tags = [...pending];
    try {
      const res = await fetch(opts.url, { method: "PURGE", headers: { "xkey-softpurge": tags.join(" ") }, signal: AbortSignal.timeout(5000) });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`the cache answered ${res.status}`);
      for (const t of tags) pending.delete(t);
      if (failing) opts.logger.info({ tags }, "cache purges succeed again");
      failing = false;
      if (tags.some((t) => t.startsWith("build-")) || previousBuild !== opts.buildId) {
        fs.writeFileSync(buildFile, opts.buildId);
        previousBuild = opts.buildId;
      }
    } catch (err) {
      if (!failing) opts.logger.warn({ err, url: opts.url, tags }, "cache purge failed; retrying every second until it succeeds");
      failing = true;
    } finally {
      busy = false;
    }
  }

  const timer = setInterval(() => void tick(), opts.intervalMs ?? 1000);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer), tick };
}

import crypto from "node:crypto";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { LRUCache } from "lru-cache";
import pLimit from "p-limit";
import type { CatalogStage } from "../../catalog/service.ts";
import { errorMessage } from "../../catalog/errors.ts";
import type { Config } from "../../config.ts";
import type { Logger } from "../../logger.ts";
import { AnalysisError } from "../analyze.ts";
import { createAnalysisPool, type AnalysisPool } from "../pool.ts";
import { audioSource, download, identify, fileIdentity, type AudioSource, type RemoteOptions } from "./source.ts";
import { FailureLog } from "../../failure-log.ts";
import type { AnalysisStore, Claim, Observation } from "./store.ts";

/**
 * The analysis stage (issue #9, ADR 0091), in two halves:
 * - the walk, a catalog stage (ADR 0084): after each change of the albums it reads every
 *   album's tracks, finds each distinct audio key's identity and queues what is new or
 *   changed (AnalysisStore.reconcile). It streams: a batch of keys at a time, a bounded set
 *   of keys already seen, a turn of the event loop every few albums; a newer change aborts it;
 * - the drain: claims due rows, ANALYSIS_CONCURRENCY at a time, reads each one's audio (a
 *   file, or a capped download) and hands it to the worker pool; stores the result, or the
 *   reason it failed and when to try again. It runs whenever rows are due, also between
 *   syncs (a retry after its backoff) and after a restart (rows left pending).
 * Nothing here is on a request's path: pages read results through the lookup (lookup.ts).
 */

export interface AnalyzerOptions {
  config: Config;
  logger: Logger;
  store: AnalysisStore;
  /** default: a piscina pool of ANALYSIS_CONCURRENCY threads (tests hand in a counting one) */
  pool?: AnalysisPool;
  /** default: host, pid and a random suffix */
  owner?: string;
  /**
   * how long a claim holds without a renewal (default ANALYSIS_LEASE_SECONDS); the drain renews
   * the claims it works on every third of it (issue #42, ADR 0158)
   */
  leaseMs?: number;
  /** tests move time */
  now?: () => number;
}

/** Analyses this analyzer finished since it started, read by the metrics at scrape time (issue #31, ADR 0120). */
export interface AnalysisCounts {
  /** results stored */
  analysed: number;
  /** tracks whose analysis failed (recorded with a retry time) */
  failed: number;
}

export interface Analyzer {
  readonly owner: string;
  readonly counts: AnalysisCounts;
  /** the results' store (the metrics read its counts by state) */
  readonly store: AnalysisStore;
  /** registered with catalog.addStage (services.ts) */
  readonly stage: CatalogStage;
  /** Resolves once nothing is due and nothing is being analysed (tests, benchmarks). */
  idle(): Promise<void>;
  /** Looks for due rows now (after another process queued some). */
  kick(): void;
  /**
   * Stops claiming, waits up to `deadlineMs` for the analyses running, gives back the claims
   * that did not finish (a restart takes them at once), closes the pool.
   */
  stop(opts?: { deadlineMs?: number }): Promise<void>;
}

/** Keys found per reconcile batch: one SELECT and one transaction per batch. */
const WALK_BATCH = 256;
/** Albums read between two turns of the event loop (each tracks() call is a small synchronous read). */
const ALBUMS_PER_TURN = 64;
/** Keys the walk remembers to skip repeats: the sample catalog has a few files behind every track. Bounded. */
const SEEN_KEYS = 65_536;
/** HEAD requests (or stats) at once while walking. */
const IDENTIFY_CONCURRENCY = 8;
/** The drain looks for work at least this often (rows another process queued, a store that was down). */
const MAX_SLEEP_MS = 60_000;
const STORE_RETRY_MS = 5_000;

/** One audio key's identity, or undefined when it cannot be told (ADR 0091: nothing changes then). */
async function identifyKey(resolve: (key: string) => AudioSource, key: string, remote: RemoteOptions, signal: AbortSignal): Promise<Observation> {
  let source: AudioSource;
  try {
    source = resolve(key);
  } catch {
    return { key, identity: undefined };
  }
  return { key, identity: await identify(source, { ...remote, signal }) };
}

/**
 * The walk, a catalog stage (ADR 0084): after each change of the albums it reads every album's
 * tracks, finds each distinct audio key's identity and queues what is new or changed. It
 * streams: a batch of keys at a time, a bounded set of keys already seen, a turn of the event
 * loop every few albums; a newer change aborts it.
 */
function analysisWalk(deps: {
  store: AnalysisStore;
  log: Logger;
  now: () => number;
  kick: () => void;
  identify: (key: string, signal: AbortSignal) => Promise<Observation>;
}): CatalogStage {
  const { store, log, now, kick } = deps;
  const identifyLimit = pLimit(IDENTIFY_CONCURRENCY);
  const observe = (keys: readonly string[], signal: AbortSignal): Promise<Observation[]> =>
    Promise.all(keys.map((key) => identifyLimit(() => deps.identify(key, signal))));
  return {
    name: "analysis",
    after: ["albums"],
    async run(data, change, signal) {
      const started = now();
      const albums = data.albums;
      const seen = new LRUCache<string, true>({ max: SEEN_KEYS });
      let batch: string[] = [];
      let keys = 0;
      let queued = 0;
      const flush = async () => {
        if (!batch.length) return;
        const observed = await observe(batch, signal);
        signal.throwIfAborted();
        batch = [];
        const n = await store.reconcile(observed, now());
        queued += n;
        if (n) kick();
      };
      for (let i = 0; i < albums.length; i++) {
        signal.throwIfAborted();
        for (const track of albums.tracks(i)) {
          const key = track.s3Path;
          if (!key || seen.has(key)) continue;
          seen.set(key, true);
          keys++;
          batch.push(key);
        }
        if (batch.length >= WALK_BATCH) await flush();
        else if (i % ALBUMS_PER_TURN === ALBUMS_PER_TURN - 1) await yieldToLoop();
      }
      await flush();
      log.info({ version: change.version, cause: change.cause, albums: albums.length, keys, queued, ms: now() - started }, "analysis walk done");
    },
  };
}

/**
 * The drain's work on one claim: reads the audio (a file, or a capped download), analyses it in
 * the worker pool, and stores the result, or the reason it failed and when to try again.
 */
async function analyseClaim(
  deps: {
    resolve: (key: string) => AudioSource;
    downloads: string;
    remote: RemoteOptions;
    pool: AnalysisPool;
    store: AnalysisStore;
    owner: string;
    now: () => number;
    log: Logger;
    storeFailures: FailureLog;
    counts: AnalysisCounts;
  },
  claim: Claim,
): Promise<void> {
  const { resolve, downloads, remote, pool, store, owner, now, log, storeFailures, counts } = deps;
  let identity = claim.identity;
  let temporary: string | undefined;
  try {
    const source = resolve(claim.key);
    let input: string;
    if (source.kind === "file") {
      const stat = await fsp.stat(source.file).catch((error: unknown) => {
        throw new AnalysisError("unreadable", `cannot read ${claim.key}: ${errorMessage(error)}`, { cause: error });
      });
      // the identity of the bytes analysed: the next walk compares against it
      identity = fileIdentity(stat);
      input = source.file;
    } else {
      const got = await download(source.url, downloads, remote);
      identity = got.identity;
      input = temporary = got.file;
    }
    const analysis = await pool.analyze(input);
    let stored: boolean;
    try {
      stored = await store.finishDone(claim.key, owner, identity, analysis, now());
      storeFailures.succeeded();
    } catch (error) {
      // The result could not be written (a full disk, the database gone): the row stays as
      // it was, claimed until its lease ends, and the track is analysed again after that. It
      // is neither shown as analysed nor recorded as a failure of its audio (issue #15).
      storeFailures.failed(errorMessage(error), { key: claim.key });
      return;
    }
    if (!stored) log.warn({ key: claim.key }, "analysis result not stored: the claim's lease ran out and another analyzer holds it");
    else counts.analysed++;
  } catch (error) {
    const reason = error instanceof AnalysisError ? `${error.reason}: ${error.message}` : `unreachable: ${errorMessage(error)}`;
    log.warn({ key: claim.key, attempts: claim.attempts, reason }, "track analysis failed");
    counts.failed++;
    await store.finishFailed(claim, owner, identity, reason, now()).catch((e: unknown) => log.error({ key: claim.key, err: errorMessage(e) }, "could not record an analysis failure"));
  } finally {
    if (temporary) await fsp.rm(temporary, { force: true });
  }
}

/** Where the analyzer reads audio from: DATA_DIR/media, MEDIA_URL, and its own download folder. */
function audioAccess(config: Config, owner: string) {
  const mediaDir = path.join(config.DATA_DIR, "media");
  return {
    downloads: path.join(config.DATA_DIR, "cache", "analysis", owner.replace(/[^\w.-]+/g, "_")),
    remote: { timeoutMs: config.UPSTREAM_TIMEOUT_SECONDS * 1000, maxBytes: config.UPSTREAM_MAX_BYTES } satisfies RemoteOptions,
    resolve: (key: string): AudioSource => audioSource(key, { mediaUrl: config.MEDIA_URL, mediaDir }),
  };
}

export function startAnalyzer(opts: AnalyzerOptions): Analyzer {
  const { config, store } = opts;
  const log = opts.logger.child({ component: "analysis" });
  const now = opts.now ?? Date.now;
  const concurrency = config.ANALYSIS_CONCURRENCY;
  const pool = opts.pool ?? createAnalysisPool({ concurrency, maxQueue: concurrency });
  const owner = opts.owner ?? `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`;
  const leaseMs = opts.leaseMs ?? config.ANALYSIS_LEASE_SECONDS * 1000;
  const { downloads, remote, resolve } = audioAccess(config, owner);

  const stage = analysisWalk({ store, log, now, kick: () => kick(), identify: (key, signal) => identifyKey(resolve, key, remote, signal) });

  // ---- the drain --------------------------------------------------------------------------

  const running = new Map<string, Promise<void>>();
  let stopping = false;
  let wake: (() => void) | undefined;
  let idleWaiters: Array<() => void> = [];
  let wanted = false;

  function kick() {
    wanted = true;
    wake?.();
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolveSleep) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolveSleep();
      }
      wake = done;
    });

  // a full disk fails every claim and every result: one line per episode (issue #15)
  const storeFailures = new FailureLog(log, { level: "error", message: "analysis results cannot be stored; their tracks are analysed again when their claims end" });
  const claimFailures = new FailureLog(log, { level: "error", message: "could not claim tracks to analyse" });
  const renewFailures = new FailureLog(log, { level: "error", message: "could not renew the claims of the tracks being analysed" });

  const counts: AnalysisCounts = { analysed: 0, failed: 0 };
  const claimDeps = { resolve, downloads, remote, pool, store, owner, now, log, storeFailures, counts };
  const analyseOne = (claim: Claim) => analyseClaim(claimDeps, claim);

  async function drain() {
    await fsp.rm(downloads, { recursive: true, force: true }).catch(() => undefined);
    while (!stopping) {
      wanted = false;
      let claimed: Claim[];
      try {
        claimed = await store.claim({ owner, now: now(), leaseMs, limit: concurrency - running.size });
        claimFailures.succeeded();
      } catch (error) {
        claimFailures.failed(errorMessage(error));
        await sleep(STORE_RETRY_MS);
        continue;
      }
      if (stopping) {
        await store.release(claimed.map((c) => c.key), owner, now()).catch(() => undefined);
        break;
      }
      for (const claim of claimed) {
        const job = analyseOne(claim).finally(() => {
          running.delete(claim.key);
          kick();
        });
        running.set(claim.key, job);
      }
      if (running.size >= concurrency) {
        // every slot busy: the next finish kicks
        if (!wanted) await sleep(MAX_SLEEP_MS);
        continue;
      }
      if (claimed.length > 0 || wanted) continue;
      // nothing due now: sleep until the next row falls due, or a kick
      if (running.size === 0) {
        for (const done of idleWaiters) done();
        idleWaiters = [];
      }
      let delay = MAX_SLEEP_MS;
      try {
        const due = await store.nextDue();
        if (due !== undefined) delay = Math.min(delay, Math.max(0, due - now()) + 10);
      } catch (error) {
        log.error({ err: errorMessage(error) }, "could not read the analysis queue");
      }
      if (!wanted && !stopping) await sleep(delay);
    }
  }

  // Issue #42, ADR 0158: the claims being worked on are renewed every third of the lease, so a
  // track that takes longer than a lease (a slow download, a busy machine) stays with this
  // analyzer, while a killed analyzer's tracks are claimed again one lease after its last renewal.
  const renewTimer = setInterval(() => {
    if (running.size === 0) return;
    store.renew([...running.keys()], owner, now(), leaseMs).then(
      () => renewFailures.succeeded(),
      (error: unknown) => renewFailures.failed(errorMessage(error)),
    );
  }, Math.max(1_000, Math.floor(leaseMs / 3)));
  renewTimer.unref();

  const draining = drain().catch((error: unknown) => log.error({ err: errorMessage(error) }, "the analysis drain stopped"));

  let stopped: Promise<void> | undefined;
  return {
    owner,
    counts,
    store,
    stage,
    idle() {
      return new Promise<void>((resolveIdle) => {
        idleWaiters.push(resolveIdle);
        kick();
      });
    },
    kick,
    stop: (stopOpts) =>
      (stopped ??= (async () => {
        stopping = true;
        wake?.();
        const deadlineMs = stopOpts?.deadlineMs ?? config.SHUTDOWN_TIMEOUT_SECONDS * 1000;
        // the last second and a half is kept for giving claims back and closing the pool
        const deadline = new Promise<void>((r) => setTimeout(r, Math.max(0, deadlineMs - 1_500)).unref());
        await Promise.race([Promise.allSettled([draining, ...running.values()]), deadline]);
        // renewed until here: the analyses finishing within the deadline keep their claims
        clearInterval(renewTimer);
        // claims still running past the deadline go back, so a restart takes them at once
        if (running.size) await store.release([...running.keys()], owner, now()).catch(() => undefined);
        await Promise.race([pool.close(), new Promise<void>((r) => setTimeout(r, 1_000).unref())]);
        await fsp.rm(downloads, { recursive: true, force: true }).catch(() => undefined);
        for (const done of idleWaiters) done();
        idleWaiters = [];
      })()),
  };
}

import crypto from "node:crypto";
import type { Logger } from "../logger.ts";
import { errorMessage, UpstreamError } from "./errors.ts";
import { holdBackReason, readStored, replaceData, serveStored, snapshotStamp } from "./runner-slot.ts";
import type { SnapshotStore, StoredSnapshot } from "./snapshots.ts";
import type { Loaded, SyncSource } from "./sources/source.ts";

/**
 * The catalog sync (ADR 0084): every source (sources/*.ts) goes through the same runner,
 * which owns what used to be shared mutable state in one closure —
 * - single-flight per source (a forced sync waits for the running one, then reads afresh);
 * - fingerprints: an answer whose fingerprint is the one served changes nothing, not even
 *   the served snapshot's time (ADR 0050);
 * - the snapshot files, written atomically (ADR 0050, ADR 0082 for the albums' own writer);
 * - the hold-back rules (ADR 0074) and the operator's `--force`;
 * - status() (what `npm run catalog -- status`/`sync` print and the failure logs carry);
 * - adoption of a snapshot another process wrote, before each sync and, in follow mode,
 *   every few seconds (ADR 0081);
 * - one change event per change of the served data (the version moves), to which the catalog
 *   index and the page cache react, and stages: work that runs after a change, off the sync
 *   (the place for audio analysis, issue #9).
 */

// The runner's vocabulary (changes, statuses, options) is in runner-types.ts, shared with stages.ts.
export type { ChangeCause, CatalogChange, SourceStatus, SyncOptions, LookupSnapshot, RunnerStartOptions, RunnerOptions, SourceMap } from "./runner-types.ts";
import type { ChangeCause, CatalogChange, SourceStatus, SyncOptions, LookupSnapshot, RunnerStartOptions, RunnerOptions, Slot } from "./runner-types.ts";
export type { Stage } from "./stages.ts";
import { StageRunner, type Stage } from "./stages.ts";
import { POLL_MS, type CatalogCluster } from "./cluster-sync.ts";

/** A follower's look for new snapshots: a few stat calls, so a short delay costs nothing. */
const FOLLOW_INTERVAL_MS = 2_000;
/** How long close() waits for a sync or a stage stuck on a slow upstream. */
const CLOSE_WAIT_MS = 2_000;

export class CatalogRunner<D extends object> {
  private readonly slots: Slot[];
  private readonly byName = new Map<string, Slot>();
  private readonly store: SnapshotStore;
  private readonly log: Logger;
  private readonly opts: RunnerOptions<D>;
  private readonly lookups: readonly LookupSnapshot<keyof D & string>[];
  private readonly lookupStamps = new Map<string, string>();
  private readonly listeners = new Set<(change: CatalogChange<keyof D & string>) => void>();
  private readonly stages: StageRunner<D>;
  private versionValue = 0;
  private updatedAtValue = new Date(0).toISOString();
  private refreshTimer: NodeJS.Timeout | undefined;
  private followTimer: NodeJS.Timeout | undefined;
  private clusterTimer: NodeJS.Timeout | undefined;
  private clusterTick: Promise<void> | undefined;
  private clusterFault: string | undefined;
  private leaderRun: Promise<void> | undefined;
  private leading = false;
  private following: Promise<void> | undefined;
  private stopped = false;

  constructor(opts: RunnerOptions<D>) {
    this.opts = opts;
    this.store = opts.store;
    this.log = opts.log;
    this.lookups = opts.lookups ?? [];
    this.stages = new StageRunner<D>(() => this.data(), opts.log);
    this.slots = Object.entries(opts.sources).map(([key, value]) => {
      const source = value as SyncSource<unknown>;
      if (source.name !== key) throw new Error(`catalog source ${source.name} registered as ${key}`);
      const slot: Slot = {
        source,
        data: source.empty(),
        snapshotStamp: "",
        status: { name: source.name, location: source.location, ok: false, count: 0 },
      };
      this.byName.set(source.name, slot);
      return slot;
    });
  }

  /** Increments on every change of the served data, so derived indexes know when to rebuild. */
  get version(): number {
    return this.versionValue;
  }

  /** ISO time of the newest data served (the savedAt of the last change). */
  get updatedAt(): string {
    return this.updatedAtValue;
  }

  /** The data a source serves now. */
  get<K extends keyof D & string>(name: K): D[K] {
    return this.slot(name).data as D[K];
  }

  /**
   * Each source's served content hash (`name:fingerprint`, "" before it has data): the same on
   * every machine that serves the same data, whatever its own version counter (ADR 0157, amended).
   */
  fingerprints(): string[] {
    return this.slots.map((s) => `${s.source.name}:${s.fingerprint ?? ""}`);
  }

  /** Every source's data as served now. */
  data(): D {
    return Object.fromEntries(this.slots.map((s) => [s.source.name, s.data])) as D;
  }

  status(): SourceStatus<keyof D & string>[] {
    return this.slots.map((s) => ({ ...s.status }) as SourceStatus<keyof D & string>);
  }

  /** Called after every change of the served data (synchronously: defer heavy work). Returns the unsubscribe. */
  onChange(listener: (change: CatalogChange<keyof D & string>) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * Adds a stage (see Stage). When one of its sources already serves data, it runs at once
   * with it (cause "added"). Returns a function that removes it (a running stage is aborted).
   */
  addStage(stage: Stage<D>): () => void {
    const served = stage.after.filter((name) => this.slot(name).fingerprint !== undefined);
    return this.stages.add(stage, served.length ? { version: this.versionValue, sources: served, cause: "added" } : undefined);
  }

  /**
   * Data served with some sources changed outside a sync (a release detail fetched for a
   * visitor): the version moves and the change is announced.
   */
  touch(sources: readonly (keyof D & string)[], cause: ChangeCause): void {
    this.changed(sources, cause);
  }

  /**
   * Serves the snapshots on disk (pages never wait on an upstream, ADR 0050), then syncs in
   * the background, waiting only for local files with no snapshot yet (a first start); or,
   * in follow mode, starts looking for the snapshots another process writes.
   */
  async start(opts: RunnerStartOptions = {}): Promise<void> {
    const loaded = await Promise.all(
      this.slots.map(async (slot) => {
        slot.snapshotStamp = await snapshotStamp(this.store, slot.source.name);
        const stored = await readStored(this.store, slot, (meta) => meta.source === slot.source.location);
        if (!stored || stored.source !== slot.source.location) return false;
        this.serveStored(slot, stored);
        return true;
      }),
    );
    for (const lookup of this.lookups) {
      this.lookupStamps.set(lookup.name, await snapshotStamp(this.store, lookup.name));
      await lookup.load();
    }
    const names = this.slots.filter((_, i) => loaded[i]).map((s) => s.source.name as keyof D & string);
    if (names.length) {
      this.changed(names, "loaded");
      this.log.info({ sources: names }, "catalog snapshots loaded");
    }

    if (this.opts.cluster) return this.startInCluster(this.opts.cluster, opts, loaded);
    if (this.opts.follow) {
      const intervalMs = this.opts.followIntervalMs ?? FOLLOW_INTERVAL_MS;
      this.log.info({ intervalMs }, "catalog: following the snapshots another process syncs");
      this.scheduleFollow(intervalMs);
      return;
    }
    if (opts.initialSync !== false) {
      const initial = this.slots.map((slot, i) => ({ wait: slot.source.local && !loaded[i], run: this.syncSource(slot, false) }));
      await Promise.all(initial.filter((x) => x.wait).map((x) => x.run));
    }
    if (opts.refreshMs) {
      this.refreshTimer = setInterval(() => void this.sync(), opts.refreshMs);
      this.refreshTimer.unref();
    }
  }

  /**
   * Syncs the chosen sources (default all); never throws. A follower looks at the snapshots
   * instead. In a cluster (ADR 0157) this is the operator's sync (`npm run catalog -- sync`):
   * it runs whoever holds the lease, and what it accepted is published to every machine.
   */
  async sync(opts: SyncOptions<keyof D & string> = {}): Promise<void> {
    if (this.opts.follow) return this.followOnce();
    const chosen = opts.sources ? this.slots.filter((s) => opts.sources!.includes(s.source.name as keyof D & string)) : this.slots;
    await Promise.all(chosen.map((slot) => this.syncSource(slot, opts.force ?? false)));
    if (this.opts.cluster) await this.publish(this.opts.cluster, false);
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearInterval(this.refreshTimer);
    clearTimeout(this.followTimer);
    clearTimeout(this.clusterTimer);
    await this.following;
    await this.clusterTick;
    await Promise.race([this.leaderRun, new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
    const busy = [...this.slots.map((s) => s.running), ...this.stages.stopAll()];
    // a sync stuck on a slow upstream must not hold up shutdown for long
    await Promise.race([Promise.allSettled(busy), new Promise((r) => setTimeout(r, CLOSE_WAIT_MS).unref())]);
    await Promise.all(this.slots.map((s) => s.source.release?.(s.data).catch(() => undefined)));
  }

  // ---- sync -------------------------------------------------------------------------------

  private slot(name: string): Slot {
    const slot = this.byName.get(name);
    if (!slot) throw new Error(`no catalog source ${name}`);
    return slot;
  }

  private syncSource(slot: Slot, force: boolean): Promise<void> {
    const inFlight = slot.running;
    // a forced sync must read afresh: it waits for the running one, then runs its own
    if (inFlight) return force ? inFlight.then(() => this.syncSource(slot, true)) : inFlight;
    const run = this.runSync(slot, force).finally(() => {
      if (slot.running === run) slot.running = undefined;
    });
    slot.running = run;
    return run;
  }

  private async runSync(slot: Slot, force: boolean): Promise<void> {
    const { source, status } = slot;
    const name = source.name as keyof D & string;
    status.lastAttemptAt = new Date().toISOString();
    try {
      if (await this.adopt(slot)) this.changed([name], "adopted");
      const served = slot.fingerprint !== undefined;
      const result = await source.load({ current: served ? slot.data : undefined, stamp: served && !force ? slot.stamp : undefined });
      if (!result.unchanged) {
        const accepted = await this.accept(slot, result, force);
        if (!accepted) {
          // held back, or its snapshot could not be saved: a failed sync for the operator's alerts
          status.failedSyncs = (status.failedSyncs ?? 0) + 1;
          return;
        }
      }
      status.ok = true;
      status.error = undefined;
      status.count = source.count(slot.data);
      status.lastSuccessAt = new Date().toISOString();
      this.log.info({ source: name, count: status.count, changed: !result.unchanged, forced: force || undefined }, "catalog source synced");
    } catch (error) {
      status.ok = false;
      status.error = errorMessage(error);
      status.failedSyncs = (status.failedSyncs ?? 0) + 1;
      this.log.error(
        {
          source: name,
          location: source.location,
          status: error instanceof UpstreamError ? error.status : undefined,
          err: status.error,
          servingSnapshotFrom: status.updatedAt ?? null,
        },
        "catalog source failed; serving its last snapshot",
      );
    }
  }

  /**
   * A loaded answer: held back (false), or served and saved when its fingerprint is new. An
   * unchanged fingerprint leaves the served snapshot as it is (no new version, no new time).
   */
  private async accept(slot: Slot, result: Loaded<unknown>, force: boolean): Promise<boolean> {
    const { source, status } = slot;
    const name = source.name as keyof D & string;
    const heldBack = force ? undefined : holdBackReason(slot, source.count(result.data), this.opts.maxShrink);
    if (heldBack) {
      await result.staged?.discard();
      if (result.alsoChanged) this.changed([name], "sync");
      status.ok = false;
      status.error = `Held back: ${heldBack}. Serving the last snapshot; \`npm run catalog -- sync --force --source ${name}\` accepts it.`;
      this.log.error(
        {
          source: name,
          location: source.location,
          count: source.count(result.data),
          snapshotCount: status.count,
          maxShrink: this.opts.maxShrink,
          err: heldBack,
          servingSnapshotFrom: status.updatedAt ?? null,
        },
        "catalog source answer held back; serving its last snapshot",
      );
      return false;
    }
    const { staged } = result;
    const json = staged ? undefined : JSON.stringify(result.data);
    const fingerprint = staged ? staged.fingerprint : crypto.createHash("sha1").update(json!).digest("hex");
    const savedAt = staged ? staged.savedAt : new Date().toISOString();
    if (fingerprint !== slot.fingerprint) {
      // The snapshot is saved (temp file, fsync, rename) before the new data is served: when
      // the disk is full the previous snapshot stays whole and served, in this process and in
      // the ones that follow its snapshots, and the fingerprint and file stamp are not taken,
      // so the next sync loads the source and saves it again (issue #15).
      const meta = { savedAt, source: source.location, fingerprint, stamp: result.stamp ?? slot.stamp };
      try {
        await (staged ? staged.commit() : this.store.writeJson(name, meta, json!));
      } catch (error) {
        await staged?.discard();
        status.ok = false;
        status.error = `Could not save the snapshot (${errorMessage(error)}); serving the previous one until the next sync saves it.`;
        this.log.error({ err: error, source: name, servingSnapshotFrom: status.updatedAt ?? null }, "could not save the catalog snapshot; serving the previous one");
        return false;
      }
      if (result.stamp) slot.stamp = result.stamp;
      slot.snapshotStamp = await snapshotStamp(this.store, name);
      slot.fingerprint = fingerprint;
      replaceData(slot, result.data);
      if (savedAt > this.updatedAtValue) this.updatedAtValue = savedAt;
      this.changed([name], "sync");
    } else {
      if (result.stamp) slot.stamp = result.stamp;
      await staged?.discard();
      if (result.alsoChanged) this.changed([name], "sync");
    }
    status.updatedAt = savedAt;
    return true;
  }

  // ---- snapshots written by another process -------------------------------------------------

  /** Serves a source's stored snapshot (at start-up, or one another process wrote). */
  private serveStored(slot: Slot, stored: StoredSnapshot<unknown>): void {
    serveStored(slot, stored);
    if (stored.savedAt > this.updatedAtValue) this.updatedAtValue = stored.savedAt;
  }

  /**
   * When the snapshot file changed under us — the operator's `npm run catalog -- sync --force`
   * accepted an answer this server holds back, or another server process synced — adopt it
   * before syncing, so the forced data is served without a restart and the hold-back rules
   * compare the next answer with it. One stat per source per sync. Whether it adopted one: the
   * caller announces the change (a follower's look announces all it adopted as one, followOnce).
   */
  private async adopt(slot: Slot): Promise<boolean> {
    const { source } = slot;
    const stamp = await snapshotStamp(this.store, source.name);
    if (!stamp || stamp === slot.snapshotStamp) return false;
    slot.snapshotStamp = stamp;
    const stored = await readStored(this.store, slot, (meta) => meta.source === source.location && meta.fingerprint !== slot.fingerprint);
    if (!stored || stored.source !== source.location || stored.fingerprint === slot.fingerprint) return false;
    this.serveStored(slot, stored);
    this.log.info({ source: source.name, count: slot.status.count, savedAt: stored.savedAt }, "catalog snapshot replaced by another process; serving it");
    return true;
  }

  /** Follow mode: the lookup snapshots (release details, sub-genres) the syncing process rewrote; the sources they are part of. */
  private async adoptLookups(): Promise<(keyof D & string)[]> {
    const parts: (keyof D & string)[] = [];
    for (const lookup of this.lookups) {
      const stamp = await snapshotStamp(this.store, lookup.name);
      if (!stamp || stamp === this.lookupStamps.get(lookup.name)) continue;
      this.lookupStamps.set(lookup.name, stamp);
      if (await lookup.load()) parts.push(...lookup.partOf);
    }
    return parts;
  }

  /**
   * One look at a time (adopting a large snapshot takes a while to parse), the next one scheduled
   * when it is done. What one look adopted is one change: a published version's albums and their
   * release details are served together, and what follows a change (the track index's build, the
   * page caches) runs once. A change per file built each process's track index twice in a row
   * (issue #42, bench:cluster: about 3 minutes each at 250,000 albums).
   */
  private followOnce(): Promise<void> {
    return (this.following ??= (async () => {
      const adopted = new Set<keyof D & string>();
      try {
        for (const slot of this.slots) if (await this.adopt(slot)) adopted.add(slot.source.name as keyof D & string);
        for (const part of await this.adoptLookups()) adopted.add(part);
      } catch (error) {
        this.log.warn({ err: errorMessage(error) }, "catalog: could not adopt the syncing process's snapshots; trying again shortly");
      } finally {
        if (adopted.size) this.changed([...adopted], "adopted");
        this.following = undefined;
      }
    })());
  }

  private scheduleFollow(intervalMs: number): void {
    if (this.stopped) return;
    this.followTimer = setTimeout(() => void this.followOnce().then(() => this.scheduleFollow(intervalMs)), intervalMs);
    this.followTimer.unref();
  }

  // ---- one sync per cluster (issue #42, ADR 0157) ----------------------------------------------

  /**
   * A cluster member serves its snapshots on disk, then takes the newest published version
   * (a joining machine calls no upstream for it), and reads its own local files (a file
   * source is no upstream: the sample's, each machine's own). The upstreams are the lease
   * holder's: it syncs them when the cluster's last sync is CATALOG_REFRESH_SECONDS old (the
   * first look after start, a takeover or a restart included), so the cluster asks each
   * upstream once per interval whichever process holds the lease. Without `refreshMs` (the
   * `catalog` command, tests) it neither leads nor looks again.
   */
  private async startInCluster(cluster: CatalogCluster, opts: RunnerStartOptions, loaded: boolean[]): Promise<void> {
    await this.takePublished(cluster);
    if (!opts.refreshMs) {
      // a process that does not refresh (a test, a one-off) syncs at start as it always did;
      // what it accepted is published only by an explicit sync() (the `catalog` command)
      if (opts.initialSync !== false) {
        const initial = this.slots.map((slot, i) => ({ wait: slot.source.local && !loaded[i], run: this.syncSource(slot, false) }));
        await Promise.all(initial.filter((x) => x.wait).map((x) => x.run));
      }
      return;
    }
    const refreshMs = opts.refreshMs;
    const local = this.slots.filter((slot) => slot.source.local);
    if (opts.initialSync !== false) {
      const initial = local.map((slot) => ({ wait: !loaded[this.slots.indexOf(slot)], run: this.syncSource(slot, false) }));
      await Promise.all(initial.filter((x) => x.wait).map((x) => x.run));
    }
    this.refreshTimer = setInterval(() => void Promise.all(local.map((slot) => this.syncSource(slot, false))), refreshMs);
    this.refreshTimer.unref();
    this.scheduleCluster(cluster, refreshMs, 0);
  }

  /** The holder's sync of every source, then its publication; in the background (the lease is renewed meanwhile). */
  private leaderSync(cluster: CatalogCluster): void {
    this.leaderRun ??= (async () => {
      await Promise.all(this.slots.map((slot) => this.syncSource(slot, false)));
      await this.publish(cluster, true);
    })().finally(() => (this.leaderRun = undefined));
  }

  private async publish(cluster: CatalogCluster, asLeader: boolean): Promise<void> {
    try {
      // the upstreams' snapshots; a local file's is each machine's own (above)
      const names = [...this.slots.filter((s) => !s.source.local).map((s) => s.source.name), ...this.lookups.filter((l) => !l.local).map((l) => l.name)];
      if (names.length) await cluster.publish({ asLeader, names });
    } catch (error) {
      this.log.error({ err: errorMessage(error) }, "catalog cluster: could not publish the snapshots; the next sync tries again");
    }
  }

  /** Takes the newest published version, if newer than this machine's, and serves it. */
  private async takePublished(cluster: CatalogCluster): Promise<void> {
    try {
      if (await cluster.pull()) await this.followOnce();
      if (this.clusterFault) this.log.info("catalog cluster: PostgreSQL answers again");
      this.clusterFault = undefined;
    } catch (error) {
      const message = errorMessage(error);
      // logged once per fault, not every look
      if (message !== this.clusterFault) this.log.warn({ err: message }, "catalog cluster: could not take the published version; serving the current one");
      this.clusterFault = message;
    }
  }

  /** Every few seconds: the lease renewed (or tried), the holder's sync when due, and a new version taken. */
  private scheduleCluster(cluster: CatalogCluster, refreshMs: number, delayMs = this.opts.clusterPollMs ?? POLL_MS): void {
    if (this.stopped) return;
    this.clusterTimer = setTimeout(() => {
      this.clusterTick = (async () => {
        if (this.stopped) return;
        const leading = await cluster.lead();
        if (this.leading && !leading) {
          // another process syncs the upstreams now: this one's last success is no longer the
          // cluster's, and must not raise SiteCatalogSyncStale (docs/operations.md) on this machine
          for (const slot of this.slots) if (!slot.source.local) slot.status.lastSuccessAt = undefined;
        }
        this.leading = leading;
        if (leading && !this.leaderRun && (await cluster.claimSync(refreshMs / 1000))) this.leaderSync(cluster);
        await this.takePublished(cluster);
      })().finally(() => {
        this.clusterTick = undefined;
        this.scheduleCluster(cluster, refreshMs);
      });
    }, delayMs);
    this.clusterTimer.unref();
  }

  // ---- change event (stages: stages.ts) ----------------------------------------------------

  private changed(sources: readonly (keyof D & string)[], cause: ChangeCause): void {
    this.versionValue++;
    const change: CatalogChange<keyof D & string> = { version: this.versionValue, sources, cause };
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.log.error({ err: errorMessage(error), version: change.version }, "catalog change listener failed");
      }
    }
    this.stages.changed(change);
  }
}

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLogger } from "../../../tests/fakes/log-capture.ts";
import { waitFor } from "../../../tests/support/wait.ts";
import { CatalogRunner, type CatalogChange, type RunnerOptions } from "./runner.ts";
import { SnapshotStore } from "./snapshots.ts";
import { UNCHANGED, type LoadContext, type LoadResult, type SyncSource } from "./sources/source.ts";

/**
 * The runner alone (ADR 0084), with in-memory sources: what an operator sees (status, logs,
 * snapshot files) and what the rest of the server sees (data, version, change events, stages)
 * for each outcome of a sync.
 */
type Data = { tunes: string[]; shows: string[] };

/** A source whose answer the test sets; `gate` holds a load until the test opens it. */
class ListSource implements SyncSource<string[]> {
  readonly local = false;
  answer: string[] | Error | "unchanged" = [];
  loads: LoadContext<string[]>[] = [];
  gate: Promise<void> | undefined;
  alsoChanged = false;
  /** the file stamp it reports (as a file source would) */
  stamp = "7:1000";
  release?: (list: string[]) => Promise<void>;
  readonly name: string;
  readonly location: string;
  constructor(name: string, location: string) {
    this.name = name;
    this.location = location;
  }
  empty = () => [];
  count = (list: string[]) => list.length;
  async load(ctx: LoadContext<string[]>): Promise<LoadResult<string[]>> {
    this.loads.push(ctx);
    await this.gate;
    if (this.answer instanceof Error) throw this.answer;
    if (this.answer === "unchanged") return UNCHANGED;
    return { data: [...this.answer], stamp: this.stamp, alsoChanged: this.alsoChanged };
  }
}

let dir: string;
let store: SnapshotStore;
let tunes: ListSource;
let shows: ListSource;
let log: ReturnType<typeof captureLogger>;
const runners: CatalogRunner<Data>[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-runner-"));
  store = new SnapshotStore(dir);
  tunes = new ListSource("tunes", "https://upstream.example/tunes.json");
  shows = new ListSource("shows", "/srv/shows.json");
  tunes.answer = ["a", "b", "c", "d"];
  shows.answer = ["x"];
  log = captureLogger();
});
afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

const runner = (opts: Partial<RunnerOptions<Data>> = {}) => {
  const r = new CatalogRunner<Data>({ sources: { tunes, shows }, store, log: log.logger, maxShrink: 0.5, ...opts });
  runners.push(r);
  return r;
};
/** A runner started, its first sync done, recording its change events from then on. */
const started = async (opts: Partial<RunnerOptions<Data>> = {}) => {
  const r = runner(opts);
  await r.start({ initialSync: false });
  await r.sync();
  const changes: CatalogChange[] = [];
  r.onChange((c) => changes.push(c));
  return { r, changes };
};
const file = (name: string) => store.file(name);
const tunesStatus = (r: CatalogRunner<Data>) => r.status().find((s) => s.name === "tunes")!;

describe("a sync", () => {
  it("a new answer: served, saved, one change event and a new version", async () => {
    const { r, changes } = await started();
    expect(r.get("tunes")).toEqual(["a", "b", "c", "d"]);
    const saved = JSON.parse(fs.readFileSync(file("tunes"), "utf8"));
    expect(saved).toMatchObject({ name: "tunes", source: tunes.location, data: ["a", "b", "c", "d"], fingerprint: expect.stringMatching(/^[0-9a-f]{40}$/) });

    const version = r.version;
    tunes.answer = ["a", "b", "c", "d", "e"];
    await r.sync({ sources: ["tunes"] });
    expect(r.get("tunes")).toEqual(["a", "b", "c", "d", "e"]);
    expect(changes).toEqual([{ version: version + 1, sources: ["tunes"], cause: "sync" }]);
    expect(r.version).toBe(version + 1);
    expect(r.updatedAt).toBe(JSON.parse(fs.readFileSync(file("tunes"), "utf8")).savedAt);
    expect(tunesStatus(r)).toMatchObject({ ok: true, count: 5 });
    expect(log.lines().filter((l) => l.msg === "catalog source synced" && l.source === "tunes").at(-1)).toMatchObject({ count: 5, changed: true });
  });

  it("the same answer again: no event, the version and time unchanged, the snapshot file untouched", async () => {
    const { r, changes } = await started();
    const bytes = fs.readFileSync(file("tunes"));
    const { mtimeMs } = fs.statSync(file("tunes"));
    const { version, updatedAt } = r;
    const served = r.get("tunes");
    await new Promise((resolve) => setTimeout(resolve, 20));
    await r.sync();
    await r.sync();
    expect(changes).toEqual([]);
    expect(r.version).toBe(version);
    expect(r.updatedAt).toBe(updatedAt);
    expect(r.get("tunes")).toBe(served);
    expect(fs.readFileSync(file("tunes")).equals(bytes)).toBe(true);
    expect(fs.statSync(file("tunes")).mtimeMs).toBe(mtimeMs);
    // the operator still sees that the source answered
    expect(tunesStatus(r)).toMatchObject({ ok: true, count: 4 });
  });

  it("a source that reports itself unchanged is not fingerprinted nor saved", async () => {
    const { r, changes } = await started();
    tunes.answer = "unchanged";
    await r.sync();
    expect(changes).toEqual([]);
    expect(log.lines().filter((l) => l.msg === "catalog source synced" && l.source === "tunes").at(-1)).toMatchObject({ changed: false });
  });

  it("single-flight: syncs asked for while one runs share it; a forced one runs afresh after it", async () => {
    const { r } = await started();
    let open!: () => void;
    tunes.gate = new Promise((resolve) => (open = resolve));
    tunes.loads.length = 0;
    const first = r.sync({ sources: ["tunes"] });
    const second = r.sync({ sources: ["tunes"] });
    const forced = r.sync({ sources: ["tunes"], force: true });
    await waitFor("the first load", () => tunes.loads.length === 1);
    open();
    await Promise.all([first, second, forced]);
    expect(tunes.loads).toHaveLength(2);
    // the forced load is not offered the file-stamp shortcut
    expect(tunes.loads.map((ctx) => ctx.stamp)).toEqual(["7:1000", undefined]);
  });

  it("hold-back: an empty or halved answer changes nothing — no event, snapshot byte-identical — until forced", async () => {
    const { r, changes } = await started();
    const bytes = fs.readFileSync(file("tunes"));
    for (const [answer, reason] of [
      [[], /Held back: the upstream answered an empty list; the snapshot has 4/],
      [["a"], /Held back: the list shrank from 4 to 1, by more than CATALOG_MAX_SHRINK \(50 %\)/],
    ] as const) {
      tunes.answer = [...answer];
      await r.sync();
      expect(r.get("tunes")).toEqual(["a", "b", "c", "d"]);
      expect(fs.readFileSync(file("tunes")).equals(bytes)).toBe(true);
      expect(tunesStatus(r)).toMatchObject({ ok: false, count: 4, error: expect.stringMatching(reason) });
      expect(tunesStatus(r).error).toContain("`npm run catalog -- sync --force --source tunes` accepts it");
    }
    expect(changes).toEqual([]);
    expect(log.lines().filter((l) => l.msg === "catalog source answer held back; serving its last snapshot")).toHaveLength(2);

    await r.sync({ force: true, sources: ["tunes"] });
    expect(r.get("tunes")).toEqual(["a"]);
    expect(changes).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(file("tunes"), "utf8")).data).toEqual(["a"]);
  });

  it("with no snapshot yet an empty answer is accepted (a new catalog may be empty)", async () => {
    tunes.answer = [];
    const { r } = await started();
    expect(tunesStatus(r)).toMatchObject({ ok: true, count: 0 });
    expect(fs.existsSync(file("tunes"))).toBe(true);
  });

  it("a failing source keeps its last good data: logged, in status, no event", async () => {
    const { r, changes } = await started();
    tunes.answer = new Error("upstream down");
    await r.sync();
    expect(r.get("tunes")).toEqual(["a", "b", "c", "d"]);
    expect(changes).toEqual([]);
    expect(tunesStatus(r)).toMatchObject({ ok: false, count: 4, error: "upstream down" });
    expect(log.lines().find((l) => l.msg === "catalog source failed; serving its last snapshot")).toMatchObject({
      source: "tunes",
      err: "upstream down",
      level: 50,
      servingSnapshotFrom: expect.any(String),
    });
    // the other source is unaffected
    expect(r.status().find((s) => s.name === "shows")).toMatchObject({ ok: true, count: 1 });
  });

  it("a source's alsoChanged moves the version once, even when its list did not change", async () => {
    const { r, changes } = await started();
    tunes.alsoChanged = true;
    await r.sync({ sources: ["tunes"] });
    expect(changes).toEqual([{ version: r.version, sources: ["tunes"], cause: "sync" }]);
  });
});

describe("snapshots on disk", () => {
  it("start-up serves them before any sync, with one 'loaded' event's worth of version", async () => {
    const first = await started();
    await first.r.close();
    tunes.answer = new Error("down");
    const r = runner();
    await r.start({ initialSync: false });
    expect(r.get("tunes")).toEqual(["a", "b", "c", "d"]);
    expect(r.version).toBe(1);
    expect(log.lines().filter((l) => l.msg === "catalog snapshots loaded").at(-1)).toMatchObject({ sources: ["tunes", "shows"] });
  });

  it("a snapshot of another location is not served", async () => {
    const first = await started();
    await first.r.close();
    const moved = new ListSource("tunes", "https://elsewhere.example/tunes.json");
    const r = new CatalogRunner<Data>({ sources: { tunes: moved, shows }, store, log: log.logger, maxShrink: 0.5 });
    runners.push(r);
    await r.start({ initialSync: false });
    expect(r.get("tunes")).toEqual([]);
  });

  it("a snapshot another process wrote is adopted before the next load: one 'adopted' event, and the hold-back rules compare with it", async () => {
    const { r, changes } = await started();
    // `npm run catalog -- sync --force` in another process accepted a cut to one entry
    const other = runner();
    await other.start({ initialSync: false });
    tunes.answer = ["z"];
    await other.sync({ force: true, sources: ["tunes"] });
    await r.sync({ sources: ["tunes"] });
    expect(r.get("tunes")).toEqual(["z"]);
    expect(changes).toEqual([{ version: r.version, sources: ["tunes"], cause: "adopted" }]);
    expect(tunesStatus(r)).toMatchObject({ ok: true, count: 1 });
    expect(log.messages()).toContain("catalog snapshot replaced by another process; serving it");
  });

  it("follow mode adopts what the syncing process writes and never loads a source", async () => {
    const syncing = await started();
    const lookupLoads: string[] = [];
    // the follower's own sources, of the same locations: never loaded
    const own = { tunes: new ListSource("tunes", tunes.location), shows: new ListSource("shows", shows.location) };
    const follower = runner({
      sources: own,
      follow: true,
      followIntervalMs: 20,
      lookups: [{ name: "notes", load: async () => (lookupLoads.push("notes"), true), partOf: ["shows"] }],
    });
    await follower.start();
    expect(follower.get("tunes")).toEqual(["a", "b", "c", "d"]);
    const changes: CatalogChange[] = [];
    follower.onChange((c) => changes.push(c));

    tunes.answer = ["a", "b", "c", "d", "e"];
    await syncing.r.sync({ sources: ["tunes"] });
    // a look announces what it adopted once it has looked at everything (the lookups too), so
    // wait for the announcement, not for the new list alone
    await waitFor("the follower to adopt", () => follower.get("tunes").length === 5 && changes.length > 0);
    expect(changes).toEqual([{ version: follower.version, sources: ["tunes"], cause: "adopted" }]);
    // a lookup snapshot rewritten by the syncing process: loaded, and its source's version moves
    await store.write({ name: "notes", savedAt: new Date().toISOString(), source: "x", fingerprint: "", data: {} });
    await waitFor("the follower to load the notes", () => lookupLoads.length === 2);
    await waitFor("the notes' change event", () => changes.some((c) => c.sources.includes("shows")));
    // a follower's sync is a look at the files
    await follower.sync();
    expect([...own.tunes.loads, ...own.shows.loads]).toEqual([]);
  });

  it("follow mode: a source and a lookup rewritten together are one change, so what follows a change runs once", async () => {
    const syncing = await started();
    const follower = runner({
      sources: { tunes: new ListSource("tunes", tunes.location), shows: new ListSource("shows", shows.location) },
      follow: true,
      followIntervalMs: 60_000,
      lookups: [{ name: "notes", load: async () => true, partOf: ["shows"] }],
    });
    await follower.start();
    const changes: CatalogChange[] = [];
    follower.onChange((c) => changes.push(c));
    const before = follower.version;
    // the syncing process rewrites the tunes and the notes before the follower looks
    tunes.answer = ["a", "b", "c", "d", "e"];
    await syncing.r.sync({ sources: ["tunes"] });
    await store.write({ name: "notes", savedAt: new Date().toISOString(), source: "x", fingerprint: "", data: {} });
    await follower.sync();
    expect(follower.get("tunes")).toHaveLength(5);
    // one version, not one per file: a track index built on the first would build again
    expect(follower.version).toBe(before + 1);
    expect(changes).toEqual([{ version: before + 1, sources: ["tunes", "shows"], cause: "adopted" }]);
  });
});

describe("stages", () => {
  it("run after a change of their sources, with the new data, off the sync; not after an unchanged sync", async () => {
    const { r } = await started();
    const runs: { tunes: string[]; cause: string }[] = [];
    r.addStage({ name: "count", after: ["tunes"], run: async (data, change) => void runs.push({ tunes: data.tunes, cause: change.cause }) });
    // data was served when it was added: it ran at once
    await waitFor("the first run", () => runs.length === 1);
    expect(runs[0]).toEqual({ tunes: ["a", "b", "c", "d"], cause: "added" });

    await r.sync();
    shows.answer = ["x", "y"];
    await r.sync({ sources: ["shows"] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toHaveLength(1);

    tunes.answer = ["a", "b", "c", "d", "e"];
    await r.sync();
    await waitFor("the run after the change", () => runs.length === 2);
    expect(runs[1]).toEqual({ tunes: ["a", "b", "c", "d", "e"], cause: "sync" });
  });

  it("a change while a stage runs aborts it and runs it once more with the newest data", async () => {
    const { r } = await started();
    const seen: string[][] = [];
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    let aborted = 0;
    r.addStage({
      name: "slow",
      after: ["tunes"],
      run: async (data, _change, signal) => {
        seen.push(data.tunes);
        if (seen.length === 1) {
          signal.addEventListener("abort", () => aborted++);
          await blocked;
          signal.throwIfAborted();
        }
      },
    });
    await waitFor("the first run", () => seen.length === 1);
    tunes.answer = ["a", "b", "c", "d", "e"];
    await r.sync();
    tunes.answer = ["a", "b", "c", "d", "e", "f"];
    await r.sync();
    expect(aborted).toBe(1);
    expect(seen).toHaveLength(1);
    release();
    await waitFor("the second run", () => seen.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // once, with the newest data
    expect(seen).toEqual([
      ["a", "b", "c", "d"],
      ["a", "b", "c", "d", "e", "f"],
    ]);
    // stopped by an abort: not a failure
    expect(log.messages()).not.toContain("catalog stage failed");
  });

  it("a failing stage is logged and never fails the sync", async () => {
    const { r } = await started();
    r.addStage({ name: "broken", after: ["tunes"], run: async () => Promise.reject(new Error("no decoder")) });
    await waitFor("the failure", () => log.lines().find((l) => l.msg === "catalog stage failed"));
    expect(log.lines().find((l) => l.msg === "catalog stage failed")).toMatchObject({ stage: "broken", err: "no decoder", level: 50 });
    tunes.answer = ["q", "r", "s"];
    await r.sync();
    expect(tunesStatus(r)).toMatchObject({ ok: true, count: 3 });
  });
});

describe("close", () => {
  it("releases the data it serves", async () => {
    const released: string[][] = [];
    const { r } = await started();
    tunes.release = async (list) => void released.push(list);
    tunes.answer = ["a", "b", "c", "e"];
    await r.sync();
    // the replaced list was released when the new one was served
    expect(released).toEqual([["a", "b", "c", "d"]]);
    await r.close();
    expect(released).toEqual([
      ["a", "b", "c", "d"],
      ["a", "b", "c", "e"],
    ]);
  });
});

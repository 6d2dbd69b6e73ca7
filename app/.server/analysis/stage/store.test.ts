import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ANALYZER_VERSION, type TrackAnalysis } from "../analyze.ts";
import { audioSource, fileIdentity, httpIdentity } from "./source.ts";
import { AnalysisStore, reconcileAction, retryDelayMs, RETRY_MAX_MS, truncateReason } from "./store.ts";
import { openSqliteDatabase } from "./store-sqlite.ts";
import { expectFiguresRead } from "../../../../tests/support/analysis-figures.ts";

// The analysis store's rules (ADR 0091): what a walk queues, the retry schedule, claims and
// leases. The SQL runs on an in-memory SQLite database; the PostgreSQL side runs the same
// statements (tests/integration/analysis-postgres.test.ts).

const result = (seconds: number, version = ANALYZER_VERSION): TrackAnalysis => ({
  durationSeconds: seconds,
  bpm: 120,
  bpmConfidence: 0.9,
  key: "A minor",
  keyConfidence: 0.8,
  loudnessLufs: -14,
  previewPeaks: [0.5],
  overviewPeaks: [0.5],
  analyzerVersion: version,
});

describe("reconcileAction", () => {
  const done = { identity: "size=1;mtime=1", status: "done" as const, analyzerVersion: ANALYZER_VERSION };

  it("queues a new key, with an empty identity when the walk could not find one", () => {
    expect(reconcileAction(undefined, "size=1;mtime=1")).toEqual({ kind: "insert", identity: "size=1;mtime=1" });
    expect(reconcileAction(undefined, undefined)).toEqual({ kind: "insert", identity: "" });
  });

  it("re-analyses other audio under the same key, and nothing when it is unchanged", () => {
    expect(reconcileAction(done, "size=2;mtime=1")).toEqual({ kind: "reset", identity: "size=2;mtime=1" });
    expect(reconcileAction(done, "size=1;mtime=1")).toBeNull();
  });

  it("keeps a known row when its identity cannot be found now (a media host down for a minute)", () => {
    expect(reconcileAction(done, undefined)).toBeNull();
    expect(reconcileAction({ ...done, status: "failed" }, undefined)).toBeNull();
  });

  it("requeues results and failures of an older analyzer, not pending rows", () => {
    expect(reconcileAction(done, "size=1;mtime=1", ANALYZER_VERSION + 1)).toEqual({ kind: "requeue" });
    expect(reconcileAction({ ...done, status: "failed" }, "size=1;mtime=1", ANALYZER_VERSION + 1)).toEqual({ kind: "requeue" });
    expect(reconcileAction({ ...done, status: "pending", analyzerVersion: null }, "size=1;mtime=1", ANALYZER_VERSION + 1)).toBeNull();
  });
});

describe("retryDelayMs", () => {
  it("starts at a minute, doubles, and stops at a day", () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(retryDelayMs(11)).toBe(60_000 * 1024);
    expect(retryDelayMs(12)).toBe(RETRY_MAX_MS);
    expect(retryDelayMs(5000)).toBe(RETRY_MAX_MS);
  });
});

describe("identities and sources", () => {
  it("identifies a file by size and whole-millisecond mtime, a URL by size and ETag, else Last-Modified", () => {
    expect(fileIdentity({ size: 10, mtimeMs: 1700000000123.6 })).toBe("size=10;mtime=1700000000123");
    expect(httpIdentity(new Headers({ "content-length": "10", etag: '"abc"', "last-modified": "x" }))).toBe('size=10;etag="abc"');
    expect(httpIdentity(new Headers({ "content-length": "10", "last-modified": "Mon, 01 Jan 2024 00:00:00 GMT" }))).toBe(
      "size=10;modified=Mon, 01 Jan 2024 00:00:00 GMT",
    );
  });

  it("reads a key from DATA_DIR/media under a relative MEDIA_URL, from the media host under an absolute one", () => {
    const mediaDir = "/srv/data/media";
    expect(audioSource("a/track 1.mp3", { mediaUrl: "/media", mediaDir })).toEqual({ kind: "file", file: path.join(mediaDir, "a/track 1.mp3") });
    expect(audioSource("a/track 1.mp3", { mediaUrl: "https://cdn.example.com/m/", mediaDir })).toEqual({
      kind: "url",
      url: "https://cdn.example.com/m/a%2Ftrack%201.mp3",
    });
    expect(audioSource("https://other.example.com/x.mp3", { mediaUrl: "/media", mediaDir })).toEqual({ kind: "url", url: "https://other.example.com/x.mp3" });
    expect(() => audioSource("../leads.sqlite", { mediaUrl: "/media", mediaDir })).toThrow(/outside the media folder/);
  });

  it("keeps a stored reason to one bounded line", () => {
    expect(truncateReason("decode-failed:\n  bad frame")).toBe("decode-failed: bad frame");
    expect(truncateReason("x".repeat(2000))).toHaveLength(500);
  });
});

describe("AnalysisStore (SQLite)", () => {
  let store: AnalysisStore;
  beforeEach(() => {
    store = new AnalysisStore(openSqliteDatabase(":memory:"));
  });
  afterEach(() => store.close());
  const lease = { leaseMs: 60_000, limit: 10 };

  it("queues new keys once, claims each for one owner, and stores results", async () => {
    expect(await store.reconcile([{ key: "a", identity: "i1" }, { key: "b", identity: "i2" }], 1000)).toBe(2);
    expect(await store.reconcile([{ key: "a", identity: "i1" }], 2000)).toBe(0);
    const first = await store.claim({ owner: "x", now: 2000, ...lease, limit: 1 });
    const second = await store.claim({ owner: "y", now: 2000, ...lease });
    expect(first.map((c) => c.key)).toEqual(["a"]);
    expect(second.map((c) => c.key)).toEqual(["b"]);
    expect(await store.claim({ owner: "z", now: 2000, ...lease })).toEqual([]);

    expect(await store.finishDone("a", "y", "i1", result(12), 3000)).toBe(false);
    expect(await store.finishDone("a", "x", "i1", result(12), 3000)).toBe(true);
    expect((await store.results(["a", "b", "c"])).map((r) => [r.key, r.analysis.durationSeconds])).toEqual([["a", 12]]);
    expect(await store.summary({ now: 3000 })).toMatchObject({ done: 1, pending: 1, failed: 0, analysing: 1, doneLastHour: 1 });
  });

  it("gives a crashed owner's claim to another after its lease", async () => {
    await store.reconcile([{ key: "a", identity: "i1" }], 0);
    expect(await store.claim({ owner: "crashed", now: 0, ...lease })).toHaveLength(1);
    expect(await store.claim({ owner: "other", now: 59_999, ...lease })).toEqual([]);
    expect(await store.claim({ owner: "other", now: 60_001, ...lease })).toEqual([{ key: "a", identity: "i1", attempts: 2 }]);
    expect(await store.finishDone("a", "crashed", "i1", result(1), 60_002)).toBe(false);
  });

  it("keeps a renewed claim from others past its first lease, and renews only the owner's (ADR 0158)", async () => {
    await store.reconcile([{ key: "a", identity: "i1" }, { key: "b", identity: "i2" }], 0);
    await store.claim({ owner: "live", now: 0, ...lease, limit: 1 });
    await store.claim({ owner: "other", now: 0, ...lease, limit: 1 });
    // "live" renews "a" at 40 s; "b" is not its claim, and stays as "other" took it
    expect(await store.renew(["a", "b"], "live", 40_000, 60_000)).toBe(1);
    expect(await store.claim({ owner: "thief", now: 60_001, ...lease })).toEqual([{ key: "b", identity: "i2", attempts: 2 }]);
    expect(await store.claim({ owner: "thief", now: 99_999, ...lease })).toEqual([]);
    expect(await store.finishDone("a", "live", "i1", result(1), 99_999)).toBe(true);
    expect(await store.renew([], "live", 0, 60_000)).toBe(0);
  });

  it("retries a failure after its backoff, and says when the next row is due", async () => {
    await store.reconcile([{ key: "bad", identity: "i" }], 0);
    const [claim] = await store.claim({ owner: "x", now: 0, ...lease });
    await store.finishFailed(claim, "x", "i", "decode-failed: not audio", 100);
    expect(await store.nextDue()).toBe(100 + 60_000);
    expect(await store.claim({ owner: "x", now: 60_099, ...lease })).toEqual([]);
    const [again] = await store.claim({ owner: "x", now: 60_100, ...lease });
    expect(again.attempts).toBe(2);
    await store.finishFailed(again, "x", "i", "decode-failed: not audio", 60_200);
    const summary = await store.summary({ now: 60_200 });
    expect(summary).toMatchObject({ failed: 1, done: 0 });
    expect(summary.failures).toEqual([{ key: "bad", reason: "decode-failed: not audio", attempts: 2, nextAttemptAt: 60_200 + 120_000 }]);
  });

  it("withdraws a result when the audio changes, keeps it while an older analyzer's result is redone", async () => {
    await store.reconcile([{ key: "a", identity: "i1" }, { key: "b", identity: "j1" }], 0);
    for (const c of await store.claim({ owner: "x", now: 0, ...lease })) await store.finishDone(c.key, "x", c.identity, result(5), 10);
    const marker = await store.marker();

    expect(await store.reconcile([{ key: "a", identity: "i2" }], 20)).toBe(1);
    expect((await store.results(["a"])).length).toBe(0);
    expect(await store.marker()).not.toBe(marker);

    expect(await store.reconcile([{ key: "b", identity: "j1" }], 30, ANALYZER_VERSION + 1)).toBe(1);
    expect((await store.results(["b"])).map((r) => r.analysis.durationSeconds)).toEqual([5]);
    // a track index read afresh meanwhile (a restart) still gets the old figures (issue #20's rollout)
    expect((await store.figuresAfter(null, 10)).rows.find((r) => r.key === "b")).toMatchObject({ seconds: 5 });
    expect(await store.summary({ now: 30 })).toMatchObject({ pending: 2, done: 0 });
  });

  it("reads the figures of every result in pages, then only what changed, a withdrawn result with no seconds", async () => {
    await expectFiguresRead(store);
  });

  it("leaves a held row alone when its audio changes, and gives back released claims at once", async () => {
    await store.reconcile([{ key: "a", identity: "i1" }], 0);
    await store.claim({ owner: "x", now: 0, ...lease });
    expect(await store.reconcile([{ key: "a", identity: "i2" }], 10)).toBe(0);
    expect(await store.release(["a"], "x", 20)).toBe(1);
    expect(await store.claim({ owner: "y", now: 20, ...lease })).toEqual([{ key: "a", identity: "i1", attempts: 1 }]);
  });
});

// Issue #42, ADR 0151: readers follow the number the database gives each stored result, never
// the writer's clock. Two stores on one file are two processes (the server and `npm run analyzer`).
describe("results in the database's order (SQLite)", () => {
  const lease = { leaseMs: 60_000, limit: 10 };
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "analysis-seq-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const analyse = async (store: AnalysisStore, key: string, now: number) => {
    await store.reconcile([{ key, identity: `${key}1` }], now);
    const [claim] = await store.claim({ owner: `w-${key}`, now, ...lease });
    expect(await store.finishDone(claim.key, `w-${key}`, claim.identity, result(60), now)).toBe(true);
  };

  it("a result stored by a writer whose clock is five minutes behind is seen by a reader that saw newer ones", async () => {
    const file = path.join(dir, "analysis.sqlite");
    const reader = new AnalysisStore(openSqliteDatabase(file));
    const onTime = new AnalysisStore(openSqliteDatabase(file));
    const late = new AnalysisStore(openSqliteDatabase(file));
    try {
      const now = 1_800_000_000_000;
      await analyse(onTime, "a", now);
      const seen = await reader.figuresAfter(null, 10);
      expect(seen.rows.map((r) => r.key)).toEqual(["a"]);
      const marker = await reader.marker();

      await analyse(late, "b", now + 1_000 - 5 * 60_000);
      // the version moves, and the read after the cursor has it, though its clock says earlier
      expect(await reader.marker()).not.toBe(marker);
      const next = await reader.figuresAfter(seen.next, 10);
      expect(next.rows.map((r) => r.key)).toEqual(["b"]);
      expect(next.next!.seq).toBeGreaterThan(seen.next!.seq);
      expect((await reader.figuresAfter(next.next, 10)).rows).toEqual([]);
    } finally {
      await Promise.all([reader.close(), onTime.close(), late.close()]);
    }
  });

  it("numbers an older file's results in their old order once, and later results after them", async () => {
    const file = path.join(dir, "analysis.sqlite");
    // a file as the store made it before result_seq
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE track_analysis (key TEXT PRIMARY KEY, identity TEXT NOT NULL, status TEXT NOT NULL, analysis TEXT,
      analyzer_version INTEGER, reason TEXT, attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at BIGINT NOT NULL, lease_owner TEXT,
      lease_until BIGINT, result_at BIGINT, finished_at BIGINT, updated_at BIGINT NOT NULL)`);
    const insert = old.prepare(`INSERT INTO track_analysis (key, identity, status, analysis, analyzer_version, next_attempt_at, result_at, updated_at)
      VALUES (?, 'i', ?, ?, ?, 0, ?, 0)`);
    insert.run("late", "done", JSON.stringify(result(30)), ANALYZER_VERSION, 3_000);
    insert.run("early", "done", JSON.stringify(result(20)), ANALYZER_VERSION, 1_000);
    insert.run("queued", "failed", null, null, null);
    old.exec("UPDATE track_analysis SET next_attempt_at = 9000000000000000 WHERE key = 'queued'");
    old.close();

    const store = new AnalysisStore(openSqliteDatabase(file));
    try {
      const all = await store.figuresAfter(null, 10);
      expect(all.rows.map((r) => r.key)).toEqual(["early", "late"]);
      expect(all.next).toEqual({ seq: 2 });
      await analyse(store, "new", 0);
      expect((await store.figuresAfter(all.next, 10)).rows.map((r) => r.key)).toEqual(["new"]);
    } finally {
      await store.close();
    }
    // opened again: nothing numbered twice
    const again = new AnalysisStore(openSqliteDatabase(file));
    try {
      expect((await again.figuresAfter(null, 10)).rows.map((r) => r.key)).toEqual(["early", "late", "new"]);
    } finally {
      await again.close();
    }
  });
});

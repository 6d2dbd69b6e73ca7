import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANALYZER_VERSION, type TrackAnalysis } from "../../app/.server/analysis/analyze.ts";
import { AnalysisStore } from "../../app/.server/analysis/stage/store.ts";
import { openSqliteDatabase } from "../../app/.server/analysis/stage/store-sqlite.ts";
import { ensureSampleData, checkSampleSpace } from "../../app/.server/catalog/sample/ensure.ts";
import { SnapshotStore } from "../../app/.server/catalog/snapshots.ts";
import { CatalogRunner } from "../../app/.server/catalog/runner.ts";
import type { SyncSource } from "../../app/.server/catalog/sources/source.ts";
import { parseConfig } from "../../app/.server/config.ts";
import { SqliteOutboxRepository } from "../../app/.server/db/sqlite-outbox.ts";
import { startLeads } from "../../app/.server/leads/service.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { ThumbnailDiskCache } from "../../server/image-cache.ts";
import { newMessage } from "../support/outbox-stores.ts";
import { mountSmallDisk, type SmallDisk } from "../support/tmpfs.ts";

// Issue #15 on a disk that really is full: a tmpfs of a few megabytes, filled to the last byte.
const disk = mountSmallDisk(8 * 1024 * 1024);
const skip = "skip" in disk ? disk.skip : undefined;
if (skip) console.log(`full-disk tests skipped: ${skip}`);
const logger = createLogger("silent");

describe.skipIf(Boolean(skip))("writes to DATA_DIR on a full disk", () => {
  const small = disk as SmallDisk;
  const dir = (name: string) => {
    const d = path.join(small.dir, name);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  const tempFiles = (d: string) => fs.readdirSync(d, { recursive: true }).map(String).filter((f) => f.endsWith(".tmp"));
  beforeAll(() => small.free());
  afterAll(() => small.unmount());

  it("the outbox refuses a lead whose COMMIT cannot be written, and takes the next one under a new id", async () => {
    const repo = new SqliteOutboxRepository(path.join(dir("outbox"), "leads.sqlite"));
    try {
      const first = await repo.enqueue(newMessage(1));
      repo.handle.exec("PRAGMA wal_checkpoint(TRUNCATE)"); // the next commit needs new space
      small.fill();
      await expect(repo.enqueue(newMessage(2))).rejects.toThrow(/full|disk|I\/O/i);
      await expect(repo.probeWrite(Date.now())).rejects.toThrow();
      small.free();
      const next = await repo.enqueue(newMessage(3));
      expect(next.message.id).toBeGreaterThan(first.message.id);
      expect((await repo.list()).map((m) => m.lead.email)).toEqual(["v3@example.org", "v1@example.org"]);
    } finally {
      small.free();
      await repo.close();
    }
  });

  it("the leads service answers unavailable and is not ready while the disk is full", async () => {
    const dataDir = dir("leads");
    const config = parseConfig({ DATA_DIR: dataDir, OUTBOX_WORKER: "false", LEAD_RECEIPTS: "false", LOG_LEVEL: "silent" });
    const leads = await startLeads({ config, logger });
    try {
      const lead = { kind: "contact" as const, data: { name: "Full Disk", email: "full@example.org", subject: "Hello", message: "A message on a full disk." } };
      expect((await leads.submit(lead, { ip: "203.0.113.5", idempotencyKey: crypto.randomUUID() })).status).toBe("accepted");
      ((await leads.outbox()) as SqliteOutboxRepository).handle.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      small.fill();
      expect(await leads.submit(lead, { ip: "203.0.113.5", idempotencyKey: crypto.randomUUID() })).toMatchObject({ status: "unavailable" });
      expect(await leads.readiness()).toMatchObject({ ready: false });
    } finally {
      small.free();
      await leads.close();
    }
  });

  it("a catalog snapshot that cannot be written leaves the previous one whole, and no temp file", async () => {
    const dataDir = dir("snapshots");
    const store = new SnapshotStore(dataDir);
    const previous = { name: "films", savedAt: "2026-11-01T00:00:00.000Z", source: "test", fingerprint: "a", data: [{ id: 1 }] };
    await store.write(previous);
    small.fill();
    try {
      await expect(store.write({ ...previous, fingerprint: "b", data: Array.from({ length: 5000 }, (_, id) => ({ id, title: "x".repeat(100) })) })).rejects.toThrow();
    } finally {
      small.free();
    }
    expect(await store.read("films")).toEqual(previous);
    expect(tempFiles(dataDir)).toEqual([]);
  });

  it("a catalog sync whose snapshot cannot be saved keeps serving the previous one, and saves the new one at the next sync", async () => {
    const store = new SnapshotStore(dir("runner"));
    let answer = ["Album A", "Album B"];
    const source: SyncSource<string[]> = {
      name: "albums",
      location: "https://upstream.example/merged.json",
      local: false,
      empty: () => [],
      count: (list) => list.length,
      load: async () => ({ data: [...answer] }),
    };
    const runner = new CatalogRunner<{ albums: string[] }>({ sources: { albums: source }, store, log: logger, maxShrink: 0.5 });
    try {
      await runner.start({ initialSync: false });
      await runner.sync();
      expect(runner.get("albums")).toEqual(["Album A", "Album B"]);
      const saved = fs.readFileSync(store.file("albums"), "utf8");
      answer = Array.from({ length: 20_000 }, (_, i) => `Album ${i} ${"x".repeat(40)}`);
      small.fill();
      try {
        await runner.sync();
      } finally {
        small.free();
      }
      expect(runner.get("albums")).toEqual(["Album A", "Album B"]); // the previous one, still served
      expect(fs.readFileSync(store.file("albums"), "utf8")).toBe(saved); // and whole on disk
      expect(runner.status()[0]).toMatchObject({ ok: false, error: expect.stringContaining("Could not save the snapshot") });
      await runner.sync(); // the space is back: the same answer is saved and served
      expect(runner.get("albums")).toHaveLength(20_000);
      expect(runner.status()[0]).toMatchObject({ ok: true });
      expect((await store.read<string[]>("albums"))!.data).toHaveLength(20_000);
    } finally {
      await runner.close();
    }
  });

  it("a thumbnail that cannot be cached leaves no partial file to serve later", async () => {
    const cacheDir = dir("img");
    const cache = new ThumbnailDiskCache(cacheDir, 1 << 20, logger);
    await cache.ready;
    const name = `${"a".repeat(64)}.webp`;
    small.fill();
    try {
      await expect(cache.write(name, Buffer.alloc(64 * 1024, 7))).rejects.toThrow();
    } finally {
      small.free();
    }
    expect(fs.readdirSync(cacheDir)).toEqual([]);
    expect(await cache.read(name)).toBeUndefined();
  });

  it("an analysis result that cannot be written leaves its track not analysed, and is stored when retried", async () => {
    const store = new AnalysisStore(openSqliteDatabase(path.join(dir("analysis"), "analysis.sqlite")));
    const analysis = {
      durationSeconds: 30,
      bpm: 120,
      bpmConfidence: 0.9,
      key: "A minor",
      keyConfidence: 0.8,
      loudnessLufs: -14,
      previewPeaks: Array(100).fill(0.5),
      overviewPeaks: Array(200).fill(0.5),
      analyzerVersion: ANALYZER_VERSION,
    } as TrackAnalysis;
    try {
      await store.reconcile([{ key: "a.mp3", identity: "i" }], 0);
      const [claim] = await store.claim({ owner: "x", now: 0, leaseMs: 60_000, limit: 1 });
      await store.db.query("PRAGMA wal_checkpoint(TRUNCATE)");
      small.fill();
      await expect(store.finishDone(claim!.key, "x", "i", analysis, 10)).rejects.toThrow();
      small.free();
      expect(await store.results(["a.mp3"])).toEqual([]);
      expect(await store.summary({ now: 10 })).toMatchObject({ done: 0 });
      // the claim's lease ends, another analyzer takes it, and its result lands
      const [again] = await store.claim({ owner: "y", now: 60_001, leaseMs: 60_000, limit: 1 });
      expect(again!.key).toBe("a.mp3");
      expect(await store.finishDone("a.mp3", "y", "i", analysis, 60_002)).toBe(true);
      expect(await store.results(["a.mp3"])).toHaveLength(1);
    } finally {
      small.free();
      await store.close();
    }
  });

  it("a first start on a full DATA_DIR stops with a message naming it and the space needed, and writes no half file", async () => {
    const dataDir = path.join(small.dir, "first-start");
    small.fill();
    try {
      await expect(checkSampleSpace(dataDir)).rejects.toThrow(/DATA_DIR .*first-start.*needs about 32 MB free/);
      await expect(ensureSampleData(dataDir)).rejects.toThrow(/DATA_DIR .*first-start/);
    } finally {
      small.free();
    }
    // an 8 MB disk is too small even when empty
    await expect(checkSampleSpace(dataDir)).rejects.toThrow(/has \d+ MB free: the sample catalog needs about 32 MB/);
    if (fs.existsSync(dataDir)) expect(tempFiles(dataDir)).toEqual([]);
  });
});

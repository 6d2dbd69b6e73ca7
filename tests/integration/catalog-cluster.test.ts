import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openCatalogCluster } from "../../app/.server/catalog/cluster-sync.ts";
import { startCatalog, type CatalogService } from "../../app/.server/catalog/service.ts";
import { parseConfig } from "../../app/.server/config.ts";
import { createSharedPostgres, type SharedPostgres } from "../../app/.server/db/postgres-pool.ts";
import { startFakeServer, type Answer, type FakeServer } from "../../benchmarks/lib/http-fake.ts";
import { captureLogger } from "../fakes/log-capture.ts";
import { albumEntry } from "../support/catalog-fixtures.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { waitFor } from "../support/wait.ts";

// Issue #42 "One sync per cluster", ADR 0157, in one test process: three catalogs, each with its
// own DATA_DIR and PostgreSQL pool (three machines), on one database. Only the lease's holder
// asks the upstream; the others serve the version it publishes, and a version that is not whole
// or over CATALOG_SNAPSHOT_MAX_BYTES never replaces the one served. (The same with three site
// processes and a kill -9: tests/e2e/cluster-sync.test.ts.)

let db: TestPostgres;
let url: string;
let upstream: FakeServer;
let list: unknown[];
let etag: number;
const machines: { catalog: CatalogService; postgres: SharedPostgres; dataDir: string; log: ReturnType<typeof captureLogger> }[] = [];
let n = 0;

beforeAll(async () => {
  db = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  await db?.stop();
});

beforeEach(async () => {
  url = await db.createDatabase(`cluster_${++n}`);
  list = [1, 2, 3].map(albumEntry);
  etag = 1;
  upstream = await startFakeServer("/static/", (req): Answer => {
    if (req.path !== "/merged.json") return { status: 404, body: { message: "Not Found" } };
    if (req.headers["if-none-match"] === `"${etag}"`) return { status: 304, body: undefined };
    return { status: 200, body: list, headers: { ETag: `"${etag}"` } };
  });
});
afterEach(async () => {
  for (const m of machines.splice(0)) {
    await m.catalog.close();
    await m.postgres.end();
    fs.rmSync(m.dataDir, { recursive: true, force: true });
  }
  await upstream.close();
});

async function machine(env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-cluster-"));
  const postgres = createSharedPostgres(url, 4);
  const log = captureLogger();
  const catalog = await startCatalog({
    config: parseConfig({ DATA_DIR: dataDir, DATABASE_URL: url, ALBUMS_URL: `${upstream.url}merged.json`, CATALOG_REFRESH_SECONDS: "1", CATALOG_LEASE_SECONDS: "3", ...env }),
    logger: log.logger,
    retry: { baseMs: 1 },
    timeoutMs: 2_000,
    postgres,
  });
  const m = { catalog, postgres, dataDir, log };
  machines.push(m);
  return m;
}

const names = (c: CatalogService) => c.snapshot().albums.toArray().map((a) => a.name);
const fetches = () => upstream.requestsTo("/merged.json").length;

async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

describe("one catalog sync per cluster (PostgreSQL)", () => {
  it("the first machine syncs and publishes; machines that join serve that version without asking the upstream", async () => {
    const first = await machine();
    await waitFor("the first machine's version published", async () => (await sql("SELECT 1 FROM catalog_snapshot_versions")).length > 0);
    expect(names(first.catalog)).toEqual(["Album 1", "Album 2", "Album 3"]);
    const second = await machine();
    const third = await machine();
    // served at once, from the published version
    expect(names(second.catalog)).toEqual(["Album 1", "Album 2", "Album 3"]);
    expect(names(third.catalog)).toEqual(["Album 1", "Album 2", "Album 3"]);
    expect(second.catalog.status().find((s) => s.name === "albums")).toMatchObject({ count: 3, updatedAt: first.catalog.status().find((s) => s.name === "albums")!.updatedAt });
    // a few intervals later: only the holder has asked (every ask conditional, answered 304)
    const before = fetches();
    const start = Date.now();
    await waitFor("four more fetches", () => fetches() >= before + 4, 20_000);
    const intervals = (Date.now() - start) / 1000;
    expect(fetches() - before).toBeLessThanOrEqual(Math.ceil(intervals) + 1);
    expect(upstream.requestsTo("/merged.json").slice(before).every((r) => r.headers["if-none-match"] === '"1"')).toBe(true);

    // a new list: every machine serves it within 10 s of its publication
    list = [...list, albumEntry(4)];
    etag = 2;
    await waitFor("the new version published", async () => (await sql<{ version: string }>("SELECT version FROM catalog_snapshot_versions ORDER BY version DESC LIMIT 1"))[0]?.version !== "1", 15_000);
    const published = Date.now();
    await waitFor("every machine serving four albums", () => machines.every((m) => names(m.catalog).length === 4), 10_000);
    expect(Date.now() - published).toBeLessThan(10_000);
    expect(new Set(machines.map((m) => names(m.catalog).join("|"))).size).toBe(1);
  });

  it("a leader that stops renewing is replaced within the lease; the new leader syncs and publishes", async () => {
    const first = await machine();
    await waitFor("published", async () => (await sql("SELECT 1 FROM catalog_snapshot_versions")).length > 0);
    const second = await machine();
    // the holder goes away without letting the lease go (as a killed process would): its timers stop
    const [{ holder }] = await sql<{ holder: string }>("SELECT holder FROM catalog_sync_lease");
    await sql("UPDATE catalog_sync_lease SET holder = 'gone/0/0' WHERE holder = $1", [holder]);
    machines.splice(machines.indexOf(first), 1);
    await first.catalog.close();
    await first.postgres.end();
    const lost = Date.now();
    await waitFor("another machine holding the lease", async () => (await sql<{ holder: string }>("SELECT holder FROM catalog_sync_lease"))[0].holder !== "gone/0/0", 10_000);
    expect(Date.now() - lost).toBeLessThan(3_000 + 2_000);
    list = [...list, albumEntry(9)];
    etag = 3;
    await waitFor("the new holder's sync served", () => names(second.catalog).includes("Album 9"), 15_000);
  });

  it("an answer held back is held back once for the cluster; the operator's forced sync on any machine is published to all", async () => {
    const first = await machine();
    await waitFor("published", async () => (await sql("SELECT 1 FROM catalog_snapshot_versions")).length > 0);
    const second = await machine();
    // the upstream loses two of three albums: the holder holds it back (ADR 0074), nobody serves it
    list = [albumEntry(1)];
    etag = 5;
    await waitFor("the holder's hold-back", () => machines.some((m) => /Held back/.test(m.catalog.status().find((st) => st.name === "albums")?.error ?? "")), 15_000);
    expect(machines.map((m) => names(m.catalog).length)).toEqual([3, 3]);
    // `npm run catalog -- sync --force --source albums` on the machine that joined second (not the holder)
    await second.catalog.syncNow({ force: true, sources: ["albums"] });
    await waitFor("both machines serving the forced list", () => [first, second].every((m) => names(m.catalog).join() === "Album 1"), 10_000);
  });

  it("a version that is not whole, or over CATALOG_SNAPSHOT_MAX_BYTES, never replaces the one served", async () => {
    const first = await machine();
    await waitFor("published", async () => (await sql("SELECT 1 FROM catalog_snapshot_versions")).length > 0);
    // the publisher gone (a holder would publish its own files again over the versions below),
    // and the machine left syncing once in ten minutes: it only looks at the versions
    machines.splice(machines.indexOf(first), 1);
    await first.catalog.close();
    await first.postgres.end();
    const other = await machine({ CATALOG_SNAPSHOT_MAX_BYTES: "100000", CATALOG_REFRESH_SECONDS: "600" });
    expect(names(other.catalog)).toEqual(["Album 1", "Album 2", "Album 3"]);
    // a version whose manifest promises bytes its chunks do not hold (a torn publish)
    const [latest] = await sql<{ version: string; files: { name: string; bytes: number; sha256: string }[] }>("SELECT version, files FROM catalog_snapshot_versions ORDER BY version DESC LIMIT 1");
    const torn = latest.files.map((f) => ({ ...f, sha256: "0".repeat(64) }));
    await sql("INSERT INTO catalog_snapshot_versions (publisher, bytes, files) VALUES ('test', 10, $1)", [JSON.stringify(torn)]);
    await waitFor("the torn version refused", () => other.log.lines().some((l) => /not whole/.test(String(l.err))), 10_000);
    expect(names(other.catalog)).toEqual(["Album 1", "Album 2", "Album 3"]);
    expect(fs.readdirSync(path.join(other.dataDir, "catalog", "snapshots")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    // and one over the bound
    await sql("INSERT INTO catalog_snapshot_versions (publisher, bytes, files) VALUES ('test', 200000, $1)", [JSON.stringify(latest.files)]);
    await waitFor("the large version refused", () => other.log.messages().some((m) => /over CATALOG_SNAPSHOT_MAX_BYTES/.test(m)), 10_000);
    expect(names(other.catalog)).toEqual(["Album 1", "Album 2", "Album 3"]);
  });

  it("a publish that fails half-way is never seen: the previous version stays the newest, and is what a machine takes", async () => {
    // each a machine's DATA_DIR/catalog/snapshots (the version taken is recorded beside it)
    const [publisher, reader] = [0, 1].map(() => {
      const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "catalog-cluster-")), "snapshots");
      fs.mkdirSync(dir);
      return { dir, postgres: createSharedPostgres(url, 2) };
    });
    try {
      const open = (m: typeof publisher) => openCatalogCluster({ postgres: m.postgres, dir: m.dir, log: captureLogger().logger, leaseSeconds: 5, maxBytes: 64 * 1024 * 1024 });
      const writer = await open(publisher);
      fs.writeFileSync(path.join(publisher.dir, "films.json"), JSON.stringify({ name: "films", data: ["first"] }));
      const first = await writer.publish({ asLeader: false, names: ["films"] });
      expect(first).toBeGreaterThan(0);
      // PostgreSQL refuses the second chunk of the next publish (a full disk, a dropped connection)
      await sql(`CREATE FUNCTION refuse_chunk() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'no room for chunk %', NEW.seq; END $$ LANGUAGE plpgsql`);
      await sql("CREATE TRIGGER refuse_chunk BEFORE INSERT ON catalog_snapshot_chunks FOR EACH ROW WHEN (NEW.seq = 1) EXECUTE FUNCTION refuse_chunk()");
      fs.writeFileSync(path.join(publisher.dir, "films.json"), JSON.stringify({ name: "films", data: ["x".repeat(5 * 1024 * 1024)] }));
      await expect(writer.publish({ asLeader: false, names: ["films"] })).rejects.toThrow(/no room for chunk 1/);
      expect(await sql("SELECT version FROM catalog_snapshot_versions")).toEqual([{ version: String(first) }]);
      expect(await sql("SELECT count(*)::int AS n FROM catalog_snapshot_chunks WHERE version <> $1", [first])).toEqual([{ n: 0 }]);
      // a machine that looks now takes the first version, whole
      const taker = await open(reader);
      expect(await taker.pull()).toBe(true);
      expect(JSON.parse(fs.readFileSync(path.join(reader.dir, "films.json"), "utf8"))).toEqual({ name: "films", data: ["first"] });
      expect(taker.version).toBe(first);
      await Promise.all([writer.close(), taker.close()]);
    } finally {
      for (const m of [publisher, reader]) {
        await m.postgres.end();
        fs.rmSync(path.dirname(m.dir), { recursive: true, force: true });
      }
    }
  });
});

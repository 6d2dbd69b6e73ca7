import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import type { Logger } from "../logger.ts";
import type { SharedPostgres } from "../db/postgres-pool.ts";
import { errorMessage } from "./errors.ts";
import { fsyncDirectory, tempFileFor, writeFileAtomic } from "./files.ts";
import { download, hashFile, upload, type PublishedFile } from "./chunk-store.ts";

/**
 * Issue #42 "One sync per cluster", ADR 0157. With DATABASE_URL, the machines of a cluster share
 * one catalog sync:
 * - a lease row in PostgreSQL names the one process that calls the upstreams each interval; it
 *   is renewed every third of CATALOG_LEASE_SECONDS and taken over by another process once it
 *   has run out (a holder killed with -9 stops renewing). Times are PostgreSQL's `now()`, never
 *   a machine's clock, and every statement stands alone, so the lease works through PgBouncer
 *   in transaction mode (a session advisory lock would not);
 * - the holder publishes the snapshot files it wrote (DATA_DIR/catalog/snapshots/*.json) as a
 *   numbered version: the version row and its files' chunks in one transaction, so a failed or
 *   partial publish is never seen, and only while it still holds the lease (a holder that was
 *   paused past its lease publishes nothing);
 * - every machine looks at the newest version number every POLL_MS (one indexed row read),
 *   downloads the files that differ from its own into temp files, checks their size and
 *   SHA-256, and only then renames them into place: the runner adopts them as it adopts a
 *   snapshot another process wrote (ADR 0081). A machine that joins takes the current version
 *   before anything else and never calls an upstream for it.
 * The SQLite default (no DATABASE_URL) never builds this: one machine syncs as before.
 */
export interface CatalogCluster {
  /** Takes or renews the lease; true while this process holds it. False when PostgreSQL cannot be reached. */
  lead(): Promise<boolean>;
  /**
   * The holder's turn to sync: true (and the cluster's sync time set to now) when this process
   * holds the lease and the cluster's last sync is `intervalSeconds` old or there was none.
   */
  claimSync(intervalSeconds: number): Promise<boolean>;
  /** Brings the newest published version's files into the snapshot folder; true when a file changed. */
  pull(): Promise<boolean>;
  /**
   * Publishes the snapshot files as a new version when they differ from the newest published.
   * `asLeader`: only while this process holds the lease (the interval's sync); the operator's
   * `npm run catalog -- sync` publishes what it accepted without it.
   */
  publish(opts: { asLeader: boolean; names: readonly string[] }): Promise<number | undefined>;
  /** The version this machine's files are (0: none taken yet). */
  readonly version: number;
  /** Whether this process held the lease at its last look (ADR 0162 amended: only it publishes the track index). */
  leads(): boolean;
  /**
   * Publishes a track index version (ADR 0162 amended), as snapshots are published: one
   * transaction under the lease's fencing check, the file as chunks, the newest two versions
   * kept. Undefined when not published (the lease lost, the same file already the newest for
   * its table, over its bound).
   */
  publishIndex(p: IndexPublication): Promise<number | undefined>;
  /** Lets the lease go (a graceful stop: another process takes over at its next look). */
  close(): Promise<void>;
}

/** How often a machine looks for a new version and renews or tries the lease (ADR 0157: served within 10 s). */
export const POLL_MS = 2_000;
/** Any fixed number, apart from the other stores' (postgres-pool.ts). */
const MIGRATION_LOCK = 4_015_701;

export const CLUSTER_SCHEMA = `
CREATE TABLE IF NOT EXISTS catalog_sync_lease (
  id SMALLINT PRIMARY KEY CHECK (id = 1),
  holder TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  taken_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  synced_at TIMESTAMPTZ
);
CREATE TABLE IF NOT EXISTS catalog_snapshot_versions (
  version BIGSERIAL PRIMARY KEY,
  published_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  publisher TEXT NOT NULL,
  bytes BIGINT NOT NULL,
  files JSONB NOT NULL
);
CREATE TABLE IF NOT EXISTS catalog_snapshot_chunks (
  version BIGINT NOT NULL REFERENCES catalog_snapshot_versions (version) ON DELETE CASCADE,
  name TEXT NOT NULL,
  seq INTEGER NOT NULL,
  data BYTEA NOT NULL,
  PRIMARY KEY (version, name, seq)
);
CREATE TABLE IF NOT EXISTS track_index_versions (
  version BIGSERIAL PRIMARY KEY,
  published_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  publisher TEXT NOT NULL,
  table_digest TEXT NOT NULL,
  format TEXT NOT NULL,
  result_seq BIGINT NOT NULL,
  name TEXT NOT NULL,
  bytes BIGINT NOT NULL,
  sha256 TEXT NOT NULL
);
-- the digest of the track lists a version's columns were made from (ADR 0162, seventh session)
ALTER TABLE track_index_versions ADD COLUMN IF NOT EXISTS table_source TEXT;
CREATE TABLE IF NOT EXISTS track_index_chunks (
  version BIGINT NOT NULL REFERENCES track_index_versions (version) ON DELETE CASCADE,
  name TEXT NOT NULL,
  seq INTEGER NOT NULL,
  data BYTEA NOT NULL,
  PRIMARY KEY (version, name, seq)
);
`;

/**
 * A track index version as published (ADR 0162, amended: the figures file built by the lease
 * holder): the table it was built for (tableDigest), its format, the last result it includes
 * (ADR 0151's result_seq), and its file's name (content-named), size and SHA-256.
 */
export interface IndexVersion {
  version: number;
  table: string;
  format: string;
  resultSeq: number;
  name: string;
  bytes: number;
  sha256: string;
  /** the digest of the track lists its columns were made from, when it carries them (table-arrays.ts), else null */
  source: string | null;
}

/** What the lease holder publishes of its track index (track-index.ts). */
export interface IndexPublication {
  /** the figures file (figure-bytes.ts, written with its arrays) */
  file: string;
  table: string;
  /** the file's track lists digest, when it carries the table's columns and title postings */
  source?: string | null;
  format: string;
  resultSeq: number;
  /** refused above this (bytes) */
  maxBytes: number;
}

interface Manifest {
  version: number;
  files: PublishedFile[];
}

export interface ClusterOptions {
  postgres: SharedPostgres;
  /** DATA_DIR/catalog/snapshots */
  dir: string;
  log: Logger;
  /** CATALOG_LEASE_SECONDS */
  leaseSeconds: number;
  /** CATALOG_SNAPSHOT_MAX_BYTES */
  maxBytes: number;
}

export async function openCatalogCluster(opts: ClusterOptions): Promise<CatalogCluster> {
  const { postgres, dir, log, leaseSeconds, maxBytes } = opts;
  // The tables are made at the first statement, not here: a PostgreSQL that is down at start
  // delays nothing but the first look, and each look tries again (a failed prepare is not kept).
  const ready = () => postgres.prepare({ migrationLock: MIGRATION_LOCK, schema: CLUSTER_SCHEMA });
  const pool = postgres.pool;
  // host and pid: an operator (and the takeover test) can tell which process holds the lease
  const holder = `${os.hostname()}/${process.pid}/${crypto.randomBytes(4).toString("hex")}`;
  const stateFile = path.join(path.dirname(dir), "cluster-version.json");
  let local: Manifest = await readState(stateFile);
  /** sha256 of a snapshot file by its size:mtime, so an unchanged 175 MB file is not hashed each interval */
  const hashes = new Map<string, { stamp: string; sha256: string }>();
  let refused = 0;
  let lastLead = false;
  let leaseFault: string | undefined;
  let closed = false;
  /** pulls and publishes one at a time: both write the snapshot folder */
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  /** index publications one at a time (each holds a connection for its upload) */
  let indexQueue: Promise<unknown> = Promise.resolve();

  /**
   * The fencing check of a publication, the last statement before its COMMIT: this process still
   * holds an unexpired lease, and the row stays so until the COMMIT (FOR SHARE). Taken at the end,
   * not the start: held over the upload (a 715.8 MB version at 250,000 albums), the row lock kept
   * every machine's renewal and takeover (`lead`, an UPDATE of that row) waiting, so the holder's
   * lease was not renewed and no sync ran for the upload's length (ADR 0162 amended, sixth session).
   */
  const stillHolds = async (client: pg.PoolClient): Promise<boolean> =>
    ((await client.query("SELECT 1 FROM catalog_sync_lease WHERE id = 1 AND holder = $1 AND expires_at > now() FOR SHARE", [holder])).rowCount ?? 0) > 0;

  const publishIndex = async (p: IndexPublication): Promise<number | undefined> => {
    const { bytes, sha256 } = await hashFile(p.file);
    if (bytes > p.maxBytes) {
      log.error({ bytes, maxBytes: p.maxBytes }, "catalog cluster: the track index's figures file is over its bound; not published (every machine builds its own)");
      return undefined;
    }
    await ready();
    // the same bytes already published for this table: the figures are the same (results since changed none)
    const same = await pool.query("SELECT 1 FROM track_index_versions WHERE table_digest = $1 AND format = $2 AND sha256 = $3", [p.table, p.format, sha256]);
    if (same.rowCount) return undefined;
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const name = path.basename(p.file);
      const { rows } = await client.query<{ version: string }>(
        "INSERT INTO track_index_versions (publisher, table_digest, format, result_seq, name, bytes, sha256, table_source) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING version",
        [holder, p.table, p.format, p.resultSeq, name, bytes, sha256, p.source ?? null],
      );
      const version = Number(rows[0].version);
      await upload(client, "track_index_chunks", version, { name: INDEX_CHUNK_NAME, bytes, sha256 }, p.file);
      // the newest two are kept (whatever their tables): a machine still downloading the previous one finishes it
      await client.query("DELETE FROM track_index_versions WHERE version < (SELECT min(version) FROM (SELECT version FROM track_index_versions ORDER BY version DESC LIMIT 2) AS kept)");
      // fencing, as for snapshots: a holder paused past its lease publishes nothing
      if (!(await stillHolds(client))) {
        await client.query("ROLLBACK");
        return undefined;
      }
      await client.query("COMMIT");
      log.info({ version, bytes, table: p.table.slice(0, 12), resultSeq: p.resultSeq }, "catalog cluster: published a track index version");
      return version;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  const fileHash = async (name: string): Promise<PublishedFile | undefined> => {
    const file = path.join(dir, `${name}.json`);
    const stat = await fsp.stat(file).catch(() => undefined);
    if (!stat) return undefined;
    const stamp = `${stat.size}:${stat.mtimeMs}`;
    const known = hashes.get(name);
    if (known?.stamp === stamp) return { name, bytes: stat.size, sha256: known.sha256 };
    const hash = crypto.createHash("sha256");
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
    const sha256 = hash.digest("hex");
    hashes.set(name, { stamp, sha256 });
    return { name, bytes: stat.size, sha256 };
  };

  const newest = async (client: pg.Pool | pg.PoolClient = pool): Promise<(Manifest & { bytes: number }) | undefined> => {
    const { rows } = await client.query<{ version: string; bytes: string; files: PublishedFile[] }>(
      "SELECT version, bytes, files FROM catalog_snapshot_versions ORDER BY version DESC LIMIT 1",
    );
    return rows[0] && { version: Number(rows[0].version), bytes: Number(rows[0].bytes), files: rows[0].files };
  };

  const remember = async (manifest: Manifest) => {
    local = manifest;
    await writeFileAtomic(stateFile, JSON.stringify(manifest)).catch((error: unknown) => log.warn({ err: errorMessage(error) }, "catalog cluster: could not record the version taken"));
  };

  const pull = async (): Promise<boolean> => {
    await ready();
    const latest = await newest();
    if (!latest || latest.version <= local.version) return false;
    if (latest.bytes > maxBytes) {
      if (refused !== latest.version) log.error({ version: latest.version, bytes: latest.bytes, maxBytes }, "catalog cluster: a published version is over CATALOG_SNAPSHOT_MAX_BYTES; serving the current one");
      refused = latest.version;
      return false;
    }
    const mine = new Map((await Promise.all(latest.files.map((f) => fileHash(f.name)))).filter((f) => f !== undefined).map((f) => [f.name, f.sha256]));
    const wanted = latest.files.filter((f) => mine.get(f.name) !== f.sha256);
    const staged: { tmp: string; file: string }[] = [];
    await fsp.mkdir(dir, { recursive: true });
    try {
      // every file downloaded and checked before any is renamed: a version is taken whole or not at all
      for (const f of wanted) {
        const file = path.join(dir, `${f.name}.json`);
        const tmp = tempFileFor(file);
        staged.push({ tmp, file });
        await download(pool, "catalog_snapshot_chunks", latest.version, f, tmp);
      }
      for (const { tmp, file } of staged) await fsp.rename(tmp, file);
      if (staged.length) await fsyncDirectory(dir);
    } catch (error) {
      await Promise.all(staged.map(({ tmp }) => fsp.rm(tmp, { force: true })));
      throw error;
    }
    await remember({ version: latest.version, files: latest.files });
    log.info({ version: latest.version, files: wanted.map((f) => f.name) }, "catalog cluster: took the published version");
    return wanted.length > 0;
  };

  const publish = async ({ asLeader, names }: { asLeader: boolean; names: readonly string[] }): Promise<number | undefined> => {
    const files = (await Promise.all(names.map(fileHash))).filter((f) => f !== undefined);
    const bytes = files.reduce((n, f) => n + f.bytes, 0);
    await ready();
    const latest = await newest();
    const same = (a: PublishedFile[], b: PublishedFile[]) => a.length === b.length && a.every((f) => b.some((g) => g.name === f.name && g.sha256 === f.sha256));
    if (latest && same(files, latest.files)) {
      if (latest.version > local.version) await remember({ version: latest.version, files: latest.files });
      return undefined;
    }
    if (!files.length) return undefined;
    if (bytes > maxBytes) {
      log.error({ bytes, maxBytes }, "catalog cluster: the snapshot is over CATALOG_SNAPSHOT_MAX_BYTES; not published");
      return undefined;
    }
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<{ version: string }>("INSERT INTO catalog_snapshot_versions (publisher, bytes, files) VALUES ($1, $2, $3) RETURNING version", [holder, bytes, JSON.stringify(files)]);
      const version = Number(rows[0].version);
      for (const f of files) {
        const previous = latest?.files.find((g) => g.name === f.name && g.sha256 === f.sha256);
        if (previous) {
          // unchanged since the newest version: copied inside PostgreSQL, not sent again
          await client.query("INSERT INTO catalog_snapshot_chunks (version, name, seq, data) SELECT $1, name, seq, data FROM catalog_snapshot_chunks WHERE version = $2 AND name = $3", [version, latest!.version, f.name]);
        } else {
          await upload(client, "catalog_snapshot_chunks", version, f, path.join(dir, `${f.name}.json`));
        }
      }
      // the newest two are kept: a machine still downloading the previous one finishes it
      await client.query("DELETE FROM catalog_snapshot_versions WHERE version < (SELECT min(version) FROM (SELECT version FROM catalog_snapshot_versions ORDER BY version DESC LIMIT 2) AS kept)");
      // fencing: a holder paused past its lease (another has taken it) publishes nothing
      if (asLeader && !(await stillHolds(client))) {
        await client.query("ROLLBACK");
        log.warn("catalog cluster: the lease was lost before publishing; the holder's next sync publishes");
        return undefined;
      }
      await client.query("COMMIT");
      await remember({ version, files });
      log.info({ version, bytes, files: files.map((f) => f.name) }, "catalog cluster: published a version");
      return version;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };

  return {
    get version() {
      return local.version;
    },
    async lead() {
      if (closed) return false;
      try {
        await ready();
        const { rowCount } = await pool.query(
          `INSERT INTO catalog_sync_lease (id, holder, expires_at) VALUES (1, $1, now() + make_interval(secs => $2))
           ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at,
             taken_at = CASE WHEN catalog_sync_lease.holder = EXCLUDED.holder THEN catalog_sync_lease.taken_at ELSE now() END
           WHERE catalog_sync_lease.holder = EXCLUDED.holder OR catalog_sync_lease.expires_at < now()
           RETURNING holder`,
          [holder, leaseSeconds],
        );
        if (leaseFault) log.info("catalog cluster: the lease answers again");
        leaseFault = undefined;
        lastLead = rowCount === 1;
        return lastLead;
      } catch (error) {
        // logged once per fault, not every look
        if (errorMessage(error) !== leaseFault) log.warn({ err: errorMessage(error) }, "catalog cluster: the lease could not be taken or renewed; the upstreams wait for a holder");
        leaseFault = errorMessage(error);
        lastLead = false;
        return false;
      }
    },
    async claimSync(intervalSeconds) {
      if (closed) return false;
      try {
        await ready();
        // PostgreSQL's clock: a machine whose clock is off neither syncs early nor late
        const { rowCount } = await pool.query(
          `UPDATE catalog_sync_lease SET synced_at = now()
           WHERE id = 1 AND holder = $1 AND expires_at > now() AND (synced_at IS NULL OR synced_at <= now() - make_interval(secs => $2))`,
          [holder, intervalSeconds],
        );
        return rowCount === 1;
      } catch {
        // PostgreSQL went away since lead(): its fault is logged there
        return false;
      }
    },
    pull: () => serial(pull),
    leads: () => lastLead && !closed,
    publishIndex(p) {
      const run = indexQueue.then(() => publishIndex(p));
      indexQueue = run.catch(() => undefined);
      return run;
    },
    publish: (o) => serial(() => publish(o)),
    async close() {
      closed = true;
      await queue;
      if (lastLead) await pool.query("UPDATE catalog_sync_lease SET expires_at = now() WHERE id = 1 AND holder = $1", [holder]).catch(() => undefined);
    },
  };
}

async function readState(file: string): Promise<Manifest> {
  try {
    const parsed = JSON.parse(await fsp.readFile(file, "utf8")) as Manifest;
    if (typeof parsed.version === "number" && Array.isArray(parsed.files)) return parsed;
  } catch {
    // none yet: every file of the newest version is compared by its hash
  }
  return { version: 0, files: [] };
}

/** The one file of a track index version is stored under this name in track_index_chunks. */
export const INDEX_CHUNK_NAME = "figures";

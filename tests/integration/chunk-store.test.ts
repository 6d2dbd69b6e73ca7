import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { download, upload } from "../../app/.server/catalog/chunk-store.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";

// The cluster's published files (ADR 0157's snapshots, ADR 0162's track index versions) go into
// PostgreSQL as 4 MiB chunks and come back by one COPY (ADR 0162 amended in the sixth session).
// What an operator relies on: the bytes come back exactly, a version that is not whole is
// refused, and a download that fails gives its pool client back (the pool is the process's).

let db: TestPostgres;
let pool: pg.Pool;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "chunk-store-"));
const bytes = crypto.randomBytes(9 * 1024 * 1024 + 123);
const file = { name: "figures", bytes: bytes.byteLength, sha256: crypto.createHash("sha256").update(bytes).digest("hex") };

beforeAll(async () => {
  db = await startTestPostgres();
  pool = new pg.Pool({ connectionString: await db.createDatabase("chunks"), max: 2 });
  await pool.query("CREATE TABLE track_index_chunks (version BIGINT NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, data BYTEA NOT NULL, PRIMARY KEY (version, name, seq))");
  fs.writeFileSync(path.join(dir, "source.bin"), bytes);
  for (const version of [1, 2]) {
    const client = await pool.connect();
    try {
      await upload(client, "track_index_chunks", version, file, path.join(dir, "source.bin"));
    } finally {
      client.release();
    }
  }
  // version 2 loses a chunk in the middle
  await pool.query("DELETE FROM track_index_chunks WHERE version = 2 AND seq = 1");
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await db?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the chunk store", () => {
  it("gives a file back byte for byte, through a pool or a client of its own", async () => {
    await download(pool, "track_index_chunks", 1, file, path.join(dir, "by-pool.bin"));
    expect(fs.readFileSync(path.join(dir, "by-pool.bin")).equals(bytes)).toBe(true);
    const client = await pool.connect();
    try {
      await download(client, "track_index_chunks", 1, file, path.join(dir, "by-client.bin"));
    } finally {
      client.release();
    }
    expect(fs.readFileSync(path.join(dir, "by-client.bin")).equals(bytes)).toBe(true);
  });

  it("refuses a version with a chunk missing in the middle, or more bytes than its manifest says", async () => {
    await expect(download(pool, "track_index_chunks", 2, file, path.join(dir, "holed.bin"))).rejects.toThrow(/track index version 2 is not whole/);
    await expect(download(pool, "track_index_chunks", 1, { ...file, bytes: file.bytes - 1 }, path.join(dir, "longer.bin"))).rejects.toThrow(/more than its/);
    // the pool still answers with both of its clients
    expect((await pool.query("SELECT 1 AS one")).rows[0].one).toBe(1);
  });

  it("gives its pool client back when the temp file cannot be made (a full or missing disk), and the next download works", async () => {
    for (let i = 0; i < 3; i++) await expect(download(pool, "track_index_chunks", 1, file, path.join(dir, "no-such-folder", "x.bin"))).rejects.toThrow(/ENOENT/);
    expect(pool.totalCount - pool.idleCount).toBe(0);
    await download(pool, "track_index_chunks", 1, file, path.join(dir, "after.bin"));
    expect(fs.readFileSync(path.join(dir, "after.bin")).equals(bytes)).toBe(true);
  });
});

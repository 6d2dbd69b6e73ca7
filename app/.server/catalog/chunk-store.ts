import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import type pg from "pg";
import copyStreams from "pg-copy-streams";

/**
 * A published file's bytes in PostgreSQL, as rows of CHUNK_BYTES (ADR 0157's snapshots, ADR
 * 0162's track index versions): the one part of the cluster's publication to swap for a bucket.
 */

/** Bytes of a file per row: a 175 MB album snapshot is 44 rows, and a machine holds one at a time. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * The chunk tables (ADR 0157's snapshots; ADR 0162's track index versions, amended): the same
 * rows (version, name, seq, data), written by `upload` and read by `download`.
 */
export type ChunkTable = "catalog_snapshot_chunks" | "track_index_chunks";

/** One file of a version: its name (a snapshot's), size and SHA-256. */
export interface PublishedFile {
  name: string;
  bytes: number;
  sha256: string;
}

/** A file's size and SHA-256, read in a stream. */
export async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = crypto.createHash("sha256");
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).byteLength;
  }
  return { bytes, sha256: hash.digest("hex") };
}

/** A file's bytes as rows of CHUNK_BYTES, read one chunk at a time. */
export async function upload(client: pg.PoolClient, table: ChunkTable, version: number, f: PublishedFile, file: string): Promise<void> {
  const handle = await fsp.open(file, "r");
  try {
    const hash = crypto.createHash("sha256");
    let total = 0;
    for (let seq = 0; ; seq++) {
      const buffer = Buffer.alloc(CHUNK_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      hash.update(chunk);
      total += bytesRead;
      await client.query(`INSERT INTO ${table} (version, name, seq, data) VALUES ($1, $2, $3, $4)`, [version, f.name, seq, chunk]);
    }
    // the file was replaced while it was read (a sync of this process): the transaction is dropped
    if (total !== f.bytes || hash.digest("hex") !== f.sha256) throw new Error(`${f.name}.json changed while it was published`);
  } finally {
    await handle.close();
  }
}

/** The 11-byte signature that opens COPY's binary format. */
const COPY_SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

/**
 * A version's file into `tmp`; refused unless its size and SHA-256 are the manifest's (the
 * caller removes `tmp` then). The track index's build worker reads its version with it too
 * (index-versions.ts), through its own client.
 *
 * One `COPY … TO STDOUT (FORMAT binary)` of the file's rows in order, streamed (pg-copy-streams):
 * the bytes arrive as stored. A `SELECT` a chunk, as before, had node-postgres turn each 4 MiB
 * into an 8 MiB hex string and decode it back: at 300 MB the client spent 3.5–4.0 CPU seconds
 * (57 MB/s), where the COPY spends about 1 (146–200 MB/s) — on the build worker's thread, beside
 * the columns' build (ADR 0162, amended in the sixth session; labs/pg-chunk-transfer.ts). A chunk
 * missing in the middle gives a shorter file, refused by its size.
 */
export async function download(db: pg.Pool | pg.Client, table: ChunkTable, version: number, f: PublishedFile, tmp: string): Promise<void> {
  if (!Number.isSafeInteger(version)) throw new Error(`no such version: ${version}`);
  // the file first: a temp file that cannot be made (a full disk) must not cost a pool client
  const handle = await fsp.open(tmp, "w");
  let client: pg.Client | pg.PoolClient;
  try {
    client = "totalCount" in db ? await db.connect() : db;
  } catch (error) {
    await handle.close();
    throw error;
  }
  let broken = false;
  try {
    const what = table === "catalog_snapshot_chunks" ? `version ${version}'s ${f.name}.json` : `track index version ${version}`;
    const stream = client.query(copyStreams.to(`COPY (SELECT data FROM ${table} WHERE version = ${version} AND name = ${client.escapeLiteral(f.name)} ORDER BY seq) TO STDOUT (FORMAT binary)`));
    const hash = crypto.createHash("sha256");
    const rows = new CopyRows();
    let total = 0;
    for await (const piece of stream as AsyncIterable<Buffer>) {
      for (const data of rows.push(piece)) {
        total += data.byteLength;
        // a bound on what is written, whatever the rows hold (the manifest's size)
        if (total > f.bytes) {
          stream.destroy();
          throw new Error(`${what} is not whole (more than its ${f.bytes} bytes); a newer version is taken at the next look`);
        }
        hash.update(data);
        await handle.write(data);
      }
    }
    if (total !== f.bytes || hash.digest("hex") !== f.sha256) throw new Error(`${what} is not whole (${total} of ${f.bytes} bytes, or another SHA-256); a newer version is taken at the next look`);
    await handle.sync();
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    await handle.close();
    // a client cut off mid-COPY is not given back to the pool for another query
    if (client !== db) (client as pg.PoolClient).release(broken);
  }
}

/**
 * The rows of one `bytea` column in COPY's binary format, as the pieces arrive: a header
 * (signature, flags, an extension), then per row a 16-bit field count, the field's 32-bit
 * length and its bytes, and a trailer of -1. Yields each row's bytes as they come (a row may span
 * pieces); anything else is refused.
 */
class CopyRows {
  private pending = Buffer.alloc(0);
  private header = true;
  private rowLeft = 0;
  private ended = false;

  *push(piece: Buffer): Generator<Buffer> {
    let at = this.pending.length ? Buffer.concat([this.pending, piece]) : piece;
    this.pending = Buffer.alloc(0);
    while (at.length) {
      if (this.ended) throw new Error("the COPY stream went on after its trailer");
      if (this.rowLeft) {
        const n = Math.min(this.rowLeft, at.length);
        yield at.subarray(0, n);
        this.rowLeft -= n;
        at = at.subarray(n);
        continue;
      }
      if (this.header) {
        if (at.length < 19) break;
        if (!at.subarray(0, 11).equals(COPY_SIGNATURE)) throw new Error("not COPY's binary format");
        const extension = at.readUInt32BE(15);
        if (at.length < 19 + extension) break;
        this.header = false;
        at = at.subarray(19 + extension);
        continue;
      }
      if (at.length < 2) break;
      const fields = at.readInt16BE(0);
      if (fields === -1) {
        this.ended = true;
        at = at.subarray(2);
        continue;
      }
      if (fields !== 1) throw new Error(`a COPY row of ${fields} fields (one expected)`);
      if (at.length < 6) break;
      const length = at.readInt32BE(2);
      if (length < 0) throw new Error("a chunk without data");
      this.rowLeft = length;
      at = at.subarray(6);
    }
    if (at.length) this.pending = Buffer.from(at);
  }
}

import crypto from "node:crypto";
import fsp, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { Album } from "../../lib/catalog/types.ts";
import type { AlbumTable} from "./album-table.ts";
import { AlbumTableBuilder, fileTracks } from "./album-table.ts";
import { jsonEvents } from "./json-stream.ts";
import { READ_CHUNK_BYTES } from "./sources/read.ts";
import { fsyncDirectory } from "./files.ts";
import type { StoredSnapshot } from "./snapshots.ts";

/**
 * The albums snapshot (DATA_DIR/catalog/snapshots/albums.json), written and read one album at
 * a time (ADR 0082). The layout is the one SnapshotStore.writeJson always wrote —
 * `{"name":…,"savedAt":…,"source":…,"fingerprint":…,"stamp":…,"data":[album,album,…]}`, each
 * album as JSON.stringify writes it — so snapshots written before this change load as they
 * are. The album table keeps each album's byte range in this file and reads its tracks from
 * there (album-table.ts).
 */
export type SnapshotMeta = Omit<StoredSnapshot<unknown>, "data">;

/** The fingerprint is known only at the end; its place in the header is filled in then. */
const FINGERPRINT_PLACEHOLDER = "0".repeat(40);
/** Albums are written to the file in batches of about this many bytes. */
const WRITE_BATCH_BYTES = 1024 * 1024;
/** The header (the fields before the list) is read from the first bytes of the file. */
const HEADER_MAX_BYTES = 64 * 1024;
const DATA_START = Buffer.from('"data":[');

/**
 * Writes a new albums snapshot next to `file` while the list streams in. Nothing replaces the
 * served snapshot until commit(); discard() removes the temporary file.
 */
export class AlbumSnapshotWriter {
  private readonly builder = new AlbumTableBuilder();
  private readonly hash = crypto.createHash("sha1");
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private batch: string[] = [];
  private batchBytes = 0;
  /** file position of the batch's first byte */
  private position: number;
  private written = false;
  private committed = false;

  readonly tmp: string;
  readonly meta: SnapshotMeta;
  private readonly file: string;
  private readonly handle: FileHandle;
  private readonly fingerprintAt: number;

  private constructor(tmp: string, file: string, handle: FileHandle, header: string, fingerprintAt: number, meta: SnapshotMeta) {
    this.tmp = tmp;
    this.file = file;
    this.handle = handle;
    this.fingerprintAt = fingerprintAt;
    this.meta = meta;
    this.batch.push(header);
    this.position = 0;
    this.batchBytes = Buffer.byteLength(header);
  }

  static async create(file: string, meta: Omit<SnapshotMeta, "fingerprint" | "name">): Promise<AlbumSnapshotWriter> {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
    // read and write on one handle: the table reads its tracks through it after the rename
    const handle = await fsp.open(tmp, "w+");
    const full: SnapshotMeta = { name: "albums", savedAt: meta.savedAt, source: meta.source, fingerprint: FINGERPRINT_PLACEHOLDER, stamp: meta.stamp };
    const head = JSON.stringify(full);
    const header = `${head.slice(0, -1)},"data":[`;
    const fingerprintAt = Buffer.byteLength(header.slice(0, header.indexOf(FINGERPRINT_PLACEHOLDER)));
    return new AlbumSnapshotWriter(tmp, file, handle, header, fingerprintAt, full);
  }

  get count(): number {
    return this.builder.length;
  }

  /** Adds an album (already validated and given its id). Awaits only when a batch is written. */
  async push(album: Album): Promise<void> {
    const json = JSON.stringify(album);
    const first = this.builder.length === 0;
    if (!first) {
      this.batch.push(",");
      this.batchBytes += 1;
    }
    // the fingerprint is the hash of JSON.stringify(list), as it always was
    this.hash.update(first ? "[" : ",");
    this.hash.update(json);
    const bytes = Buffer.byteLength(json);
    this.offsets.push(this.position + this.batchBytes);
    this.lengths.push(bytes);
    this.batch.push(json);
    this.batchBytes += bytes;
    this.builder.push(album);
    if (this.batchBytes >= WRITE_BATCH_BYTES) await this.flush();
  }

  private async flush(): Promise<void> {
    if (!this.batch.length) return;
    const buffer = Buffer.from(this.batch.join(""), "utf8");
    this.batch = [];
    await this.handle.write(buffer, 0, buffer.length, this.position);
    this.position += buffer.length;
    this.batchBytes = 0;
  }

  /**
   * Ends the file and gives the table over it (its tracks read through this file's handle).
   * The snapshot is not in place until commit().
   */
  async finish(): Promise<{ table: AlbumTable; fingerprint: string }> {
    this.batch.push("]}");
    this.batchBytes += 2;
    this.hash.update(this.builder.length ? "]" : "[]");
    await this.flush();
    const fingerprint = this.hash.digest("hex");
    await this.handle.write(fingerprint, this.fingerprintAt, "utf8");
    // on disk before commit() renames it over the served snapshot (issue #15)
    await this.handle.sync();
    this.meta.fingerprint = fingerprint;
    this.written = true;
    const table = this.builder.finish(fileTracks(this.handle, Float64Array.from(this.offsets), Uint32Array.from(this.lengths), this.file));
    this.offsets.length = 0;
    this.lengths.length = 0;
    return { table, fingerprint };
  }

  /** Puts the finished snapshot in place of the served one (an atomic rename). */
  async commit(): Promise<void> {
    if (!this.written) throw new Error("commit before finish");
    await fsp.rename(this.tmp, this.file);
    this.committed = true;
    await fsyncDirectory(path.dirname(this.file));
  }

  /**
   * Removes the temporary file. Its table is never served once discarded (held back, unchanged,
   * or not saved), so the handle it reads through is closed too.
   */
  async discard(): Promise<void> {
    if (!this.committed) await this.handle.close().catch(() => undefined);
    await fsp.rm(this.tmp, { force: true });
  }
}

/**
 * Reads an albums snapshot into a table, one album at a time. `accept` sees the header (the
 * fields before the list) and may decline it — another source's snapshot, or the one already
 * served — before any album is read. Undefined when there is none, it is declined, or it cannot
 * be read as written (the caller then syncs from the source, as for any missing snapshot).
 */
export async function readAlbumSnapshot(
  file: string,
  accept: (meta: SnapshotMeta) => boolean,
): Promise<{ meta: SnapshotMeta; table: AlbumTable } | undefined> {
  let handle: FileHandle;
  try {
    handle = await fsp.open(file, "r");
  } catch {
    return undefined;
  }
  let kept = false;
  try {
    // where the list starts: the first `"data":[` is the member itself, as the fields before
    // it are strings, whose quotes inside are escaped
    const head = Buffer.alloc(HEADER_MAX_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEADER_MAX_BYTES, 0);
    const at = head.subarray(0, bytesRead).indexOf(DATA_START);
    if (at < 0) return undefined;
    let position = at + DATA_START.length;

    const meta: Record<string, unknown> = {};
    const builder = new AlbumTableBuilder();
    const offsets: number[] = [];
    const lengths: number[] = [];
    let inList = false;
    try {
      for await (const event of jsonEvents(chunksOf(handle), { listKey: "data", maxItemChars: Infinity })) {
        if (event.kind === "start" && event.type !== "object") return undefined;
        if (event.kind === "field") meta[event.key] = event.value;
        else if (event.kind === "list") {
          inList = true;
          if (!isMeta(meta) || !accept(meta)) return undefined;
        } else if (event.kind === "item") {
          const album = event.value as Album;
          if (!album || typeof album !== "object" || typeof album.id !== "string") return undefined;
          // the file holds each album as JSON.stringify wrote it: its bytes are these
          const bytes = Buffer.byteLength(JSON.stringify(album));
          offsets.push(position);
          lengths.push(bytes);
          position += bytes + 1;
          builder.push(album);
        }
      }
    } catch {
      return undefined;
    }
    if (!inList || !isMeta(meta)) return undefined;
    // the list must end where the albums' lengths say: else the file is not laid out as written
    const end = Buffer.alloc(1);
    await handle.read(end, 0, 1, offsets.length ? position - 1 : position);
    if (end.toString() !== "]") return undefined;
    kept = true;
    return { meta, table: builder.finish(fileTracks(handle, Float64Array.from(offsets), Uint32Array.from(lengths), file)) };
  } finally {
    if (!kept) await handle.close().catch(() => undefined);
  }
}

/** The file's bytes from the start, through the handle (a stream would close it when done). */
async function* chunksOf(handle: FileHandle): AsyncGenerator<Uint8Array> {
  for (let position = 0; ; ) {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, READ_CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

function isMeta(meta: Record<string, unknown>): meta is SnapshotMeta {
  return typeof meta.savedAt === "string" && typeof meta.source === "string" && typeof meta.fingerprint === "string";
}

import crypto from "node:crypto";
import fsp, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { Album } from "../../lib/catalog/types.ts";
import type { AlbumTable} from "./album-table.ts";
import { AlbumTableBuilder, fileTracks } from "./album-table.ts";
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
 *
 * The file is read as this module writes it, not as any JSON: the header's fields, then each
 * album as JSON.stringify wrote it (no white space), a comma between two, and `]}` after the
 * last. Each album's end is found by a scan of its bytes (strings and nesting followed), its
 * bytes given to JSON.parse. A streaming JSON parser (json-stream.ts) read it before, and each
 * album was written again to know its length: at 250,000 albums about 5 s of the main thread's
 * CPU and 3 s of garbage collection, the largest part of a machine's start into a cluster and
 * of each new catalog version's take (ADR 0162, seventh session; ADR 0082).
 */
export async function readAlbumSnapshot(
  file: string,
  accept: (meta: SnapshotMeta) => boolean,
  blockBytes = READ_BLOCK_BYTES,
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
    let meta: unknown;
    try {
      meta = JSON.parse(`${head.toString("utf8", 0, at)}"data":[]}`);
    } catch {
      return undefined;
    }
    if (!meta || typeof meta !== "object" || !isMeta(meta as Record<string, unknown>)) return undefined;
    const { data: _none, ...fields } = meta as SnapshotMeta & { data?: unknown };
    if (!accept(fields)) return undefined;

    const builder = new AlbumTableBuilder();
    const offsets: number[] = [];
    const lengths: number[] = [];
    const albums = albumRanges(handle, at + DATA_START.length, blockBytes);
    try {
      for await (const batch of albums) {
        for (const { offset, length, head } of batch) {
          const album = JSON.parse(head) as Album;
          if (!album || typeof album !== "object" || typeof album.id !== "string") return undefined;
          offsets.push(offset);
          lengths.push(length);
          builder.push(album);
        }
      }
    } catch {
      return undefined;
    }
    kept = true;
    return { meta: fields, table: builder.finish(fileTracks(handle, Float64Array.from(offsets), Uint32Array.from(lengths), file)) };
  } finally {
    if (!kept) await handle.close().catch(() => undefined);
  }
}

/** The file is read in blocks of this many bytes (an album larger than a block grows it). */
const READ_BLOCK_BYTES = 4 * 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_LIST = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_LIST = 0x5d;
const TRACKS_KEY = Buffer.from(',"tracks":');

/** An album's place in the file and its JSON without its tracks (or whole, when they are not its last member). */
interface AlbumRange {
  offset: number;
  length: number;
  head: string;
}

/**
 * Each album's bytes in the list that starts at `from` (just after its `[`), with its offset
 * in the file, in order. Throws when the list is not laid out as written: an album that does not
 * start with `{`, anything but a comma or the list's end after one, or the file's end first.
 */
async function* albumRanges(handle: FileHandle, from: number, blockBytes: number): AsyncGenerator<AlbumRange[]> {
  // the albums found since the last read, handed over at each read (one await a block, not an album)
  let batch: AlbumRange[] = [];
  let block = Buffer.allocUnsafe(blockBytes);
  // the block holds the file's bytes [blockAt, blockAt + filled)
  let blockAt = from;
  let filled = 0;
  let eof = false;
  /** more of the file into the block, keeping its bytes from `keep` on (moved to its start) */
  const more = async (keep: number): Promise<AlbumRange[]> => {
    const kept = filled - keep;
    if (kept >= block.length / 2) {
      // an album larger than half a block: a larger block
      const grown = Buffer.allocUnsafe(block.length * 2);
      block.copy(grown, 0, keep, filled);
      block = grown;
    } else block.copy(block, 0, keep, filled);
    blockAt += keep;
    filled = kept;
    const { bytesRead } = await handle.read(block, filled, block.length - filled, blockAt + filled);
    if (bytesRead === 0) eof = true;
    filled += bytesRead;
    const done = batch;
    batch = [];
    return done;
  };
  await more(0);
  let i = 0;
  if (filled > 0 && block[0] === CLOSE_LIST) return;
  for (;;) {
    // an album starts at i
    if (i >= filled) {
      yield await more(i);
      i = 0;
    }
    if (block[i] !== OPEN_OBJECT) throw new Error("an album does not start where the list says");
    let start = i;
    let depth = 0;
    let inString = false;
    // the album's last top-level list, [listAt, listEnd): its tracks when they come last
    let listAt = -1;
    let listEnd = -1;
    for (;;) {
      if (i >= filled) {
        if (eof) throw new Error("the list ends inside an album");
        yield await more(start);
        i -= start;
        if (listAt >= 0) listAt -= start;
        if (listEnd >= 0) listEnd -= start;
        start = 0;
        continue;
      }
      if (inString) {
        // to the string's next quote at once (memchr), then whether a backslash escapes it
        const q = block.indexOf(QUOTE, i);
        if (q < 0 || q >= filled) {
          i = filled;
          continue;
        }
        let slashes = 0;
        while (block[q - 1 - slashes] === BACKSLASH) slashes++;
        i = q + 1;
        if (slashes % 2 === 0) inString = false;
        continue;
      }
      const b = block[i++];
      if (b === QUOTE) inString = true;
      else if (b === OPEN_OBJECT || b === OPEN_LIST) {
        if (++depth === 2 && b === OPEN_LIST) listAt = i - 1;
      } else if (b === CLOSE_OBJECT || b === CLOSE_LIST) {
        if (--depth === 0) break;
        if (depth === 1 && b === CLOSE_LIST) listEnd = i;
      }
    }
    const end = i;
    // the album without its track list when the list is its last member (as the sync writes
    // albums): the table keeps no track, and parsing them was most of the read's CPU; they are
    // read from the album's bytes when shown (album-table.ts)
    const tracksLast = listEnd === end - 1 && listAt >= start + TRACKS_KEY.length && block.subarray(listAt - TRACKS_KEY.length, listAt).equals(TRACKS_KEY);
    batch.push({ offset: blockAt + start, length: end - start, head: tracksLast ? `${block.toString("utf8", start, listAt - TRACKS_KEY.length)}}` : block.toString("utf8", start, end) });
    if (i >= filled) {
      yield await more(i);
      i = 0;
    }
    if (i >= filled) throw new Error("the list ends without its ]");
    const next = block[i++];
    if (next === CLOSE_LIST) return void (yield batch);
    if (next !== COMMA) throw new Error("an album is not followed by a comma or the list's end");
  }
}

function isMeta(meta: Record<string, unknown>): meta is SnapshotMeta {
  return typeof meta.savedAt === "string" && typeof meta.source === "string" && typeof meta.fingerprint === "string";
}

import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { LRUCache } from "lru-cache";
import type { Logger } from "../app/.server/logger.ts";
import { writeFileAtomic } from "../app/.server/catalog/files.ts";

/** A hit refreshes its file's mtime at most this often. */
const TOUCH_INTERVAL_MS = 60_000;

/** `<sha256>.<format>`: the only names this cache writes (server/images.ts). */
const THUMBNAIL_NAME = /^[0-9a-f]{64}\.(?:avif|webp|jpeg)$/;
/** writeFileAtomic's temp files; one left behind by a killed process is removed at start. */
const TEMP_NAME = /\.tmp$/;
/** A temp file younger than this may belong to another server process still writing it. */
const STALE_TEMP_MS = 10 * 60 * 1000;
const STAT_BATCH = 64;

/**
 * Thumbnails on disk (DATA_DIR/cache/img), bounded in total bytes (IMG_CACHE_MAX_BYTES, issue #7).
 *
 * lru-cache holds one entry per file (its size); when a new file pushes the total over the
 * bound, the least recently used entries are evicted and their files deleted. At start the
 * files already on disk are indexed oldest modification time first, so a restart keeps both
 * the bound and the order; a hit refreshes the file's mtime for the same reason.
 *
 * The directory stays safe to delete at any time: a file that has gone is a miss.
 * With several server processes on one directory, each bounds the files it knows, and a file
 * another process wrote is adopted on first read.
 */
export class ThumbnailDiskCache {
  readonly dir: string;
  readonly maxBytes: number;
  readonly ready: Promise<void>;
  readonly #entries: LRUCache<string, number>;
  /**
   * When each file's mtime was last refreshed by a hit. Refreshing it on every hit cost a disk
   * write per answer (warm /img ran at 0.41× /healthz instead of 0.55×); once every
   * TOUCH_INTERVAL_MS per file keeps the order a restart needs just as well.
   */
  readonly #touched = new LRUCache<string, number>({ max: 100_000 });
  readonly #logger: Logger;

  constructor(dir: string, maxBytes: number, logger: Logger) {
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.#logger = logger;
    this.#entries = new LRUCache<string, number>({
      maxSize: maxBytes,
      sizeCalculation: (bytes) => Math.max(1, bytes),
      dispose: (_bytes, name, reason) => {
        // "set" replaces an entry whose file was just rewritten in place: keep that file.
        // Deleted synchronously so the next write of the same name cannot be overtaken.
        if (reason === "set") return;
        try {
          fs.unlinkSync(path.join(this.dir, name));
        } catch {
          // already gone (the directory was cleared, or another process evicted it)
        }
      },
    });
    this.ready = this.#index().catch((error: unknown) => {
      this.#logger.warn({ err: error, dir }, "thumbnail cache: could not index existing files");
    });
  }

  /** Total bytes of the files this cache knows. */
  get totalBytes(): number {
    return this.#entries.calculatedSize;
  }

  /** The thumbnail's bytes, or undefined on a miss; a hit becomes the most recently used. */
  async read(name: string): Promise<Buffer | undefined> {
    const known = this.#entries.get(name) !== undefined;
    const file = path.join(this.dir, name);
    let data: Buffer;
    try {
      data = await fsp.readFile(file);
    } catch {
      if (known) this.#entries.delete(name);
      return undefined;
    }
    if (known) {
      // keep the recency across a restart (the index is ordered by mtime)
      const now = Date.now();
      if (now - (this.#touched.get(name) ?? 0) >= TOUCH_INTERVAL_MS) {
        this.#touched.set(name, now);
        await fsp.utimes(file, now / 1000, now / 1000).catch(() => undefined);
      }
    } else {
      this.#entries.set(name, data.length);
    }
    return data;
  }

  /** Stores a thumbnail, evicting the least recently used files beyond the byte bound. */
  async write(name: string, data: Buffer): Promise<void> {
    // a single file over the whole bound is served but never kept
    if (data.length > this.maxBytes) return;
    await writeFileAtomic(path.join(this.dir, name), data);
    this.#entries.set(name, data.length);
  }

  async #index(): Promise<void> {
    let names: string[];
    try {
      names = await fsp.readdir(this.dir);
    } catch {
      return; // no cache yet
    }
    const found: { name: string; size: number; mtimeMs: number }[] = [];
    for (let i = 0; i < names.length; i += STAT_BATCH) {
      await Promise.all(
        names.slice(i, i + STAT_BATCH).map(async (name) => {
          const file = path.join(this.dir, name);
          const stat = await fsp.stat(file).catch(() => undefined);
          if (!stat?.isFile()) return;
          if (TEMP_NAME.test(name)) {
            if (Date.now() - stat.mtimeMs > STALE_TEMP_MS) await fsp.rm(file, { force: true });
            return;
          }
          if (!THUMBNAIL_NAME.test(name)) return; // not ours: neither counted nor touched
          if (stat.size > this.maxBytes) {
            await fsp.rm(file, { force: true });
            return;
          }
          found.push({ name, size: stat.size, mtimeMs: stat.mtimeMs });
        }),
      );
    }
    found.sort((a, b) => a.mtimeMs - b.mtimeMs);
    // oldest first, so that a lowered bound (or a full directory) evicts the oldest files now
    for (const { name, size } of found) this.#entries.set(name, size);
    this.#logger.debug({ files: this.#entries.size, bytes: this.totalBytes, evicted: found.length - this.#entries.size }, "thumbnail cache indexed");
  }
}

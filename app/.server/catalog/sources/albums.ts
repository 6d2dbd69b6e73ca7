import type { Logger } from "../../logger.ts";
import { AlbumSnapshotWriter, readAlbumSnapshot } from "../album-snapshot.ts";
import { AlbumTable } from "../album-table.ts";
import { MAX_ITEM_CHARS } from "../json-stream.ts";
import { reshapeAlbum, uniqueIds } from "../reshape.ts";
import { albumEntrySchema } from "../schemas.ts";
import { fileStamp, isHttpSource, NOT_MODIFIED, readJsonList } from "./read.ts";
import { checkList, UNCHANGED, type RequestOptions, type SyncSource } from "./source.ts";

export interface AlbumsSourceOptions {
  /** ALBUMS_URL, or the sample's merged.json */
  location: string;
  /** DATA_DIR/catalog/snapshots/albums.json: written as the list is read */
  snapshotFile: string;
  request: RequestOptions;
  log: Logger;
}

/**
 * The album list (ALBUMS_URL, product-rules §3 "Album"). It is read as a stream and written to a new
 * snapshot file as it is validated, one entry at a time (ADR 0082): at 250,000 albums the
 * whole list in memory — text, parsed tree and validated copy — was over a gigabyte. The
 * table built alongside keeps each album's byte range in that file; the runner's hold-back
 * rules (ADR 0074) then decide, as for any source, whether the new snapshot replaces the
 * served one (commit) or is dropped (discard).
 */
export function albumsSource(opts: AlbumsSourceOptions): SyncSource<AlbumTable> {
  const { location, snapshotFile, request, log } = opts;
  return {
    name: "albums",
    location,
    local: !isHttpSource(location),
    empty: () => AlbumTable.empty(),
    async load(ctx) {
      const local = await fileStamp(location);
      if (local && local === ctx.stamp) return UNCHANGED;
      // over http(s), the served list's ETag or Last-Modified is sent: a 304 is UNCHANGED (issue #42, ADR 0157)
      const read = await readJsonList(location, { ...request, validator: isHttpSource(location) ? ctx.stamp : undefined }, async (entries, stamp) => {
        const writer = await AlbumSnapshotWriter.create(snapshotFile, { savedAt: new Date().toISOString(), source: location, stamp });
        try {
          const nextId = uniqueIds();
          let nulls = 0;
          let invalid = 0;
          let oversized = 0;
          for await (const entry of entries) {
            if ("oversized" in entry) {
              oversized++;
              continue;
            }
            if (entry.value == null) {
              nulls++;
              continue;
            }
            const parsed = albumEntrySchema.safeParse(entry.value);
            if (parsed.success) await writer.push(reshapeAlbum(parsed.data, nextId));
            else invalid++;
          }
          if (oversized) log.warn({ source: "albums", location, oversized, maxItemChars: MAX_ITEM_CHARS }, "dropped catalog entries over the size bound");
          checkList(log, "albums", location, { count: writer.count, nulls, invalid: invalid + oversized });
          const { table, fingerprint } = await writer.finish();
          return {
            data: table,
            stamp,
            staged: {
              fingerprint,
              savedAt: writer.meta.savedAt,
              commit: () => writer.commit(),
              discard: async () => {
                await table.close();
                await writer.discard();
              },
            },
          };
        } catch (error) {
          await writer.discard();
          throw error;
        }
      });
      return read === NOT_MODIFIED ? UNCHANGED : read;
    },
    count: (table) => table.length,
    async readSnapshot(accept) {
      const read = await readAlbumSnapshot(snapshotFile, accept);
      return read && { ...read.meta, data: read.table };
    },
    release: (table) => table.close(),
  };
}

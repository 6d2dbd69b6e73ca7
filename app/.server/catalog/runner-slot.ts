import type { SnapshotMeta } from "./album-snapshot.ts";
import type { Slot } from "./runner-types.ts";
import type { SnapshotStore, StoredSnapshot } from "./snapshots.ts";
import { fileStamp } from "./sources/read.ts";

/**
 * A source's slot in the catalog runner (runner.ts, ADR 0084): the rules and the disk reads that
 * need one slot and nothing else of the runner — the hold-back rule, replacing the data served,
 * and reading the snapshot files.
 */

/**
 * Issue #7 "Upstream faults keep the last good data" (ADR 0074): an answer that would empty a
 * source, or shrink it by more than CATALOG_MAX_SHRINK, is held back while a snapshot with
 * data exists. A fresh catalog (no snapshot yet) may be empty. Returns why, or undefined.
 */
export function holdBackReason(slot: Slot, next: number, maxShrink: number): string | undefined {
  if (slot.fingerprint === undefined) return undefined;
  const kept = slot.source.count(slot.data);
  if (kept === 0) return undefined;
  if (next === 0) return `the upstream answered an empty list; the snapshot has ${kept}`;
  if (next < kept * (1 - maxShrink)) {
    return `the list shrank from ${kept} to ${next}, by more than CATALOG_MAX_SHRINK (${Math.round(maxShrink * 100)} %)`;
  }
  return undefined;
}

/** Serves new data; the old is released (albums: its table's file is closed, ADR 0082). */
export function replaceData(slot: Slot, data: unknown): void {
  const before = slot.data;
  slot.data = data;
  if (before !== data) void slot.source.release?.(before).catch(() => undefined);
}

/** The stamp of a snapshot file ("" when there is none): a changed stamp means another process wrote it. */
export async function snapshotStamp(store: SnapshotStore, name: string): Promise<string> {
  return (await fileStamp(store.file(name))) ?? "";
}

/** A source's stored snapshot: read by the source itself (albums, as a stream) or whole. */
export function readStored(store: SnapshotStore, slot: Slot, accept: (meta: SnapshotMeta) => boolean): Promise<StoredSnapshot<unknown> | undefined> {
  return slot.source.readSnapshot ? slot.source.readSnapshot(accept) : store.read<unknown>(slot.source.name);
}

/** Serves a source's stored snapshot in its slot (at start-up, or one another process wrote). */
export function serveStored(slot: Slot, stored: StoredSnapshot<unknown>): void {
  replaceData(slot, stored.data);
  slot.fingerprint = stored.fingerprint;
  slot.stamp = stored.stamp || undefined;
  slot.status.updatedAt = stored.savedAt;
  slot.status.count = slot.source.count(stored.data);
}

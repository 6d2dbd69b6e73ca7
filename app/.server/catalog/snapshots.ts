import fsp from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "./files.ts";

/**
 * The last good data of each source, kept in DATA_DIR/catalog/snapshots/<name>.json
 * (DESIGN.md §2 "Retries": when an upstream fails, the site keeps serving its last good
 * snapshot). Written atomically, so a crash mid-write never leaves a torn snapshot.
 */
export interface StoredSnapshot<T> {
  name: string;
  /** ISO time the data was fetched */
  savedAt: string;
  /** where it came from (a path or a URL without credentials) */
  source: string;
  fingerprint: string;
  /** size:mtime of a file source when it was read, so an unchanged file is not parsed again */
  stamp?: string;
  data: T;
}

export class SnapshotStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, "catalog", "snapshots");
  }

  file(name: string): string {
    return path.join(this.dir, `${name}.json`);
  }

  async read<T>(name: string): Promise<StoredSnapshot<T> | undefined> {
    let text: string;
    try {
      text = await fsp.readFile(this.file(name), "utf8");
    } catch {
      return undefined;
    }
    try {
      const parsed = JSON.parse(text) as StoredSnapshot<T>;
      return parsed && typeof parsed === "object" && "data" in parsed ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  async write<T>(snapshot: StoredSnapshot<T>): Promise<void> {
    await writeFileAtomic(this.file(snapshot.name), JSON.stringify(snapshot));
  }

  /** Same as write(), with the data already serialised (large lists are stringified once). */
  async writeJson(name: string, meta: { savedAt: string; source: string; fingerprint: string; stamp?: string }, dataJson: string): Promise<void> {
    const head = JSON.stringify({ name, ...meta });
    await writeFileAtomic(this.file(name), `${head.slice(0, -1)},"data":${dataJson}}`);
  }
}

import type { DatabaseSync } from "node:sqlite";
import { addColumnIfMissing, openSqlite } from "./sqlite.ts";
import { OUTBOX_ADDED_COLUMNS, OUTBOX_LATER_INDEXES, OutboxStore, outboxSchema } from "./outbox-store.ts";

const BIGINT = "INTEGER";

/**
 * The outbox in a SQLite file (DATA_DIR/leads.sqlite), on the shared SQL adapter (ADR 0106).
 * `synchronous = FULL`: in WAL mode, NORMAL may lose the last commits to a power cut, and a
 * lead acknowledged to a visitor must not be one of them (issue #15). `secure_delete`, and
 * a WAL checkpoint after an erasure, keep erased personal data out of the file's free pages
 * and out of the WAL (issue #16). Every claim is one UPDATE … RETURNING, which SQLite runs
 * under its single write lock, so no two workers get a row.
 */
export class SqliteOutboxRepository extends OutboxStore {
  readonly file: string;
  /** The connection itself: for the operator's checks and the fault tests (a COMMIT made to fail). */
  readonly handle: DatabaseSync;

  constructor(file: string) {
    const db = openSqlite(file, {
      schema: outboxSchema({ id: "INTEGER PRIMARY KEY AUTOINCREMENT", bigint: BIGINT }),
      synchronous: "FULL",
      secureDelete: true,
      upgrade: (handle) => {
        // SQLite has no ADD COLUMN IF NOT EXISTS
        for (const [column, type] of OUTBOX_ADDED_COLUMNS) addColumnIfMissing(handle, "outbox", column, type.replace("{bigint}", BIGINT));
        handle.exec(OUTBOX_LATER_INDEXES);
      },
    });
    super(db, {
      // the erased rows' old page images leave the WAL, and the WAL file is cut to nothing
      afterErase: async () => void db.handle.exec("PRAGMA wal_checkpoint(TRUNCATE)"),
    });
    this.file = file;
    this.handle = db.handle;
  }
}

export type { OutboxMessage } from "./outbox.ts";

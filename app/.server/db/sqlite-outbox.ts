import { addColumnIfMissing, openSqlite } from "./sqlite.ts";
import { OutboxStore } from "./outbox-store.ts";

/** The outbox's SQLite schema: what differs from PostgreSQL's is the id column's type. */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  lead TEXT NOT NULL,
  content_hash TEXT,
  mail TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  last_error TEXT,
  provider_message_id TEXT,
  client_ip TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  sent_at INTEGER
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
-- ADR 0095: when the last receipt went to each recipient (a hash of the address), for the
-- one-per-hour rule; rows older than the window are deleted.
CREATE TABLE IF NOT EXISTS receipt_log (
  recipient TEXT PRIMARY KEY,
  sent_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS receipt_log_sent_at ON receipt_log (sent_at);
-- issue #15: the readiness probe's one-row write
CREATE TABLE IF NOT EXISTS outbox_health (
  id INTEGER PRIMARY KEY,
  checked_at INTEGER NOT NULL
);
`;

/**
 * The outbox in a SQLite file (DATA_DIR/leads.sqlite), on the shared SQL adapter (ADR 0104).
 * `synchronous = FULL`: in WAL mode, NORMAL may lose the last commits to a power cut, and a
 * lead acknowledged to a visitor must not be one of them (issue #15). `secure_delete`, and
 * a WAL checkpoint after an erasure, keep erased personal data out of the file's free pages
 * and out of the WAL (issue #16). Every claim is one UPDATE … RETURNING, which SQLite runs
 * under its single write lock, so no two workers get a row.
 */
export class SqliteOutboxRepository extends OutboxStore {
  readonly file: string;

  constructor(file: string) {
    const db = openSqlite(file, {
      schema: SCHEMA,
      synchronous: "FULL",
      secureDelete: true,
      upgrade: (handle) => {
        // Tables created before issue #7 have no content_hash (their rows keep NULL, which
        // never equals a new hash, so a post under an old key is stored, not dropped).
        addColumnIfMissing(handle, "outbox", "content_hash", "TEXT");
        // issue #16: whose data a row holds (a hash of the address), and when it was erased
        addColumnIfMissing(handle, "outbox", "subject_key", "TEXT");
        addColumnIfMissing(handle, "outbox", "erased_at", "INTEGER");
        handle.exec("CREATE INDEX IF NOT EXISTS outbox_subject ON outbox (subject_key)");
        handle.exec("CREATE INDEX IF NOT EXISTS outbox_sent_at ON outbox (status, sent_at)");
      },
    });
    super(db, {
      // the erased rows' old page images leave the WAL, and the WAL file is cut to nothing
      afterErase: async () => void db.handle.exec("PRAGMA wal_checkpoint(TRUNCATE)"),
    });
    this.file = file;
  }
}

export type { OutboxMessage } from "./outbox.ts";

import pg from "pg";
import type { DatabaseSync } from "node:sqlite";

/**
 * Makes every COMMIT that wrote to the given tables fail, as a full disk fails it, without a
 * full disk (issue #15): the failure comes at COMMIT, after every statement ran, which is the
 * moment node:sqlite's `.get()` never reported.
 *
 * SQLite: a deferred foreign key that each write violates (checked at COMMIT, on this very
 * connection). PostgreSQL: a deferred constraint trigger that raises `disk_full` (SQLSTATE
 * 53100) at COMMIT. `heal()` removes the fault.
 */
export interface CommitFault {
  heal(): Promise<void>;
}

const TABLES = ["outbox", "receipt_log", "outbox_health"];

export function failSqliteCommits(db: DatabaseSync, tables = TABLES): CommitFault {
  db.exec("PRAGMA foreign_keys = ON");
  db.exec(`CREATE TABLE IF NOT EXISTS fault_parent (id INTEGER PRIMARY KEY);
           CREATE TABLE IF NOT EXISTS fault_trap (ref INTEGER REFERENCES fault_parent (id) DEFERRABLE INITIALLY DEFERRED);`);
  for (const table of tables) {
    for (const op of ["INSERT", "UPDATE", "DELETE"]) {
      db.exec(`CREATE TRIGGER IF NOT EXISTS fault_${table}_${op.toLowerCase()} AFTER ${op} ON ${table} BEGIN INSERT INTO fault_trap (ref) VALUES (-1); END;`);
    }
  }
  return {
    async heal() {
      for (const table of tables) for (const op of ["insert", "update", "delete"]) db.exec(`DROP TRIGGER IF EXISTS fault_${table}_${op}`);
      db.exec("DELETE FROM fault_trap");
    },
  };
}

export async function failPostgresCommits(url: string, tables = TABLES): Promise<CommitFault> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE OR REPLACE FUNCTION fault_disk_full() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$ LANGUAGE plpgsql`);
    for (const table of tables) {
      await client.query(`DROP TRIGGER IF EXISTS fault_${table} ON ${table}`);
      await client.query(`CREATE CONSTRAINT TRIGGER fault_${table} AFTER INSERT OR UPDATE OR DELETE ON ${table}
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION fault_disk_full()`);
    }
  } finally {
    await client.end();
  }
  return {
    async heal() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        for (const table of tables) await c.query(`DROP TRIGGER IF EXISTS fault_${table} ON ${table}`);
      } finally {
        await c.end();
      }
    },
  };
}

import path from "node:path";
import { describePostgresUrl, type SharedPostgres } from "./postgres-pool.ts";
import type { Config } from "../config.ts";
import type { OutboxRepository } from "./outbox.ts";
import { SqliteOutboxRepository } from "./sqlite-outbox.ts";
import { PostgresOutboxRepository } from "./postgres-outbox.ts";

/** DESIGN.md §2: PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR/leads.sqlite. */
export async function openOutbox(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">, opts: { postgres?: SharedPostgres } = {}): Promise<OutboxRepository> {
  const store = config.DATABASE_URL
    ? await PostgresOutboxRepository.open(config.DATABASE_URL, { shared: opts.postgres })
    : new SqliteOutboxRepository(path.join(config.DATA_DIR, "leads.sqlite"));
  // rows stored before issue #16 learn whose data they hold (a no-op once done)
  await store.backfillSubjectKeys();
  return store;
}

/** Where the outbox lives, for logs (never the password). */
export function describeOutbox(config: Pick<Config, "DATABASE_URL" | "DATA_DIR">): string {
  if (!config.DATABASE_URL) return path.join(config.DATA_DIR, "leads.sqlite");
  return describePostgresUrl(config.DATABASE_URL);
}

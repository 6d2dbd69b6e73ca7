import {
  OUTBOX_COLUMNS,
  receiptRecipientKey,
  rekeyedIdempotencyKey,
  rowToMessage,
  truncateError,
  type ClaimOptions,
  type LeadRecord,
  type NewOutboxMessage,
  type OutboxMessage,
  type OutboxRepository,
  type OutboxRow,
  type OutboxStatus,
  type PurgeOptions,
  type PurgeReport,
} from "./outbox.ts";
import { sqlNumber, type SqlDatabase, type SqlExecutor } from "./sql.ts";

/**
 * The outbox's tables, in either dialect: only the id's and the times' column types differ
 * (`{id}`, `{bigint}`). Columns added after a table may have been created are also in
 * OUTBOX_ADDED_COLUMNS, which each dialect adds its own way to an older table.
 */
export function outboxSchema(types: { id: string; bigint: string }): string {
  return `
CREATE TABLE IF NOT EXISTS outbox (
  id {id},
  kind TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE,
  lead TEXT NOT NULL,
  content_hash TEXT,
  mail TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at {bigint} NOT NULL,
  lease_owner TEXT,
  lease_until {bigint},
  last_error TEXT,
  provider_message_id TEXT,
  client_ip TEXT,
  subject_key TEXT,
  created_at {bigint} NOT NULL,
  updated_at {bigint} NOT NULL,
  sent_at {bigint},
  erased_at {bigint}
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (status, next_attempt_at);
-- ADR 0095: when the last receipt went to each recipient (a hash of the address), for the
-- one-per-hour rule; rows older than the window are deleted.
CREATE TABLE IF NOT EXISTS receipt_log (
  recipient TEXT PRIMARY KEY,
  sent_at {bigint} NOT NULL
);
CREATE INDEX IF NOT EXISTS receipt_log_sent_at ON receipt_log (sent_at);
-- issue #15: the readiness probe's one-row write
CREATE TABLE IF NOT EXISTS outbox_health (
  id INTEGER PRIMARY KEY,
  checked_at {bigint} NOT NULL
);
`.replaceAll("{id}", types.id).replaceAll("{bigint}", types.bigint);
}

/**
 * Columns newer than the first outbox tables: content_hash (issue #7: old rows keep NULL, which
 * never equals a new hash, so a post under an old key is stored, not dropped), subject_key and
 * erased_at (issue #16). Their indexes follow them.
 */
export const OUTBOX_ADDED_COLUMNS = [
  ["content_hash", "TEXT"],
  ["subject_key", "TEXT"],
  ["erased_at", "{bigint}"],
] as const;
export const OUTBOX_LATER_INDEXES = `
CREATE INDEX IF NOT EXISTS outbox_subject ON outbox (subject_key);
CREATE INDEX IF NOT EXISTS outbox_sent_at ON outbox (status, sent_at);
`;

/** A personal-data clean-up touches at most this many rows per transaction (issue #16: in batches). */
const PURGE_BATCH = 200;

/**
 * What an erased row keeps (issue #16, ADR 0107): its id (the visitor's reference), kind,
 * status and times, so counts and references still work; every field that could carry
 * personal data is emptied.
 */
const ERASE_SET = `lead = '{}', mail = '{"from":"","to":"","replyTo":"","subject":"","text":"","html":""}',
  content_hash = NULL, client_ip = NULL, subject_key = NULL,
  idempotency_key = 'erased:' || CAST(id AS TEXT)`;

/**
 * Whose data a row holds, as receiptRecipientKey() of their address (trimmed, lower-cased,
 * hashed: the receipt limit's normalisation): the visitor's e-mail for a lead, the recipient
 * for a receipt. It is what `npm run outbox -- export|erase <email>` looks rows up by.
 */
export function subjectKeyOf(kind: OutboxMessage["kind"], lead: LeadRecord, mailTo: string): string | null {
  const address = kind === "receipt" ? mailTo : lead.email;
  return typeof address === "string" && address.trim() ? receiptRecipientKey(address) : null;
}

/**
 * The lead outbox over either SQL database (ADR 0106): the statements are shared; the schema,
 * the placeholders and the claim's lock clause are the dialect's (sqlite-outbox.ts,
 * postgres-outbox.ts). Every write is a statement run to completion or an explicit
 * transaction, so a COMMIT that fails (a full disk) fails the call (issue #15).
 */
export class OutboxStore implements OutboxRepository {
  readonly db: SqlDatabase;
  /** Run after rows were erased: SQLite checkpoints and truncates its WAL (issue #16). */
  readonly #afterErase: () => Promise<void>;

  constructor(db: SqlDatabase, opts: { afterErase?: () => Promise<void> } = {}) {
    this.db = db;
    this.#afterErase = opts.afterErase ?? (async () => {});
  }

  get kind() {
    return this.db.kind;
  }

  /** Rows stored before subject_key existed get theirs (once; a no-op afterwards). */
  async backfillSubjectKeys(): Promise<number> {
    let filled = 0;
    let after = 0;
    for (;;) {
      const rows = await this.db.query<{ id: unknown; kind: OutboxMessage["kind"]; lead: string; mail: string }>(
        `SELECT id, kind, lead, mail FROM outbox WHERE subject_key IS NULL AND erased_at IS NULL AND id > $1 ORDER BY id LIMIT ${PURGE_BATCH}`,
        [after],
      );
      if (rows.length === 0) return filled;
      await this.db.batch(
        rows.map((r) => {
          const key = subjectKeyOf(r.kind, JSON.parse(r.lead) as LeadRecord, (JSON.parse(r.mail) as { to?: string }).to ?? "");
          return ["UPDATE outbox SET subject_key = $1 WHERE id = $2", [key ?? "", sqlNumber(r.id)]] as const;
        }),
      );
      filled += rows.length;
      after = sqlNumber(rows[rows.length - 1]!.id);
    }
  }

  /** Inserts under `key` unless the key exists; returns the row under `key` and whether it is new. */
  private async insertOrGet(m: NewOutboxMessage, key: string, db: SqlExecutor = this.db) {
    const composeFor = typeof m.mail === "function" ? m.mail : undefined;
    const given = typeof m.mail === "function" ? undefined : m.mail;
    const [inserted] = await db.query<OutboxRow>(
      `INSERT INTO outbox (kind, idempotency_key, lead, content_hash, mail, status, attempts, next_attempt_at, client_ip, subject_key, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'pending', 0, $6, $7, $8, $6, $6)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING ${OUTBOX_COLUMNS}`,
      // a mail composed from the id is written just below, in the same transaction
      [m.kind, key, JSON.stringify(m.lead), m.contentHash, JSON.stringify(given ?? {}), m.now, m.clientIp, subjectKeyOf(m.kind, m.lead, given?.to ?? "")],
    );
    if (inserted) {
      const message = rowToMessage(inserted);
      if (composeFor) {
        // Issue #41: the company's copy carries the lead's reference, which is this row's id.
        message.mail = composeFor(message.id);
        await db.run("UPDATE outbox SET mail = $1 WHERE id = $2", [JSON.stringify(message.mail), message.id]);
      }
      return { message, created: true };
    }
    const [existing] = await db.query<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE idempotency_key = $1`, [key]);
    return { message: rowToMessage(existing!), created: false };
  }

  async enqueue(m: NewOutboxMessage) {
    // One transaction: the reference a visitor is given comes from a row whose COMMIT succeeded.
    return this.db.transaction(async (tx) => {
      const first = await this.insertOrGet(m, m.idempotencyKey, tx);
      if (first.created || first.message.contentHash === m.contentHash) return first;
      // The key holds other content: this is a new message (see OutboxRepository.enqueue).
      return this.insertOrGet(m, rekeyedIdempotencyKey(m.idempotencyKey, m.contentHash), tx);
    });
  }

  async enqueueReceipt(m: NewOutboxMessage, { recipientKey, windowMs }: { recipientKey: string; windowMs: number }) {
    // One write transaction: SQLite's write lock, or PostgreSQL's key lock on the recipient,
    // orders it against every other process.
    return this.db.transaction(async (tx) => {
      await tx.run("DELETE FROM receipt_log WHERE sent_at <= $1", [m.now - windowMs]);
      const taken = await tx.query(
        "INSERT INTO receipt_log (recipient, sent_at) VALUES ($1, $2) ON CONFLICT (recipient) DO NOTHING RETURNING recipient",
        [recipientKey, m.now],
      );
      return taken.length === 1 ? { limited: false as const, ...(await this.insertOrGet(m, m.idempotencyKey, tx)) } : { limited: true as const };
    });
  }

  async claim({ owner, now, leaseMs, limit }: ClaimOptions) {
    const rows = await this.db.query<OutboxRow>(
      `UPDATE outbox
          SET status = 'sending', lease_owner = $1, lease_until = $2, attempts = attempts + 1, updated_at = $3
        WHERE id IN (
          SELECT id FROM outbox
           WHERE (status = 'pending' AND next_attempt_at <= $3)
              OR (status = 'sending' AND lease_until < $3)
           ORDER BY id
           LIMIT $4
           ${this.db.lockClause})
      RETURNING ${OUTBOX_COLUMNS}`,
      [owner, now + leaseMs, now, limit],
    );
    return rows.map(rowToMessage).sort((a, b) => a.id - b.id);
  }

  /** Applies `set` (placeholders from $3 on) while `owner` still holds the lease. */
  private async finish(id: number, owner: string, set: string, params: unknown[]) {
    const changed = await this.db.run(`UPDATE outbox SET ${set} WHERE id = $1 AND status = 'sending' AND lease_owner = $2`, [id, owner, ...params]);
    return changed === 1;
  }

  markSent(id: number, owner: string, providerMessageId: string, now: number) {
    return this.finish(
      id,
      owner,
      "status = 'sent', provider_message_id = $3, sent_at = $4, updated_at = $4, lease_owner = NULL, lease_until = NULL, last_error = NULL",
      [providerMessageId, now],
    );
  }

  markRetry(id: number, owner: string, error: string, nextAttemptAt: number, now: number) {
    return this.finish(
      id,
      owner,
      "status = 'pending', last_error = $3, next_attempt_at = $4, updated_at = $5, lease_owner = NULL, lease_until = NULL",
      [truncateError(error), nextAttemptAt, now],
    );
  }

  markFailed(id: number, owner: string, error: string, now: number) {
    return this.finish(id, owner, "status = 'failed', last_error = $3, updated_at = $4, lease_owner = NULL, lease_until = NULL", [
      truncateError(error),
      now,
    ]);
  }

  async release(ids: number[], owner: string, now = Date.now()) {
    if (ids.length === 0) return 0;
    return this.db.run(
      `UPDATE outbox SET status = 'pending', attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END,
              next_attempt_at = $1, updated_at = $1, lease_owner = NULL, lease_until = NULL
        WHERE status = 'sending' AND lease_owner = $2 AND ${this.db.inJsonArray("id", 3)}`,
      [now, owner, JSON.stringify(ids)],
    );
  }

  async get(id: number) {
    const [row] = await this.db.query<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = $1`, [id]);
    return row ? rowToMessage(row) : undefined;
  }

  async list({ status, limit = 50 }: { status?: OutboxStatus; limit?: number } = {}) {
    const rows = status
      ? await this.db.query<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE status = $1 ORDER BY id DESC LIMIT $2`, [status, limit])
      : await this.db.query<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox ORDER BY id DESC LIMIT $1`, [limit]);
    return rows.map(rowToMessage);
  }

  async counts() {
    const counts: Record<OutboxStatus, number> = { pending: 0, sending: 0, sent: 0, failed: 0 };
    const rows = await this.db.query<{ status: OutboxStatus; n: unknown }>("SELECT status, COUNT(*) AS n FROM outbox GROUP BY status");
    for (const r of rows) counts[r.status] = sqlNumber(r.n);
    return counts;
  }

  async oldestUndeliveredAt() {
    const [row] = await this.db.query<{ at: unknown }>("SELECT MIN(created_at) AS at FROM outbox WHERE status IN ('pending', 'sending')");
    return row?.at === null || row?.at === undefined ? null : sqlNumber(row.at);
  }

  async retry(id: number, now: number) {
    const changed = await this.db.run(
      `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = $1, updated_at = $1, lease_owner = NULL, lease_until = NULL
        WHERE id = $2 AND status IN ('failed', 'pending') AND erased_at IS NULL`,
      [now, id],
    );
    return changed === 1;
  }

  async retryFailed(now: number) {
    return this.db.run(
      `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = $1, updated_at = $1, lease_owner = NULL, lease_until = NULL
        WHERE status = 'failed' AND erased_at IS NULL`,
      [now],
    );
  }

  async probeWrite(now: number) {
    await this.db.run(
      "INSERT INTO outbox_health (id, checked_at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
      [now],
    );
  }

  async purge({ now, retentionMs, receiptWindowMs }: PurgeOptions): Promise<PurgeReport> {
    let erased = 0;
    const cutoff = now - retentionMs;
    for (;;) {
      const changed = await this.db.run(
        `UPDATE outbox SET ${ERASE_SET}, last_error = NULL, erased_at = $1, updated_at = $1
          WHERE id IN (SELECT id FROM outbox WHERE status = 'sent' AND erased_at IS NULL AND sent_at <= $2 ORDER BY id LIMIT ${PURGE_BATCH})`,
        [now, cutoff],
      );
      erased += changed;
      if (changed < PURGE_BATCH) break;
    }
    const receiptLogDeleted = await this.db.run("DELETE FROM receipt_log WHERE sent_at <= $1", [now - receiptWindowMs]);
    const [waiting] = await this.db.query<{ n: unknown }>("SELECT COUNT(*) AS n FROM outbox WHERE status = 'failed' AND erased_at IS NULL");
    if (erased > 0 || receiptLogDeleted > 0) await this.#afterErase();
    return { erased, receiptLogDeleted, failedWaiting: sqlNumber(waiting?.n) };
  }

  async findBySubject(email: string) {
    const rows = await this.db.query<OutboxRow>(
      `SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE subject_key = $1 AND erased_at IS NULL ORDER BY id`,
      [receiptRecipientKey(email)],
    );
    return rows.map(rowToMessage);
  }

  async eraseBySubject(email: string, now: number) {
    const key = receiptRecipientKey(email);
    // A message not delivered yet is never delivered once erased: it leaves the queue as
    // failed, with the reason, so no worker sends an empty e-mail (issue #16).
    const erased = await this.db.transaction(async (tx) => {
      const n = await tx.run(
        `UPDATE outbox SET ${ERASE_SET}, erased_at = $2, updated_at = $2,
                status = CASE WHEN status = 'sent' THEN 'sent' ELSE 'failed' END,
                last_error = CASE WHEN status = 'sent' THEN NULL ELSE 'erased at the person''s request before delivery' END,
                lease_owner = NULL, lease_until = NULL
          WHERE subject_key = $1 AND erased_at IS NULL`,
        [key, now],
      );
      await tx.run("DELETE FROM receipt_log WHERE recipient = $1", [key]);
      return n;
    });
    await this.#afterErase();
    return erased;
  }

  close() {
    return this.db.close();
  }
}

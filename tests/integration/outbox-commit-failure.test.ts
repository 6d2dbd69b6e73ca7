import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { receiptRecipientKey, type OutboxRepository } from "../../app/.server/db/outbox.ts";
import type { SqliteOutboxRepository } from "../../app/.server/db/sqlite-outbox.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { startLeads } from "../../app/.server/leads/service.ts";
import type { Lead } from "../../app/lib/contact/schemas.ts";
import { failPostgresCommits, failSqliteCommits, type CommitFault } from "../support/commit-faults.ts";
import { newMessage, postgresStore, sqliteStore, type OutboxStoreFixture } from "../support/outbox-stores.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { waitFor } from "../support/wait.ts";

// Issue #15: every write the outbox acknowledges reports a failed COMMIT as a failure. The
// fault fails the COMMIT itself, after every statement ran (tests/support/commit-faults.ts).

function faultFor(store: OutboxStoreFixture["name"], repo: OutboxRepository, location: string): Promise<CommitFault> {
  return store === "sqlite" ? Promise.resolve(failSqliteCommits((repo as SqliteOutboxRepository).handle)) : failPostgresCommits(location);
}

for (const store of [sqliteStore(), postgresStore()]) {
  describe(`outbox writes on ${store.name} when the COMMIT fails`, () => {
    beforeAll(() => store.setup(), 120_000);
    afterAll(() => store.teardown());

    /** A store with one pending message (1), one claimed by w1 (2), one failed (3). */
    async function prepared() {
      const { repo, location } = await store.fresh();
      for (let i = 1; i <= 3; i++) await repo.enqueue(newMessage(i, { now: 1_000 }));
      await repo.claim({ owner: "w1", now: 2_000, leaseMs: 60_000, limit: 2 }); // 1 and 2
      await repo.claim({ owner: "w0", now: 2_000, leaseMs: 60_000, limit: 10 }); // 3
      await repo.markFailed(3, "w0", "550 mailbox unavailable", 2_500);
      await repo.release([1], "w1", 2_000); // 1 is due again
      const before = JSON.stringify(await repo.list({ limit: 10 }));
      const fault = await faultFor(store.name, repo, location);
      return { repo, before, fault };
    }

    const writes: Array<[string, (repo: OutboxRepository) => Promise<unknown>]> = [
      ["enqueue (the lead)", (repo) => repo.enqueue(newMessage(9, { now: 3_000 }))],
      [
        "enqueueReceipt (the receipt and its count)",
        (repo) =>
          repo.enqueueReceipt(newMessage(10, { kind: "receipt", idempotencyKey: "receipt:x", now: 3_000 }), {
            recipientKey: receiptRecipientKey("v10@example.org"),
            windowMs: 3_600_000,
          }),
      ],
      ["claim", (repo) => repo.claim({ owner: "w2", now: 3_000, leaseMs: 60_000, limit: 10 })],
      ["markSent", (repo) => repo.markSent(2, "w1", "<id@example.com>", 3_000)],
      ["markRetry", (repo) => repo.markRetry(2, "w1", "timeout", 9_000, 3_000)],
      ["markFailed", (repo) => repo.markFailed(2, "w1", "550", 3_000)],
      ["release", (repo) => repo.release([2], "w1", 3_000)],
      ["retry", (repo) => repo.retry(3, 3_000)],
      ["retryFailed", (repo) => repo.retryFailed(3_000)],
      ["probeWrite (readiness)", (repo) => repo.probeWrite(3_000)],
      ["eraseBySubject", (repo) => repo.eraseBySubject("v1@example.org", 3_000)],
    ];

    for (const [name, write] of writes) {
      it(`${name} rejects, and the store is as it was`, async () => {
        const { repo, before, fault } = await prepared();
        await expect(write(repo)).rejects.toThrow();
        await fault.heal();
        expect(JSON.stringify(await repo.list({ limit: 10 }))).toBe(before);
        // and works again once the fault is gone
        await expect(write(repo)).resolves.not.toThrow();
      });
    }

    it("purge rejects, and erases nothing", async () => {
      const { repo, location } = await store.fresh();
      await repo.enqueue(newMessage(1, { now: 1_000 }));
      const [m] = await repo.claim({ owner: "w", now: 1_000, leaseMs: 60_000, limit: 1 });
      await repo.markSent(m!.id, "w", "<x@example.com>", 1_000);
      const fault = await faultFor(store.name, repo, location);
      await expect(repo.purge({ now: 10_000_000, retentionMs: 1_000, receiptWindowMs: 1_000 })).rejects.toThrow();
      await fault.heal();
      expect((await repo.get(m!.id))!.lead).toMatchObject({ email: "v1@example.org" });
    });
  });
}

describe("the leads service when the outbox cannot commit", () => {
  const lead = (i: number): Lead => ({ kind: "contact", data: { name: `Visitor ${i}`, email: `full${i}@example.org`, subject: `Subject ${i}`, message: "A message that must not be lost." } });
  let postgres: TestPostgres | undefined;
  const dirs: string[] = [];
  beforeAll(async () => {
    postgres = await startTestPostgres();
  }, 120_000);
  afterAll(async () => {
    await postgres?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  for (const kind of ["sqlite", "postgres"] as const) {
    it(`on ${kind}: answers unavailable with no reference, then stores the next post under a reference no visitor was given`, async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "leads-full-"));
      dirs.push(dataDir);
      const url = kind === "postgres" ? await postgres!.createDatabase(`leads_full_${process.pid}`) : undefined;
      const config = parseConfig({ DATA_DIR: dataDir, OUTBOX_WORKER: "false", LOG_LEVEL: "silent", ...(url ? { DATABASE_URL: url } : {}) });
      const leads = await startLeads({ config, logger: createLogger("silent") });
      try {
        const given: string[] = [];
        const first = await leads.submit(lead(1), { ip: "203.0.113.1", idempotencyKey: crypto.randomUUID() });
        expect(first.status).toBe("accepted");
        given.push((first as { reference: string }).reference);
        const repo = await leads.outbox();
        // the receipt is stored in the background: let it land before the fault
        await waitFor("the receipt", async () => (await repo.list({ limit: 10 })).find((m) => m.kind === "receipt"));
        const fault = kind === "sqlite" ? failSqliteCommits((repo as SqliteOutboxRepository).handle) : await failPostgresCommits(url!);
        for (let i = 2; i <= 6; i++) {
          const outcome = await leads.submit(lead(i), { ip: "203.0.113.1", idempotencyKey: crypto.randomUUID() });
          expect(outcome).toMatchObject({ status: "unavailable", retryAfterSeconds: 60 });
          expect(outcome).not.toHaveProperty("reference");
        }
        expect(await leads.readiness()).toMatchObject({ ready: false, reason: expect.stringContaining("cannot take a write") });
        await fault.heal();
        expect((await repo.list({ limit: 100 })).filter((m) => m.kind === "contact")).toHaveLength(1);
        const next = await leads.submit(lead(7), { ip: "203.0.113.1", idempotencyKey: crypto.randomUUID() });
        expect(next.status).toBe("accepted");
        expect(given).not.toContain((next as { reference: string }).reference);
        const stored = await repo.get((next as { id: number }).id);
        expect(stored!.lead).toMatchObject({ email: "full7@example.org" });
        await new Promise((r) => setTimeout(r, 2_100)); // past the readiness probe's interval
        expect(await leads.readiness()).toEqual({ ready: true });
      } finally {
        await leads.close();
      }
    }, 60_000);
  }
});

import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiptRecipientKey, rekeyedIdempotencyKey } from "../../app/.server/db/outbox.ts";
import { newMessage, postgresStore, sqliteStore } from "../support/outbox-stores.ts";

// The same suite on both outbox stores (issue #4: "the same repository code and the same
// test suite run on both").
describe.each([sqliteStore(), postgresStore()])("outbox repository on $name", (store) => {
  beforeAll(() => store.setup(), 60_000);
  afterAll(() => store.teardown());

  it("stores a message once per idempotency key and content", async () => {
    const { repo } = await store.fresh();
    const m = newMessage(1, { idempotencyKey: "contact:same" });
    const first = await repo.enqueue(m);
    const again = await repo.enqueue({ ...m, now: 9_000 });
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.message.id).toBe(first.message.id);
    expect(again.message.lead.name).toBe("Visitor 1");
    expect(await repo.counts()).toEqual({ pending: 1, sending: 0, sent: 0, failed: 0 });
  });

  it("composes a lead's e-mail from its row id, the visitor's reference, in the same write (issue #41)", async () => {
    const { repo } = await store.fresh();
    await repo.enqueue(newMessage(1));
    const m = newMessage(2);
    const base = m.mail;
    const composed = { ...m, mail: (id: number) => ({ ...base, text: `Reference: #${id}\n\n${base.text}`, headers: { "X-Lead-Reference": `#${id}` } }) };
    const first = await repo.enqueue(composed);
    expect(first.created).toBe(true);
    expect(first.message.mail.headers).toEqual({ "X-Lead-Reference": `#${first.message.id}` });
    expect((await repo.get(first.message.id))!.mail).toEqual(first.message.mail);
    expect((await repo.get(first.message.id))!.mail.text.startsWith(`Reference: #${first.message.id}\n`)).toBe(true);
    // a repeat is the stored message, composed once
    let calls = 0;
    const again = await repo.enqueue({ ...composed, mail: (id: number) => (calls++, composed.mail(id)) });
    expect(again).toEqual({ message: first.message, created: false });
    expect(calls).toBe(0);
  });

  it("stores other content under a reused key as a new message, once", async () => {
    const { repo } = await store.fresh();
    const first = await repo.enqueue(newMessage(1, { idempotencyKey: "contact:reused" }));
    const other = newMessage(2, { idempotencyKey: "contact:reused" });
    const second = await repo.enqueue(other);
    const secondAgain = await repo.enqueue(other);
    expect(second.created).toBe(true);
    expect(second.message.id).not.toBe(first.message.id);
    expect(second.message).toMatchObject({ lead: other.lead, mail: other.mail, contentHash: other.contentHash, status: "pending" });
    expect(second.message.idempotencyKey).toBe(rekeyedIdempotencyKey("contact:reused", other.contentHash));
    expect(secondAgain).toEqual({ message: second.message, created: false });
    // the first content, posted again, is still a repeat of the first message
    expect((await repo.enqueue(newMessage(1, { idempotencyKey: "contact:reused" }))).message.id).toBe(first.message.id);
    expect(await repo.counts()).toEqual({ pending: 2, sending: 0, sent: 0, failed: 0 });
  });

  it("adds the content-hash column to a table from before it, and stores a post under an old key", async () => {
    const { repo, another, location } = await store.fresh();
    const old = await repo.enqueue(newMessage(1, { idempotencyKey: "contact:old" }));
    await repo.close();
    // Put the table back to its pre-issue-7 shape.
    if (store.name === "sqlite") {
      const db = new DatabaseSync(location);
      db.exec("ALTER TABLE outbox DROP COLUMN content_hash");
      db.close();
    } else {
      const client = new pg.Client({ connectionString: location });
      await client.connect();
      await client.query("ALTER TABLE outbox DROP COLUMN content_hash");
      // a version from before it knew no schema as applied (postgres-pool.ts, ADR 0140)
      await client.query("DELETE FROM site_schema_applied");
      await client.end();
    }
    const upgraded = await another();
    expect(await upgraded.get(old.message.id)).toMatchObject({ contentHash: null, lead: { name: "Visitor 1" } });
    // A legacy row has no hash to compare: the post is stored (a possible second copy of a
    // double submit that straddles the upgrade, never a dropped lead).
    const again = await upgraded.enqueue(newMessage(1, { idempotencyKey: "contact:old" }));
    expect(again.created).toBe(true);
    expect(await upgraded.counts()).toMatchObject({ pending: 2 });
  });

  it("releases messages claimed but not started: pending again, due now, the attempt given back", async () => {
    const { repo } = await store.fresh();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await repo.enqueue(newMessage(i, { now: 1_000 }))).message.id);
    const claimed = await repo.claim({ owner: "stopping", now: 2_000, leaseMs: 60_000, limit: 10 });
    expect(claimed).toHaveLength(3);
    // another owner cannot release them, nor can anyone release a message that is not sending
    expect(await repo.release(ids, "someone-else", 2_500)).toBe(0);
    await repo.markSent(ids[0], "stopping", "<sent@x>", 2_600);
    expect(await repo.release(ids, "stopping", 3_000)).toBe(2);
    for (const id of ids.slice(1)) {
      expect(await repo.get(id)).toMatchObject({ status: "pending", attempts: 0, leaseOwner: null, leaseUntil: null, nextAttemptAt: 3_000 });
    }
    expect(await repo.get(ids[0])).toMatchObject({ status: "sent", attempts: 1 });
    // a second worker takes them at once, long before the 60 s lease would have run out
    const taken = await repo.claim({ owner: "next", now: 3_001, leaseMs: 60_000, limit: 10 });
    expect(taken.map((m) => [m.id, m.attempts])).toEqual(ids.slice(1).map((id) => [id, 1]));
    expect(await repo.release([], "next")).toBe(0);
  });

  it("round-trips every field", async () => {
    const { repo } = await store.fresh();
    const input = newMessage(7, { now: 123_456 });
    const { message } = await repo.enqueue(input);
    expect(await repo.get(message.id)).toEqual({
      id: message.id,
      kind: "contact",
      idempotencyKey: input.idempotencyKey,
      lead: input.lead,
      contentHash: input.contentHash,
      mail: input.mail,
      status: "pending",
      attempts: 0,
      nextAttemptAt: 123_456,
      leaseOwner: null,
      leaseUntil: null,
      lastError: null,
      providerMessageId: null,
      clientIp: "127.0.0.1",
      createdAt: 123_456,
      updatedAt: 123_456,
      sentAt: null,
      erasedAt: null,
    });
    expect(await repo.get(999_999)).toBeUndefined();
  });

  it("claims due messages in order under a lease, counting the attempt", async () => {
    const { repo } = await store.fresh();
    for (let i = 0; i < 3; i++) await repo.enqueue(newMessage(i, { now: 1_000 }));
    await repo.enqueue(newMessage(9, { now: 5_000 })); // not due yet at t=2000
    const claimed = await repo.claim({ owner: "w1", now: 2_000, leaseMs: 10_000, limit: 10 });
    expect(claimed.map((m) => [m.status, m.attempts, m.leaseOwner, m.leaseUntil])).toEqual([
      ["sending", 1, "w1", 12_000],
      ["sending", 1, "w1", 12_000],
      ["sending", 1, "w1", 12_000],
    ]);
    expect(claimed.map((m) => m.lead.name)).toEqual(["Visitor 0", "Visitor 1", "Visitor 2"]);
    // a second worker finds nothing while the lease holds
    expect(await repo.claim({ owner: "w2", now: 3_000, leaseMs: 10_000, limit: 10 })).toHaveLength(0);
    expect(await repo.claim({ owner: "w2", now: 5_000, leaseMs: 10_000, limit: 10 })).toHaveLength(1);
  });

  it("respects the batch limit", async () => {
    const { repo } = await store.fresh();
    for (let i = 0; i < 5; i++) await repo.enqueue(newMessage(i));
    expect(await repo.claim({ owner: "w", now: 2_000, leaseMs: 1_000, limit: 2 })).toHaveLength(2);
    expect(await repo.claim({ owner: "w", now: 2_000, leaseMs: 1_000, limit: 10 })).toHaveLength(3);
  });

  it("gives a message whose worker died to another worker once the lease expires", async () => {
    const { repo } = await store.fresh();
    const { message } = await repo.enqueue(newMessage(1));
    await repo.claim({ owner: "dead", now: 2_000, leaseMs: 5_000, limit: 1 });
    expect(await repo.claim({ owner: "alive", now: 6_999, leaseMs: 5_000, limit: 1 })).toHaveLength(0);
    const [reclaimed] = await repo.claim({ owner: "alive", now: 7_001, leaseMs: 5_000, limit: 1 });
    expect(reclaimed).toMatchObject({ id: message.id, leaseOwner: "alive", attempts: 2 });
    // the dead worker's late report is ignored; the live one's counts
    expect(await repo.markSent(message.id, "dead", "late", 8_000)).toBe(false);
    expect(await repo.markSent(message.id, "alive", "<id@x>", 8_000)).toBe(true);
    expect(await repo.get(message.id)).toMatchObject({ status: "sent", providerMessageId: "<id@x>", sentAt: 8_000, leaseOwner: null });
    // a sent message is never claimed again
    expect(await repo.claim({ owner: "alive", now: 1e12, leaseMs: 5_000, limit: 10 })).toHaveLength(0);
  });

  it("records a retry with its reason and time, then a failure", async () => {
    const { repo } = await store.fresh();
    const { message } = await repo.enqueue(newMessage(1));
    await repo.claim({ owner: "w", now: 2_000, leaseMs: 5_000, limit: 1 });
    expect(await repo.markRetry(message.id, "w", "SMTP ECONNREFUSED", 10_000, 2_100)).toBe(true);
    expect(await repo.get(message.id)).toMatchObject({ status: "pending", lastError: "SMTP ECONNREFUSED", nextAttemptAt: 10_000, leaseOwner: null });
    expect(await repo.claim({ owner: "w", now: 9_999, leaseMs: 5_000, limit: 1 })).toHaveLength(0);
    await repo.claim({ owner: "w", now: 10_000, leaseMs: 5_000, limit: 1 });
    expect(await repo.markFailed(message.id, "w", "SES MessageRejected: Email address is not verified.", 10_100)).toBe(true);
    expect(await repo.get(message.id)).toMatchObject({ status: "failed", attempts: 2, lastError: "SES MessageRejected: Email address is not verified." });
    expect(await repo.claim({ owner: "w", now: 1e12, leaseMs: 5_000, limit: 10 })).toHaveLength(0);
  });

  it("lets the operator retry one failed message or all of them", async () => {
    const { repo } = await store.fresh();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await repo.enqueue(newMessage(i))).message.id);
    await repo.claim({ owner: "w", now: 2_000, leaseMs: 5_000, limit: 10 });
    for (const id of ids) await repo.markFailed(id, "w", "boom", 2_100);
    expect(await repo.retry(ids[0], 3_000)).toBe(true);
    expect(await repo.get(ids[0])).toMatchObject({ status: "pending", attempts: 0, nextAttemptAt: 3_000 });
    expect(await repo.retryFailed(3_000)).toBe(2);
    expect(await repo.retryFailed(3_000)).toBe(0);
    expect((await repo.list({ status: "pending" })).map((m) => m.id).sort()).toEqual([...ids].sort());
    // a sent message cannot be re-queued
    const [m] = await repo.claim({ owner: "w", now: 4_000, leaseMs: 5_000, limit: 1 });
    await repo.markSent(m.id, "w", "x", 4_100);
    expect(await repo.retry(m.id, 5_000)).toBe(false);
  });

  it("lists newest first, filtered by status", async () => {
    const { repo } = await store.fresh();
    for (let i = 0; i < 4; i++) await repo.enqueue(newMessage(i));
    const all = await repo.list();
    expect(all.map((m) => m.lead.name)).toEqual(["Visitor 3", "Visitor 2", "Visitor 1", "Visitor 0"]);
    expect(await repo.list({ limit: 2 })).toHaveLength(2);
    expect(await repo.list({ status: "failed" })).toEqual([]);
  });

  it("never hands one message to two connections claiming at the same time", async () => {
    const { repo, another } = await store.fresh();
    for (let i = 0; i < 60; i++) await repo.enqueue(newMessage(i));
    const workers = [repo, await another(), await another(), await another()];
    const claimedBy = new Map<number, string>();
    let rounds = 0;
    while (claimedBy.size < 60 && rounds++ < 100) {
      const batches = await Promise.all(
        workers.map((w, i) => w.claim({ owner: `w${i}`, now: 2_000 + rounds, leaseMs: 60_000, limit: 4 })),
      );
      batches.forEach((batch, i) =>
        batch.forEach((m) => {
          expect(claimedBy.has(m.id), `message ${m.id} claimed twice`).toBe(false);
          claimedBy.set(m.id, `w${i}`);
        }),
      );
    }
    expect(claimedBy.size).toBe(60);
  });

  // Issue #11, ADR 0095: at most one receipt per address per hour, in the outbox's own store.
  it("stores at most one receipt per recipient per window, counted in the store (any connection, any case of the address)", async () => {
    const { repo, another } = await store.fresh();
    const hour = 3_600_000;
    const receipt = (i: number, now: number) => newMessage(i, { kind: "receipt", idempotencyKey: `receipt:lead-${i}`, now });
    const limit = { recipientKey: receiptRecipientKey("Grace@Example.org"), windowMs: hour };

    const first = await repo.enqueueReceipt(receipt(1, 10_000), limit);
    expect(first).toMatchObject({ limited: false, created: true, message: { kind: "receipt", status: "pending" } });
    // the same address, differently written, from a second connection (another process)
    const other = await another();
    expect(await other.enqueueReceipt(receipt(2, 10_000 + hour - 1), { ...limit, recipientKey: receiptRecipientKey(" grace@example.ORG ") })).toEqual({ limited: true });
    // another address is not affected
    expect(await other.enqueueReceipt(receipt(3, 20_000), { ...limit, recipientKey: receiptRecipientKey("ada@example.org") })).toMatchObject({ limited: false });
    // an hour after the first, the address may have one again
    expect(await repo.enqueueReceipt(receipt(4, 10_000 + hour), limit)).toMatchObject({ limited: false, created: true });
    expect((await repo.list()).filter((m) => m.kind === "receipt").map((m) => m.idempotencyKey).sort()).toEqual([
      "receipt:lead-1",
      "receipt:lead-3",
      "receipt:lead-4",
    ]);
  });

  it("lets only one of many concurrent receipts to one address through", async () => {
    const { repo, another } = await store.fresh();
    const connections = [repo, await another(), await another()];
    const limit = { recipientKey: receiptRecipientKey("race@example.org"), windowMs: 3_600_000 };
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        connections[i % 3].enqueueReceipt(newMessage(i, { kind: "receipt", idempotencyKey: `receipt:race-${i}`, now: 5_000 }), limit),
      ),
    );
    expect(results.filter((r) => !r.limited)).toHaveLength(1);
    expect((await repo.counts()).pending).toBe(1);
  });
});

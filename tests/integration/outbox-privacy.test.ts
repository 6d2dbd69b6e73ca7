import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { receiptRecipientKey, type OutboxRepository } from "../../app/.server/db/outbox.ts";
import { SqliteOutboxRepository } from "../../app/.server/db/sqlite-outbox.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { DAY_MS } from "../../app/.server/leads/retention.ts";
import { RECEIPT_WINDOW_MS, startLeads } from "../../app/.server/leads/service.ts";
import type { Lead } from "../../app/lib/contact/schemas.ts";
import { runScript } from "../support/commands.ts";
import { newMessage, postgresStore, sqliteStore } from "../support/outbox-stores.ts";
import { waitFor } from "../support/wait.ts";

// Issue #16, ADR 0107: personal data is kept only as long as needed, found and erased on request.

const YEAR = 365 * DAY_MS;
const personal = (i: number, email = `v${i}@example.org`) =>
  newMessage(i, {
    lead: { name: `Visitor ${i}`, email, subject: `Subject ${i}`, message: `Secret message number ${i} from a visitor` },
    mail: { from: "no-reply@example.com", to: "hello@example.com", replyTo: email, subject: `Contact: Subject ${i}`, text: `Name: Visitor ${i}\nSecret message number ${i}`, html: "<pre>…</pre>" },
    clientIp: "198.51.100.23",
  });

/** Delivers message `id` at time `at`. */
async function deliver(repo: OutboxRepository, id: number, at: number) {
  const claimed = await repo.claim({ owner: "w", now: at, leaseMs: 60_000, limit: 100 });
  for (const m of claimed) if (m.id !== id) await repo.release([m.id], "w", at);
  expect(await repo.markSent(id, "w", `<${id}@example.com>`, at)).toBe(true);
}

for (const store of [sqliteStore(), postgresStore()]) {
  describe(`personal data in the outbox on ${store.name}`, () => {
    beforeAll(() => store.setup(), 120_000);
    afterAll(() => store.teardown());

    it("erases a delivered message's personal data LEAD_RETENTION_DAYS after delivery, keeps the anonymous row, and leaves the rest", async () => {
      const { repo } = await store.fresh();
      const old = (await repo.enqueue({ ...personal(1), now: 1_000 })).message;
      const recent = (await repo.enqueue({ ...personal(2), now: 1_000 })).message;
      const failed = (await repo.enqueue({ ...personal(3), now: 1_000 })).message;
      const pending = (await repo.enqueue({ ...personal(4), now: 1_000 })).message;
      for (const m of await repo.claim({ owner: "w", now: 5_000, leaseMs: 60_000, limit: 10 })) {
        if (m.id === failed.id) await repo.markFailed(m.id, "w", "550 no such user", 5_000);
        else await repo.release([m.id], "w", 5_000);
      }
      await deliver(repo, old.id, 10_000);
      await deliver(repo, recent.id, 10_000 + 200 * DAY_MS);
      await repo.enqueueReceipt({ ...personal(5), kind: "receipt", idempotencyKey: "receipt:5", now: 30_000 }, { recipientKey: receiptRecipientKey("v5@example.org"), windowMs: RECEIPT_WINDOW_MS });

      const now = 10_000 + YEAR;
      const report = await repo.purge({ now, retentionMs: YEAR, receiptWindowMs: RECEIPT_WINDOW_MS });
      expect(report).toEqual({ erased: 1, receiptLogDeleted: 1, failedWaiting: 1 });

      const erased = (await repo.get(old.id))!;
      expect(erased).toMatchObject({ id: old.id, kind: "contact", status: "sent", lead: {}, clientIp: null, contentHash: null, erasedAt: now, sentAt: 10_000, createdAt: 1_000 });
      expect(JSON.stringify(erased)).not.toMatch(/Visitor 1|v1@example\.org|Secret message number 1|198\.51/);
      expect((await repo.get(recent.id))!.lead).toMatchObject({ email: "v2@example.org" });
      expect((await repo.get(failed.id))!.lead).toMatchObject({ email: "v3@example.org" });
      expect((await repo.get(pending.id))!.lead).toMatchObject({ email: "v4@example.org" });
      // run again: nothing more to do
      expect(await repo.purge({ now, retentionMs: YEAR, receiptWindowMs: RECEIPT_WINDOW_MS })).toEqual({ erased: 0, receiptLogDeleted: 0, failedWaiting: 1 });
      // the counts still count it
      expect((await repo.counts()).sent).toBe(2);
    });

    it("purges in batches: many old messages are all erased", async () => {
      const { repo } = await store.fresh();
      for (let i = 0; i < 450; i++) await repo.enqueue({ ...personal(i), now: 1_000 });
      const claimed = await repo.claim({ owner: "w", now: 2_000, leaseMs: 60_000, limit: 1000 });
      for (const m of claimed) await repo.markSent(m.id, "w", "x", 2_000);
      expect((await repo.purge({ now: 2_000 + YEAR, retentionMs: YEAR, receiptWindowMs: RECEIPT_WINDOW_MS })).erased).toBe(450);
    });

    it("finds a person's messages by address (trimmed, any case), erases them and their receipt count, and stops an undelivered one", async () => {
      const { repo } = await store.fresh();
      const delivered = (await repo.enqueue({ ...personal(1, "Ada.Lovelace@Example.org") })).message;
      await deliver(repo, delivered.id, 2_000);
      const waiting = (await repo.enqueue({ ...personal(2, "ada.lovelace@example.org ") })).message;
      const other = (await repo.enqueue({ ...personal(3, "grace@example.org") })).message;
      const receipt = await repo.enqueueReceipt(
        {
          ...newMessage(4, { kind: "receipt", idempotencyKey: "receipt:4", lead: { form: "contact", reference: "NB-000001" } }),
          mail: { from: "no-reply@example.com", to: "ada.lovelace@example.org", replyTo: "hello@example.com", subject: "We received your message", text: "NB-000001", html: "" },
        },
        { recipientKey: receiptRecipientKey("ada.lovelace@example.org"), windowMs: RECEIPT_WINDOW_MS },
      );
      expect(receipt.limited).toBe(false);

      const found = await repo.findBySubject("  ADA.LOVELACE@example.org ");
      expect(found.map((m) => m.id).sort()).toEqual([delivered.id, waiting.id, (receipt as { message: { id: number } }).message.id].sort());

      expect(await repo.eraseBySubject("ada.lovelace@example.org", 5_000)).toBe(3);
      expect(await repo.findBySubject("ada.lovelace@example.org")).toEqual([]);
      expect(await repo.eraseBySubject("ada.lovelace@example.org", 6_000)).toBe(0); // idempotent
      const stopped = (await repo.get(waiting.id))!;
      expect(stopped).toMatchObject({ status: "failed", lead: {}, erasedAt: 5_000 });
      expect(stopped.lastError).toContain("erased");
      expect(await repo.retry(waiting.id, 7_000)).toBe(false); // an erased message is never sent
      expect((await repo.claim({ owner: "w", now: 9_000, leaseMs: 60_000, limit: 10 })).map((m) => m.id)).toEqual([other.id]);
      // the receipt count for the address is gone: a new receipt may go to it
      const again = await repo.enqueueReceipt(
        { ...newMessage(5, { kind: "receipt", idempotencyKey: "receipt:5" }), mail: { ...newMessage(5).mail, to: "ada.lovelace@example.org" } },
        { recipientKey: receiptRecipientKey("ada.lovelace@example.org"), windowMs: RECEIPT_WINDOW_MS },
      );
      expect(again.limited).toBe(false);
      expect((await repo.get(other.id))!.lead).toMatchObject({ email: "grace@example.org" });
    });
  });
}

describe("the SQLite file after an erasure", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-bytes-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is readable by its owner only, and holds none of the erased values in its pages, free pages or WAL", async () => {
    const file = path.join(dir, "leads.sqlite");
    const repo = new SqliteOutboxRepository(file);
    const marker = "Zanzibar-Quokka-7731";
    try {
      for (let i = 0; i < 40; i++) await repo.enqueue({ ...personal(i, `${marker.toLowerCase()}-${i % 2}@example.org`), lead: { name: `${marker} ${i}`, email: `${marker.toLowerCase()}-${i % 2}@example.org`, message: `${marker} says ${"x".repeat(300)}` } });
      await repo.enqueue(personal(99, "keep@example.org"));
      const bytes = () => ["", "-wal", "-shm"].map((s) => (fs.existsSync(file + s) ? fs.readFileSync(file + s).toString("latin1") : "")).join("");
      expect(bytes()).toContain(marker);
      expect(await repo.eraseBySubject(`${marker.toLowerCase()}-0@example.org`, 1)).toBe(20);
      expect(await repo.eraseBySubject(`${marker.toLowerCase()}-1@example.org`, 1)).toBe(20);
      expect(bytes()).not.toContain(marker);
      expect(bytes()).not.toContain(marker.toLowerCase());
      expect(bytes()).toContain("keep@example.org");
      for (const s of ["", "-wal", "-shm"]) if (fs.existsSync(file + s)) expect((fs.statSync(file + s).mode & 0o777).toString(8)).toBe("600");
    } finally {
      await repo.close();
    }
  });
});

describe("the privacy clean-up and the operator's commands", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-privacy-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "silent", LEAD_RETENTION_DAYS: "30", DATABASE_URL: "" };
  const outbox = (...args: string[]) => runScript("outbox.ts", args, env);
  const lead = (email: string): Lead => ({ kind: "contact", data: { name: "Ada Lovelace", email, subject: "Distribution", message: "Please distribute my new album worldwide." } });

  it("runs after start-up in the worker's process, with the clock it is given, and erases what is past retention", async () => {
    let clock = Date.parse("2026-01-01T00:00:00Z");
    const config = parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", LEAD_RETENTION_DAYS: "30", LEAD_RECEIPTS: "false" });
    const leads = await startLeads({ config, logger: createLogger("silent") }, { now: () => clock, worker: { pollIntervalMs: 50 }, retention: { firstRunMs: 60_000 } });
    try {
      const stored = await leads.submit(lead("old@example.org"), { ip: "203.0.113.7", idempotencyKey: crypto.randomUUID() });
      const repo = await leads.outbox();
      const id = (stored as { id: number }).id;
      await waitFor("delivery", async () => ((await repo.get(id))?.status === "sent" ? true : undefined));
      clock += 31 * DAY_MS;
      expect(await leads.retention!.runNow()).toMatchObject({ erased: 1 });
      expect((await repo.get(id))!.lead).toEqual({});
    } finally {
      await leads.close();
    }
  }, 30_000);

  it("export prints a person's messages as JSON; erase asks, erases with --yes, and a second run erases nothing; purge prints what it did", async () => {
    const config = parseConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", OUTBOX_WORKER: "false", LEAD_RECEIPTS: "false" });
    const leads = await startLeads({ config, logger: createLogger("silent") });
    let reference: string;
    try {
      const stored = await leads.submit(lead("Grace@Example.org"), { ip: "203.0.113.8", idempotencyKey: crypto.randomUUID() });
      reference = (stored as { reference: string }).reference;
    } finally {
      await leads.close();
    }
    const exported = await outbox("export", "grace@example.org");
    expect(exported.code).toBe(0);
    const json = JSON.parse(exported.stdout) as { messages: Array<{ reference: string; fields: Record<string, string> }> };
    expect(json.messages).toEqual([expect.objectContaining({ reference, fields: expect.objectContaining({ email: "Grace@Example.org", name: "Ada Lovelace" }) })]);

    const asked = await outbox("erase", "grace@example.org"); // no terminal: it asks, and erases nothing
    expect(asked.stdout).toContain(reference);
    expect(asked.stdout).toContain("pass --yes");
    expect(asked.stdout).toContain("Nothing erased.");
    const erased = await outbox("erase", "GRACE@example.org", "--yes");
    expect(erased.stdout).toContain("Erased 1 message.");
    const again = await outbox("erase", "grace@example.org", "--yes");
    expect(again.stdout).toContain("Nothing to erase");
    expect(JSON.parse((await outbox("export", "grace@example.org")).stdout).messages).toEqual([]);
    const shown = await outbox("show", reference);
    expect(shown.stdout).toContain("this reference no longer exists");
    expect(shown.stdout).not.toContain("Grace@Example.org");

    const purged = await outbox("purge");
    expect(purged.code).toBe(0);
    expect(purged.stdout).toMatch(/Erased the personal data of \d+ messages? delivered more than 30 days ago/);
  }, 60_000);
});

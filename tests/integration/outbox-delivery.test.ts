import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { OutboxWorker, retryDelayMs } from "../../app/.server/leads/worker.ts";
import { startLeads } from "../../app/.server/leads/service.ts";
import { SmtpMailTransport } from "../../app/.server/mail/smtp-transport.ts";
import type { Lead } from "../../app/lib/contact/schemas.ts";
import { parseEml, startSmtpServer } from "../support/mail-peers.ts";
import { newMessage, postgresStore, sqliteStore } from "../support/outbox-stores.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { waitFor } from "../support/wait.ts";

const logger = createLogger("silent");
const fast = { pollIntervalMs: 20, baseDelayMs: 30, maxDelayMs: 150, leaseMs: 5_000 };

const lead = (i: number): Lead => ({
  kind: "contact",
  data: { name: `Visitor ${i}`, email: `v${i}@example.org`, subject: `Lead number ${i}`, message: "I would like to talk about distribution." },
});

describe("retry schedule", () => {
  it("grows exponentially and stops at the cap", () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5, 12].map((n) => retryDelayMs(n, 5_000, 60_000, mid))).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000]);
    expect(retryDelayMs(3, 5_000, 60_000, () => 0)).toBe(16_000);
    expect(retryDelayMs(3, 5_000, 60_000, () => 1)).toBe(24_000);
  });
});

describe.each([sqliteStore(), postgresStore()])("delivery from the outbox on $name", (store) => {
  beforeAll(() => store.setup(), 60_000);
  afterAll(() => store.teardown());

  it("keeps retrying while the SMTP server is down and delivers each message once it is back", async () => {
    const { repo } = await store.fresh();
    const smtp = await startSmtpServer();
    const port = smtp.port;
    await smtp.stop(); // down
    const transport = new SmtpMailTransport(`smtp://127.0.0.1:${port}`, { timeoutMs: 2_000 });
    const worker = new OutboxWorker({ repository: repo, transport, logger, maxAttempts: 50, ...fast });
    for (let i = 0; i < 3; i++) await repo.enqueue(newMessage(i, { now: Date.now() }));
    worker.start();
    try {
      const retried = await waitFor("a second failed attempt", async () => {
        const [m] = await repo.list({ limit: 1 });
        return m.attempts >= 2 && m.status === "pending" ? m : undefined;
      });
      expect(retried.lastError).toMatch(/ECONNREFUSED/);
      const back = await startSmtpServer(port);
      await waitFor("3 sent", async () => (await repo.counts()).sent === 3);
      expect(back.received.map((m) => m.subject).sort()).toEqual(["Contact: Subject 0", "Contact: Subject 1", "Contact: Subject 2"]);
      await back.stop();
    } finally {
      await worker.stop();
      await transport.close();
    }
  });

  it("marks a message failed, with the reason, after OUTBOX_MAX_ATTEMPTS or on a permanent refusal", async () => {
    const { repo } = await store.fresh();
    const smtp = await startSmtpServer();
    smtp.rejectWith = { code: 550, message: "5.1.1 Mailbox unavailable" };
    const refusing = new SmtpMailTransport(smtp.url);
    const w1 = new OutboxWorker({ repository: repo, transport: refusing, logger, maxAttempts: 5, ...fast });
    const { message: rejected } = await repo.enqueue(newMessage(1, { now: Date.now() }));
    w1.start();
    const failed = await waitFor("failed", async () => {
      const m = await repo.get(rejected.id);
      return m?.status === "failed" ? m : undefined;
    });
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toContain("550");
    expect(failed.lastError).toContain("Mailbox unavailable");
    await w1.stop();
    await refusing.close();
    await smtp.stop();

    // nothing listens: temporary errors until the attempts run out
    const down = new SmtpMailTransport(smtp.url, { timeoutMs: 1_000 });
    const w2 = new OutboxWorker({ repository: repo, transport: down, logger, maxAttempts: 3, ...fast });
    const { message: unlucky } = await repo.enqueue(newMessage(2, { now: Date.now() }));
    w2.start();
    const exhausted = await waitFor("failed after 3 attempts", async () => {
      const m = await repo.get(unlucky.id);
      return m?.status === "failed" ? m : undefined;
    });
    expect(exhausted.attempts).toBe(3);
    expect(exhausted.lastError).toMatch(/ECONNREFUSED/);
    await w2.stop();
    await down.close();
  });

  it("delivers 200 concurrent submissions as 200 messages, with no duplicates even when every form is posted twice", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "leads-200-"));
    const { location } = await store.fresh();
    const config = parseConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: store.name === "postgres" ? location : "",
      LEADS_RATE_LIMIT: "100000",
      LOG_LEVEL: "silent",
      // the leads alone (each visitor here would also get a receipt: leads-service.test.ts)
      LEAD_RECEIPTS: "false",
    });
    const leads = await startLeads({ config, logger }, { worker: { ...fast, batchSize: 25 } });
    try {
      const keys = Array.from({ length: 200 }, () => crypto.randomUUID());
      const results = await Promise.all(
        [...keys, ...keys].map((idempotencyKey, i) => leads.submit(lead(i % 200), { ip: `10.0.${i % 7}.1`, idempotencyKey })),
      );
      expect(results.every((r) => r.status === "accepted")).toBe(true);
      expect(results.filter((r) => r.status === "accepted" && !r.duplicate)).toHaveLength(200);

      const mailDir = path.join(dataDir, "mail");
      await waitFor("200 .eml files", () => fs.existsSync(mailDir) && fs.readdirSync(mailDir).filter((f) => f.endsWith(".eml")).length >= 200, 30_000);
      const repo = await leads.outbox();
      await waitFor("200 sent", async () => (await repo.counts()).sent === 200, 30_000);
      const files = fs.readdirSync(mailDir).filter((f) => f.endsWith(".eml"));
      expect(files).toHaveLength(200);
      const subjects = await Promise.all(files.map(async (f) => (await parseEml(fs.readFileSync(path.join(mailDir, f)))).subject));
      expect(new Set(subjects).size).toBe(200);
      expect(subjects.sort()).toEqual(Array.from({ length: 200 }, (_, i) => `Contact: Lead number ${i}`).sort());
    } finally {
      await leads.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** The real SMTP transport, counting what this worker sent. */
class CountingSmtpTransport extends SmtpMailTransport {
  sends = 0;
  override send(...args: Parameters<SmtpMailTransport["send"]>) {
    this.sends++;
    return super.send(...args);
  }
}

describe("two workers on one PostgreSQL", () => {
  let pg: TestPostgres;
  beforeAll(async () => {
    pg = await startTestPostgres();
  }, 60_000);
  afterAll(() => pg?.stop());

  it("send each message exactly once", async () => {
    const url = await pg.createDatabase("two_workers");
    const { PostgresOutboxRepository } = await import("../../app/.server/db/postgres-outbox.ts");
    const [a, b] = [await PostgresOutboxRepository.open(url), await PostgresOutboxRepository.open(url)];
    const smtp = await startSmtpServer();
    smtp.acceptDelayMs = 2; // keep both workers busy at the same time
    const transports = [new CountingSmtpTransport(smtp.url), new CountingSmtpTransport(smtp.url)];
    for (let i = 0; i < 120; i++) await a.enqueue(newMessage(i, { now: Date.now() }));
    const workers = [
      new OutboxWorker({ repository: a, transport: transports[0], logger, maxAttempts: 5, owner: "worker-a", ...fast, batchSize: 5 }),
      new OutboxWorker({ repository: b, transport: transports[1], logger, maxAttempts: 5, owner: "worker-b", ...fast, batchSize: 5 }),
    ];
    workers.forEach((w) => w.start());
    try {
      await waitFor("120 sent", async () => (await a.counts()).sent === 120, 30_000);
      expect(smtp.received).toHaveLength(120);
      expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(120);
      // both took part, and together sent no more than 120
      expect(transports[0].sends).toBeGreaterThan(0);
      expect(transports[1].sends).toBeGreaterThan(0);
      expect(transports[0].sends + transports[1].sends).toBe(120);
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
      await Promise.all(transports.map((t) => t.close()));
      await a.close();
      await b.close();
      await smtp.stop();
    }
  });
});

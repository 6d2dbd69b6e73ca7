import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboxRepository } from "../../app/.server/db/outbox.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { OutboxWorker } from "../../app/.server/leads/worker.ts";
import { SmtpMailTransport } from "../../app/.server/mail/smtp-transport.ts";
import { startSmtpServer, type TestSmtpServer } from "../support/mail-peers.ts";
import { newMessage, postgresStore, sqliteStore } from "../support/outbox-stores.ts";
import { waitFor } from "../support/wait.ts";

// Issue #7 "Outbox crash windows": a send and its record are separate steps, and a worker
// that stops gives back what it has not started.

const logger = createLogger("silent");
const fast = { pollIntervalMs: 20, baseDelayMs: 30, maxDelayMs: 150, recordRetryMs: 10 };

/** The store, with markSent failing as long as `failing()` says (a locked or unreachable database). */
function withFailingMarkSent(repo: OutboxRepository, failing: () => boolean): OutboxRepository {
  return new Proxy(repo, {
    get(target, prop, receiver) {
      if (prop === "markSent") {
        return async (...args: Parameters<OutboxRepository["markSent"]>) => {
          if (failing()) throw new Error("database is locked");
          return target.markSent(...args);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const settle = () => new Promise((r) => setTimeout(r, 400));

describe.each([sqliteStore(), postgresStore()])("outbox crash windows on $name", (store) => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    await store.setup();
    smtp = await startSmtpServer();
  }, 60_000);
  afterAll(async () => {
    await smtp?.stop();
    await store.teardown();
  });
  const receivedWith = (subject: string) => smtp.received.filter((m) => m.subject === subject);

  it("markSent throwing once after a send: one e-mail, and the message ends up sent", async () => {
    const { repo } = await store.fresh();
    let failures = 1;
    const flaky = withFailingMarkSent(repo, () => failures-- > 0);
    const transport = new SmtpMailTransport(smtp.url);
    const worker = new OutboxWorker({ repository: flaky, transport, logger, maxAttempts: 5, leaseMs: 5_000, ...fast });
    const { message } = await repo.enqueue(newMessage(101, { now: Date.now() }));
    worker.start();
    try {
      const sent = await waitFor("sent", async () => ((await repo.get(message.id))?.status === "sent" ? repo.get(message.id) : undefined));
      expect(sent).toMatchObject({ attempts: 1, lastError: null });
      await settle(); // a resend would arrive now
      expect(receivedWith("Contact: Subject 101")).toHaveLength(1);
      // nothing failed, so the operator's retry-failed has nothing to resend
      expect(await repo.retryFailed(Date.now())).toBe(0);
      await settle();
      expect(receivedWith("Contact: Subject 101")).toHaveLength(1);
    } finally {
      await worker.stop();
      await transport.close();
    }
  });

  it("a store down for longer than the lease after a send: still one e-mail, recorded once the store is back", async () => {
    const { repo } = await store.fresh();
    let downUntil = Number.POSITIVE_INFINITY;
    const flaky = withFailingMarkSent(repo, () => Date.now() < downUntil);
    const transport = new SmtpMailTransport(smtp.url);
    // A lease of 300 ms runs out while the record keeps failing: the worker claims the
    // message again and must record it, not send it.
    const worker = new OutboxWorker({ repository: flaky, transport, logger, maxAttempts: 5, leaseMs: 300, recordAttempts: 2, ...fast });
    const { message } = await repo.enqueue(newMessage(102, { now: Date.now() }));
    worker.start();
    try {
      await waitFor("the e-mail", () => receivedWith("Contact: Subject 102").length > 0);
      await waitFor("a second claim after the lease ran out", async () => ((await repo.get(message.id))!.attempts >= 2 ? true : undefined));
      downUntil = Date.now();
      const sent = await waitFor("sent", async () => ((await repo.get(message.id))?.status === "sent" ? repo.get(message.id) : undefined));
      expect(sent!.providerMessageId).toBe(receivedWith("Contact: Subject 102")[0].messageId);
      await settle();
      expect(receivedWith("Contact: Subject 102")).toHaveLength(1);
    } finally {
      await worker.stop();
      await transport.close();
    }
  });

  it("stop with a deadline finishes the delivery in progress and releases the messages it had not started", async () => {
    const { repo } = await store.fresh();
    const transport = new SmtpMailTransport(smtp.url);
    const lease = 60_000; // long: released messages must not wait for it
    const worker = new OutboxWorker({ repository: repo, transport, logger, maxAttempts: 5, leaseMs: lease, concurrency: 1, ...fast });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await repo.enqueue(newMessage(110 + i, { now: Date.now() }))).message.id);
    smtp.acceptDelayMs = 300;
    let started = 0;
    smtp.onData = () => started++;
    worker.start();
    try {
      await waitFor("the first delivery under way", () => started >= 1);
      await worker.stop({ deadlineMs: 10_000 });
      expect(await repo.get(ids[0])).toMatchObject({ status: "sent" });
      for (const id of ids.slice(1)) {
        expect(await repo.get(id)).toMatchObject({ status: "pending", attempts: 0, leaseOwner: null });
      }
      expect(receivedWith("Contact: Subject 110")).toHaveLength(1);
      expect(smtp.received.filter((m) => /Subject 11[12]/.test(m.subject ?? ""))).toHaveLength(0);
    } finally {
      smtp.acceptDelayMs = 0;
      smtp.onData = undefined;
      await transport.close();
    }
    // The next worker (say, after the restart) delivers them at once, each once.
    const next = new OutboxWorker({ repository: repo, transport: new SmtpMailTransport(smtp.url), logger, maxAttempts: 5, leaseMs: lease, ...fast });
    next.start();
    try {
      await waitFor("3 sent", async () => (await repo.counts()).sent === 3);
      expect(["Contact: Subject 110", "Contact: Subject 111", "Contact: Subject 112"].map((s) => receivedWith(s).length)).toEqual([1, 1, 1]);
    } finally {
      await next.stop();
    }
  });

  it("stop returns at the deadline; a delivery still running keeps its lease and is recorded when it ends", async () => {
    const { repo } = await store.fresh();
    const transport = new SmtpMailTransport(smtp.url);
    const worker = new OutboxWorker({ repository: repo, transport, logger, maxAttempts: 5, leaseMs: 60_000, ...fast });
    const { message } = await repo.enqueue(newMessage(120, { now: Date.now() }));
    smtp.acceptDelayMs = 1_500;
    let started = 0;
    smtp.onData = () => started++;
    worker.start();
    try {
      await waitFor("the delivery under way", () => started >= 1);
      await worker.stop({ deadlineMs: 100 });
      // stopped while the mail server had not answered yet: still leased, not released
      expect(await repo.get(message.id)).toMatchObject({ status: "sending", leaseOwner: worker.owner });
      await waitFor("sent", async () => ((await repo.get(message.id))?.status === "sent" ? true : undefined));
      expect(receivedWith("Contact: Subject 120")).toHaveLength(1);
    } finally {
      smtp.acceptDelayMs = 0;
      smtp.onData = undefined;
      await transport.close();
    }
  });
});

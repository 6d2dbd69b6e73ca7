import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteOutboxRepository } from "../../app/.server/db/sqlite-outbox.ts";
import { startSmtpServer } from "../support/mail-peers.ts";
import { newMessage } from "../support/outbox-stores.ts";
import { waitFor } from "../support/wait.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** `npm run worker` as its own process, with a short lease so the test does not wait minutes. */
function startWorker(env: Record<string, string>, log: string): ChildProcess {
  const out = fs.openSync(log, "a");
  return spawn(
    path.join(root, "node_modules/.bin/node"),
    ["commands/worker.ts", "--poll-ms", "50", "--lease-ms", "1500", "--base-delay-ms", "100", "--max-delay-ms", "500"],
    { cwd: root, env: { ...process.env, LOG_LEVEL: "info", ...env }, stdio: ["ignore", out, out] },
  );
}

describe("kill -9 of a delivering process", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-crash-"));
  afterAll(() => {
    if (!process.env.KEEP_TEST_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("after a restart, every message is delivered exactly once", async () => {
    const smtp = await startSmtpServer();
    // The SMTP server holds each message before answering, so the worker is mid-delivery.
    smtp.acceptDelayMs = 3_000;
    let dataArrived = 0;
    smtp.onData = () => dataArrived++;

    const repo = new SqliteOutboxRepository(path.join(dataDir, "leads.sqlite"));
    for (let i = 0; i < 5; i++) await repo.enqueue(newMessage(i, { now: Date.now() }));
    const env = { DATA_DIR: dataDir, MAIL_TRANSPORT: "smtp", SMTP_URL: smtp.url };
    const log = path.join(dataDir, "worker.log");

    const first = startWorker(env, log);
    await waitFor("the worker to be mid-delivery", () => dataArrived >= 5, 20_000);
    expect((await repo.counts()).sending).toBe(5);
    const killed = new Promise((r) => first.once("exit", r));
    first.kill("SIGKILL");
    await killed;
    expect(smtp.received).toHaveLength(0); // nothing was accepted before the crash

    smtp.acceptDelayMs = 0;
    const second = startWorker(env, log);
    try {
      // The killed worker's lease runs out, the new one claims the messages again.
      await waitFor("5 sent", async () => (await repo.counts()).sent === 5, 20_000);
      // Give a would-be duplicate time to show up.
      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.received.map((m) => m.subject).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `Contact: Subject ${i}`));
      const sent = await repo.list({ status: "sent" });
      expect(sent.every((m) => m.attempts === 2)).toBe(true);
    } finally {
      const stopped = new Promise((r) => second.once("exit", r));
      second.kill("SIGTERM");
      await stopped;
      await repo.close();
      await smtp.stop();
    }
    expect(fs.readFileSync(log, "utf8")).toContain("outbox worker stopped");
  });
});

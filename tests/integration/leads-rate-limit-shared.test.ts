import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { newMessage } from "../support/outbox-stores.ts";
import { createSubmissionRateLimiter } from "../../app/.server/leads/rate-limit.ts";
import { PostgresOutboxRepository } from "../../app/.server/db/postgres-outbox.ts";
import { createLogger } from "../../app/.server/logger.ts";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * One server process, as far as leads go: the leads service on DATABASE_URL, posting
 * `count` leads from one client address, then printing how many were accepted.
 */
const CHILD = `
const { startLeads } = await import(${JSON.stringify(path.join(root, "app/.server/leads/service.ts"))});
const { parseConfig } = await import(${JSON.stringify(path.join(root, "app/.server/config.ts"))});
const { createLogger } = await import(${JSON.stringify(path.join(root, "app/.server/logger.ts"))});
const config = parseConfig(process.env);
// warnings (a limit that fails open says why) go to stderr, which the test prints on failure
const leads = await startLeads({ config, logger: createLogger(process.env.LOG_LEVEL, process.stderr) });
const statuses = [];
for (let i = 0; i < Number(process.env.COUNT); i++) {
  const lead = { kind: "contact", data: { name: "Visitor " + i, email: "v@example.org", subject: "Hello " + process.pid, message: "Message number " + i + " from one of two processes." } };
  statuses.push((await leads.submit(lead, { ip: process.env.CLIENT_IP, idempotencyKey: crypto.randomUUID() })).status);
}
await leads.close();
process.stdout.write(JSON.stringify(statuses));
`;

function runProcess(env: Record<string, string>): Promise<{ statuses: string[]; log: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, "node_modules/.bin/node"), ["--input-type=module", "-e", CHILD], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve({ statuses: JSON.parse(out) as string[], log: err }) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

describe("the rate limit on PostgreSQL", () => {
  let pg: TestPostgres;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "leads-shared-limit-"));
  beforeAll(async () => {
    pg = await startTestPostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("is shared by two server processes: with LEADS_RATE_LIMIT=3 they accept 3 together", async () => {
    const url = await pg.createDatabase("leads_shared_limit");
    const env = {
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      OUTBOX_WORKER: "false",
      LEADS_RATE_LIMIT: "3",
      LEADS_RATE_WINDOW_SECONDS: "600",
      LOG_LEVEL: "warn",
      COUNT: "3",
    };
    // Two addresses of one /64: one client.
    const [a, b] = await Promise.all([
      runProcess({ ...env, CLIENT_IP: "2001:db8:5::1" }),
      runProcess({ ...env, CLIENT_IP: "2001:db8:5::2" }),
    ]);
    const all = [...a.statuses, ...b.statuses];
    const logs = `what the processes logged:\n${a.log}\n${b.log}`;
    expect(all.filter((s) => s === "accepted"), logs).toHaveLength(3);
    expect(all.filter((s) => s === "rate-limited"), logs).toHaveLength(3);
    // neither counted alone: no "unreachable; counting on this machine"
    expect(`${a.log}${b.log}`).not.toMatch(/unreachable/);
  }, 60_000);

  it("counts as one when eight server processes start together on a fresh database (none counts alone)", async () => {
    const url = await pg.createDatabase("leads_limit_start_together");
    const lines: string[] = [];
    const logger = createLogger("warn", new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
    // eight limiters, as eight processes would build them: each its own pool, the table not there yet
    const limiters = Array.from({ length: 8 }, () =>
      createSubmissionRateLimiter({ limit: 3, windowSeconds: 600, ipv6Prefix: 64, databaseUrl: url, logger }),
    );
    try {
      const slots = await Promise.all(limiters.map((l) => l.take("198.51.100.7")));
      expect(slots.filter((s) => s.ok), lines.join("")).toHaveLength(3);
      expect(lines.join("")).not.toMatch(/unreachable/);
    } finally {
      await Promise.all(limiters.map((l) => l.close()));
    }
  }, 60_000);

  it("a process that starts while another stores leads neither deadlocks with it nor fails a lead (ADR 0140)", async () => {
    const url = await pg.createDatabase("leads_start_beside_traffic");
    const serving = await PostgresOutboxRepository.open(url);
    let storing = true;
    let stored = 0;
    // one process storing leads and receipts the whole time, in eight concurrent streams
    const traffic = Promise.all(
      Array.from({ length: 8 }, async (_, stream) => {
        for (let i = 0; storing; i++) {
          // a lead, and a receipt: its transaction writes receipt_log, then the outbox
          await serving.enqueue(newMessage(stream * 100_000 + i));
          await serving.enqueueReceipt(newMessage(stream * 100_000 + i), { recipientKey: `r${stream}-${i}`, windowMs: 3_600_000 });
          stored += 2;
        }
      }),
    );
    try {
      // others start beside it, one after another, each opening the same outbox
      for (let i = 0; i < 40; i++) await (await PostgresOutboxRepository.open(url)).close();
    } finally {
      storing = false;
      await traffic.finally(() => serving.close());
    }
    expect(stored).toBeGreaterThan(0);
    const reopened = await PostgresOutboxRepository.open(url);
    expect((await reopened.counts()).pending).toBe(stored);
    await reopened.close();
  }, 60_000);
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";

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
const leads = await startLeads({ config, logger: createLogger("silent") });
const statuses = [];
for (let i = 0; i < Number(process.env.COUNT); i++) {
  const lead = { kind: "contact", data: { name: "Visitor " + i, email: "v@example.org", subject: "Hello " + process.pid, message: "Message number " + i + " from one of two processes." } };
  statuses.push((await leads.submit(lead, { ip: process.env.CLIENT_IP, idempotencyKey: crypto.randomUUID() })).status);
}
await leads.close();
process.stdout.write(JSON.stringify(statuses));
`;

function runProcess(env: Record<string, string>): Promise<string[]> {
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
    child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`exit ${code}: ${err}`))));
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
      LOG_LEVEL: "silent",
      COUNT: "3",
    };
    // Two addresses of one /64: one client.
    const [a, b] = await Promise.all([
      runProcess({ ...env, CLIENT_IP: "2001:db8:5::1" }),
      runProcess({ ...env, CLIENT_IP: "2001:db8:5::2" }),
    ]);
    const all = [...a, ...b];
    expect(all.filter((s) => s === "accepted")).toHaveLength(3);
    expect(all.filter((s) => s === "rate-limited")).toHaveLength(3);
  }, 60_000);
});

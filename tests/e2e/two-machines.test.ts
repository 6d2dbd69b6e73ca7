import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { parseEml } from "../support/mail-peers.ts";
import { waitFor } from "../support/wait.ts";
import { startSite, type RunningSite } from "./support/server-process.ts";

// Issue #8 "Several machines": two servers, each with its own DATA_DIR as two machines would
// have (one of them running WEB_CONCURRENCY=2), on one DATABASE_URL. The form's rate limit
// holds for the site, not per machine, and every lead is sent exactly once, whichever
// machine stored it and whichever machine's worker delivers it.

let pg: TestPostgres;
const machines: RunningSite[] = [];

/** A contact form post, on its own connection, from the client address `ip` (via the loopback proxy). */
function postContact(base: string, subject: string, ip: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = new URLSearchParams({
      intent: "contact",
      idempotencyKey: crypto.randomUUID(),
      website: "",
      name: "Two Machines",
      email: "two@example.org",
      subject,
      message: "Hello, this message is posted to a site that runs on two machines.",
    }).toString();
    const req = http.request(
      `${base}/contact`,
      {
        method: "POST",
        agent: false,
        headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": ip, Connection: "close" },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Subjects of every .eml written on either machine (the file transport writes locally). */
async function deliveredSubjects(): Promise<string[]> {
  const subjects: string[] = [];
  for (const site of machines) {
    const dir = path.join(site.dataDir, "mail");
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).filter((name) => name.endsWith(".eml"))) {
      subjects.push(String((await parseEml(fs.readFileSync(path.join(dir, f)))).subject));
    }
  }
  return subjects;
}

beforeAll(async () => {
  pg = await startTestPostgres();
  const url = await pg.createDatabase("two_machines");
  // LEAD_RECEIPTS off: the delivered subjects counted below are leads (receipts: leads-service.test.ts)
  const env = { DATABASE_URL: url, LEADS_RATE_LIMIT: "3", SHUTDOWN_TIMEOUT_SECONDS: "5", LOG_LEVEL: "warn", LEAD_RECEIPTS: "false" };
  machines.push(await startSite({ env: { ...env, WEB_CONCURRENCY: "2" } }));
  machines.push(await startSite({ env: { ...env, SKIP_BUILD: "1" } }));
}, 240_000);

afterAll(async () => {
  await Promise.all(machines.map((m) => m.stop()));
  await pg?.stop();
});

describe("two machines on one DATABASE_URL", () => {
  it("share the rate limit and send each lead exactly once", { timeout: 60_000 }, async () => {
    const [a, b] = machines;
    const subjects = [1, 2, 3, 4].map((i) => `Two machines ${i} ${crypto.randomUUID().slice(0, 8)}`);
    const statuses: number[] = [];
    // alternately on each machine, the same visitor
    for (const [i, subject] of subjects.entries()) statuses.push(await postContact((i % 2 ? b : a).base, subject, "198.51.100.23"));
    expect(statuses).toEqual([200, 200, 200, 429]);

    const accepted = subjects.slice(0, 3).map((s) => `Contact: ${s}`);
    await waitFor("the three leads to be delivered", async () => (await deliveredSubjects()).length >= 3, 30_000);
    await new Promise((r) => setTimeout(r, 2_000)); // time for a second delivery, were there one
    expect((await deliveredSubjects()).sort()).toEqual(accepted.sort());
  });
});

import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPgBouncer, type TestPgBouncer } from "../support/pgbouncer.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { drumPattern, encodeWav, encodeWithFfmpeg } from "../support/synth.ts";
import { projectNode, projectRoot } from "../support/commands.ts";
import { waitFor } from "../support/wait.ts";
import { startSite, type RunningSite } from "./support/server-process.ts";

// Issue #42 "Bounded connections": three origins (each its own DATA_DIR, as three machines) and
// an analyzer reach PostgreSQL through PgBouncer in transaction mode, as docs/deployment.md
// runs a cluster of many machines. What the cluster promises holds through it: the form's rate
// limit is the site's, each lead is sent once, the analyzer's results reach every origin's
// album sheets, a reference file uploaded on one origin is answered on the others; and
// PostgreSQL sees at most the bouncer's pool, however many connections the processes open.

const POOL = 4;
let db: TestPostgres;
let bouncer: TestPgBouncer;
let url: string;
const origins: RunningSite[] = [];
let analyzer: ChildProcess | undefined;
let analyzerLog = "";

beforeAll(async () => {
  db = await startTestPostgres();
  await db.createDatabase("bounced");
  bouncer = await startTestPgBouncer({ upstreamPort: db.port, poolSize: POOL });
  url = bouncer.url("bounced");
  const env = { DATABASE_URL: url, LEADS_RATE_LIMIT: "3", LEAD_RECEIPTS: "false", SHUTDOWN_TIMEOUT_SECONDS: "5", LOG_LEVEL: "warn" };
  // one at a time: the first builds the site when the build is stale, and each writes its sample audio
  origins.push(await startSite({ env }));
  for (let i = 0; i < 2; i++) origins.push(await startSite({ env: { ...env, SKIP_BUILD: "1" } }));
  // the analyzer on the first origin's machine: it reads that machine's audio (ADR 0091)
  analyzer = spawn(projectNode, ["commands/analyzer.ts"], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: undefined, DATA_DIR: origins[0].dataDir, DATABASE_URL: url, LOG_LEVEL: "info", SHUTDOWN_TIMEOUT_SECONDS: "5" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  analyzer.stdout!.on("data", (d) => (analyzerLog = (analyzerLog + d).slice(-20_000)));
  analyzer.stderr!.on("data", (d) => (analyzerLog = (analyzerLog + d).slice(-20_000)));
}, 400_000);

afterAll(async () => {
  if (analyzer && analyzer.exitCode === null) {
    const exited = new Promise((r) => analyzer!.once("exit", r));
    analyzer.kill("SIGTERM");
    await exited;
  }
  await Promise.all(origins.map((o) => o.stop()));
  await bouncer?.stop();
  await db?.stop();
});

async function postContact(base: string, subject: string, ip: string): Promise<number> {
  const body = new URLSearchParams({ intent: "contact", idempotencyKey: crypto.randomUUID(), website: "", name: "Three Origins", email: "three@example.org", subject, message: "A message posted to a site of three machines behind PgBouncer." });
  const res = await fetch(`${base}/contact`, { method: "POST", headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": ip }, body, redirect: "manual" });
  await res.arrayBuffer();
  return res.status;
}

/** Subjects of the .eml files every origin wrote (each writes its own deliveries locally). */
function delivered(): string[] {
  const out: string[] = [];
  for (const o of origins) {
    const dir = path.join(o.dataDir, "mail");
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).filter((n) => n.endsWith(".eml"))) out.push(/^Subject: (.*)$/m.exec(fs.readFileSync(path.join(dir, f), "utf8"))![1].trim());
  }
  return out;
}

/** A query straight to PostgreSQL (not through the bouncer), on the cluster's database. */
async function query<T extends pg.QueryResultRow>(sql: string): Promise<pg.QueryResult<T>> {
  const client = new pg.Client({ connectionString: db.url.replace(/\/postgres$/, "/bounced") });
  await client.connect();
  try {
    return await client.query<T>(sql);
  } finally {
    await client.end();
  }
}

/** The client connections PostgreSQL holds for the cluster's database, this query's own left out. */
async function backends(): Promise<number> {
  const { rows } = await query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'bounced' AND backend_type = 'client backend' AND pid <> pg_backend_pid()");
  return Number(rows[0].n);
}

describe("three origins and an analyzer through PgBouncer (transaction mode)", () => {
  it("share the rate limit and send each lead once", { timeout: 90_000 }, async () => {
    const subjects = [1, 2, 3, 4].map((i) => `Bounced ${i} ${crypto.randomUUID().slice(0, 8)}`);
    const statuses: number[] = [];
    for (const [i, subject] of subjects.entries()) statuses.push(await postContact(origins[i % 3].base, subject, "198.51.100.42"));
    expect(statuses).toEqual([200, 200, 200, 429]);
    const accepted = subjects.slice(0, 3).map((s) => `Contact: ${s}`);
    await waitFor("the three leads delivered", () => delivered().length >= 3, 60_000);
    // every lead marked sent in the shared outbox (its attempts counted): a second send of one
    // would show as a fourth file or as a lead sent in more than one attempt
    await waitFor("the shared outbox to mark the three leads sent", async () => {
      const { rows } = await query<{ n: string }>("SELECT count(*) AS n FROM outbox WHERE status = 'sent'");
      return Number(rows[0].n) === 3;
    }, 30_000);
    expect((await query<{ attempts: number }>("SELECT attempts FROM outbox ORDER BY id")).rows.map((r) => r.attempts)).toEqual([1, 1, 1]);
    expect(delivered().sort()).toEqual(accepted.sort());
  });

  it("brings the analyzer's results to every origin, and answers one origin's reference file on the others", { timeout: 300_000 }, async () => {
    const snapshot = JSON.parse(fs.readFileSync(path.join(origins[0].dataDir, "catalog", "snapshots", "albums.json"), "utf8")) as { data: { id: string; tracks: unknown[] }[] };
    const album = snapshot.data[0];
    for (const o of origins) {
      await waitFor(
        `album ${album.id}'s ${album.tracks.length} tracks analysed, on ${o.base}`,
        async () => (await (await fetch(`${o.base}/catalog?item=${album.id}`)).text()).split("data-track-facts").length - 1 === album.tracks.length,
        240_000,
        2_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n--- analyzer log ---\n${analyzerLog.slice(-3000)}`);
      });
    }
    const mp3 = encodeWithFfmpeg(encodeWav([drumPattern({ bpm: 120, seconds: 12 })]), "mp3");
    const form = new FormData();
    form.append("audio", new Blob([Buffer.from(mp3)], { type: "audio/mpeg" }), "temp track.mp3");
    const posted = await fetch(`${origins[0].base}/catalog/sounds-like`, { method: "POST", body: form, redirect: "manual", headers: { Origin: origins[0].base } });
    expect(posted.status).toBe(303);
    const location = posted.headers.get("location")!;
    expect(location).toMatch(/like=ref-/);
    for (const o of origins.slice(1)) {
      const html = await (await fetch(`${o.base}${location}`)).text();
      expect(html, o.base).toMatch(/Tracks like your file/);
    }
  });

  it("keeps PostgreSQL's connections within the bouncer's pool", async () => {
    // 3 origins × DATABASE_POOL_MAX (10) and the analyzer's could open 40 and more; PostgreSQL sees the pool
    const n = await backends();
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThanOrEqual(POOL);
  });
});

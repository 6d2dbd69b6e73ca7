// `npm run bench:leads`: accepted submissions per second and the latency (p50/p95) of the
// /contact action through the real HTTP form post, on SQLite and on PostgreSQL. Starts the
// built site (building it if stale) as `npm start` does, with the outbox worker on and the
// file transport, so delivery competes with intake as in production.
//
//   npm run bench:leads [-- --requests 2000 --concurrency 16 --only sqlite|postgres]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startTestPostgres, type TestPostgres } from "../tests/support/postgres.ts";

const root = path.resolve(import.meta.dirname, "..");
const { values: flags } = parseArgs({
  options: {
    requests: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "16" },
    only: { type: "string" },
  },
});
const REQUESTS = Number(flags.requests);
const CONCURRENCY = Number(flags.concurrency);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function startSite(env: Record<string, string>): Promise<{ base: string; child: ChildProcess; dataDir: string }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-leads-"));
  const child = spawn(path.join(root, "node_modules/.bin/node"), ["server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      LEADS_RATE_LIMIT: "100000000",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the site exited with ${child.exitCode}`);
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return { base, child, dataDir };
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the site did not start");
}

function form(i: number) {
  return new URLSearchParams({
    intent: "contact",
    idempotencyKey: crypto.randomUUID(),
    website: "",
    name: `Bench Visitor ${i}`,
    email: `bench${i}@example.org`,
    subject: `Benchmark message ${i}`,
    message: "A realistic message body of a few sentences, asking about distribution for an EP.",
  });
}

/** Posts REQUESTS forms with CONCURRENCY in flight; returns throughput and latency. */
async function measure(base: string, pathName: string) {
  const origin = new URL(base).origin;
  const post = async (i: number) => {
    const started = performance.now();
    const res = await fetch(`${base}${pathName}`, { method: "POST", body: form(i), headers: { Origin: origin } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 50; i++) await post(-i); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) latencies.push(await post(next++));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { perSecond: latencies.length / seconds, p50: pct(50), p95: pct(95) };
}

const rows: string[][] = [];
let pg: TestPostgres | undefined;
try {
  for (const store of ["sqlite", "postgres"] as const) {
    if (flags.only && flags.only !== store) continue;
    const env: Record<string, string> = {};
    if (store === "postgres") {
      pg ??= await startTestPostgres();
      env.DATABASE_URL = await pg.createDatabase(`bench_${Date.now()}`);
    }
    const site = await startSite(env);
    try {
      for (const [label, pathName] of [
        ["form post (no JS, HTML)", "/contact"],
        ["fetcher (.data)", "/contact.data"],
      ] as const) {
        const r = await measure(site.base, pathName);
        rows.push([store, label, r.perSecond.toFixed(0), r.p50.toFixed(1), r.p95.toFixed(1)]);
        console.error(`${store} ${label}: done`);
      }
    } finally {
      site.child.kill("SIGTERM");
      await new Promise((r) => site.child.once("exit", r));
      fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await pg?.stop();
}

console.log(`\n${REQUESTS} accepted submissions per row, ${CONCURRENCY} in flight, ${os.cpus().length} CPU(s), outbox worker on (file transport)\n`);
console.log("| store | path | accepted/s | p50 ms | p95 ms |");
console.log("|---|---|---:|---:|---:|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);

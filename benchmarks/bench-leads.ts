// `npm run bench:leads`: accepted submissions per second and the latency (p50/p95) of the
// /contact action through the real HTTP form post, on SQLite and on PostgreSQL. Starts the
// built site (building it if stale) as `npm start` does, with the outbox worker on and the
// file transport, so delivery competes with intake as in production.
//
//   npm run bench:leads [-- --requests 2000 --concurrency 16 --only sqlite|postgres]
import os from "node:os";
import { parseArgs } from "node:util";
import { startTestPostgres, type TestPostgres } from "./lib/postgres-server.ts";
import { startSite } from "./lib/site-process.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    requests: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "16" },
    only: { type: "string" },
  },
});
const REQUESTS = Number(flags.requests);
const CONCURRENCY = Number(flags.concurrency);

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
    const env: Record<string, string> = { LOG_LEVEL: "warn", LEADS_RATE_LIMIT: "100000000" };
    if (store === "postgres") {
      pg ??= await startTestPostgres();
      env.DATABASE_URL = await pg.createDatabase(`bench_${Date.now()}`);
    }
    const site = await startSite({ env });
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
      await site.stop();
    }
  }
} finally {
  await pg?.stop();
}

console.log(`\n${REQUESTS} accepted submissions per row, ${CONCURRENCY} in flight, ${os.cpus().length} CPU(s), outbox worker on (file transport)\n`);
console.log("| store | path | accepted/s | p50 ms | p95 ms |");
console.log("|---|---|---:|---:|---:|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);

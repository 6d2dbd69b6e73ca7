import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTotals, runFuzz } from "../support/fuzz-requests.ts";
import { startSite, type RunningSite } from "./support/server-process.ts";

// Issue #7 "A fuzz test in npm test": 10,000 generated requests (catalog URLs and their
// `.data` form, /img, both forms, odd paths and methods, malformed heads on raw sockets)
// against the built site. No answer may be a 5xx, no connection may be reset, and the
// server's resident memory may grow only by a fixed bound. FUZZ_SEED replays a run.

// A fixed seed keeps CI runs comparable; FUZZ_SEED explores (and replays) others.
const seed = Number(process.env.FUZZ_SEED ?? 7);
const count = Number(process.env.FUZZ_COUNT ?? 10_000);
/**
 * Growth allowed over the main run, measured after a warm-up run: the first few thousand
 * requests lift resident memory to a high-water mark (the V8 heap and the allocator keep
 * what they once needed; it is not retained data and falls later), so growth is measured
 * from there. Unbounded state (an unbounded cache, a body held in memory) shows up beyond it.
 * Measured: +109 MB over 10,000 requests and +111 MB over 20,000 (a plateau, not a leak).
 */
const RSS_GROWTH_LIMIT_MB = 200;
const WARM_UP_REQUESTS = 3_000;
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-fuzz-log-"));

let site: RunningSite;

/** The server's resident memory; if it has died, the end of its log says why (once an unhandled stream error). */
const rssMb = (pid: number) => {
  if (!fs.existsSync(`/proc/${pid}/status`)) {
    const log = fs.readFileSync(path.join(logDir, "server.log"), "utf8");
    throw new Error(`the server (pid ${pid}) has exited; the end of its log:\n${log.slice(-3000)}`);
  }
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
};

beforeAll(async () => {
  site = await startSite({
    // React Router logs each refused action with a stack on stderr: keep it out of the test output.
    output: { file: path.join(logDir, "server.log") },
    env: {
      SKIP_BUILD: "1",
      LOG_LEVEL: "warn",
      // Every generated form post would otherwise count against one client IP.
      LEADS_RATE_LIMIT: "100000",
      // and every generated URL would count against its render budget (issue #18)
      RENDER_RATE_LIMIT: "100000",
    },
    timeoutMs: 120_000,
  });
});

afterAll(async () => {
  await site?.stop();
  if (!process.env.KEEP_E2E_DATA) fs.rmSync(logDir, { recursive: true, force: true });
});

describe("fuzz", () => {
  it(`answers ${count} generated requests with no 5xx, no reset and bounded memory`, { timeout: 240_000 }, async () => {
    console.log(`fuzz: seed ${seed} (replay with FUZZ_SEED=${seed})`);
    const pid = site.child.pid!;
    await runFuzz({ port: site.port, seed: seed + 1, count: WARM_UP_REQUESTS });
    const before = rssMb(pid);
    const totals = await runFuzz({ port: site.port, seed, count, concurrency: 16 });
    const after = rssMb(pid);
    console.log(formatTotals(totals));
    console.log(`server RSS ${before.toFixed(0)} MB -> ${after.toFixed(0)} MB (+${(after - before).toFixed(0)} MB)`);

    const describeOutcome = (o: (typeof totals.resets)[number]) => `${o.request.family}: ${o.request.label} -> ${o.status ?? o.error}`;
    expect(totals.serverErrors.map(describeOutcome), `seed ${seed}`).toEqual([]);
    expect(totals.resets.map(describeOutcome), `seed ${seed}`).toEqual([]);
    expect(after - before, `seed ${seed}`).toBeLessThan(RSS_GROWTH_LIMIT_MB);
    expect(Object.keys(totals.byFamily).sort()).toEqual(["catalog", "catalog-data", "form", "img", "malformed", "path-method", "upload"]);
    // The server is still serving pages afterwards.
    expect((await fetch(`${site.base}/healthz`)).status).toBe(200);
  });
});

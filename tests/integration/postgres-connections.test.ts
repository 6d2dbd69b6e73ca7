import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { createServices } from "../../app/.server/services.ts";
import { newReferenceId } from "../../app/.server/analysis/stage/references.ts";
import { BUILD_WORKER_CONNECTIONS } from "../../app/.server/catalog/tracks/build-thread.ts";
import type { Lead } from "../../app/lib/contact/schemas.ts";
import { albumEntry } from "../support/catalog-fixtures.ts";
import { writeBeat } from "../support/analysis-stage.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { waitFor } from "../support/wait.ts";

/**
 * Issue #42, ADR 0149: one PostgreSQL pool per process. A server process with every part that
 * talks to PostgreSQL (the outbox and its delivery worker, the leads' and the uploads' rate
 * limits, the analysis results and the analyzer, the reference files, the track index's build
 * worker) opens at most DATABASE_POOL_MAX connections, plus the build worker's documented one,
 * however hard its parts are used at once. Counted by PostgreSQL itself (pg_stat_activity).
 */

let server: TestPostgres;
let dataDir: string;

beforeAll(async () => {
  server = await startTestPostgres();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-connections-"));
  for (let i = 1; i <= 4; i++) writeBeat(path.join(dataDir, "media"), `track-${i}.wav`, { seconds: 3 });
  fs.writeFileSync(path.join(dataDir, "albums.json"), JSON.stringify([1, 2, 3, 4].map((i) => albumEntry(i))));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const lead = (i: number): Lead => ({
  kind: "contact",
  data: { name: `Visitor ${i}`, email: `v${i}@example.org`, subject: `Question ${i}`, message: "A question about distribution, long enough." },
});

describe("PostgreSQL connections of one process", () => {
  it.each([4, 10])("stay within DATABASE_POOL_MAX=%i (+ the build worker's one) under a load of every part", async (poolMax) => {
    const app = `site-connections-${poolMax}`;
    const url = `${await server.createDatabase(`connections_${poolMax}`)}?application_name=${app}`;
    const services = await createServices({
      config: parseConfig({
        DATA_DIR: dataDir,
        ALBUMS_URL: path.join(dataDir, "albums.json"),
        DATABASE_URL: url,
        DATABASE_POOL_MAX: String(poolMax),
        LEADS_RATE_LIMIT: "1000",
        REFERENCE_RATE_LIMIT: "1000",
        LOG_LEVEL: "silent",
      }),
      logger: createLogger("silent"),
      roles: { catalog: true, leads: true, worker: true, soundsLike: true },
      catalog: { refresh: false },
      leads: { worker: { pollIntervalMs: 20 } },
    });
    const watcher = new pg.Client({ connectionString: server.url });
    await watcher.connect();
    let most = 0;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const { rows } = await watcher.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1", [app]);
        most = Math.max(most, rows[0]!.n);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    try {
      const references = await services.soundsLike!.references();
      // every part at once, several rounds: leads (outbox, rate limit, receipts, delivery),
      // reference uploads (their rate limit, the store), like= views, analysis reads, the index
      for (let round = 0; round < 3; round++) {
        await Promise.all([
          ...Array.from({ length: 30 }, (_, i) => services.leads!.submit(lead(round * 100 + i), { ip: `203.0.113.${i}`, idempotencyKey: crypto.randomUUID() })),
          ...Array.from({ length: 20 }, async (_, i) => {
            await services.soundsLike!.limiter.take(`198.51.100.${i}`);
            const id = newReferenceId();
            await references.put({ id, fingerprint: "AQID", bpm: 120, key: "A minor", label: "demo.wav", expiresAt: Date.now() + 60_000 }, Date.now());
            return references.get(id, Date.now());
          }),
          ...Array.from({ length: 20 }, () => services.analysis!.lookup(["track-1.wav", "track-2.wav"])),
          services.indexes!.tracks.ready(),
        ]);
      }
      await waitFor("the tracks analysed", async () => ((await services.analysis!.lookup(["track-4.wav"])).size === 1 ? true : undefined), 60_000, 100);
      await waitFor("the leads delivered", async () => ((await (await services.leads!.outbox()).counts()).pending === 0 ? true : undefined), 30_000, 100);
    } finally {
      watching = false;
      await watch;
      await services.close({ deadlineMs: 3_000 });
    }
    // a backend leaves pg_stat_activity a moment after its client has closed the socket
    const left = async () => (await watcher.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1", [app])).rows[0]!.n;
    await expect.poll(left, { timeout: 15_000 }).toBe(0);
    const rows = [{ n: await left() }];
    await watcher.end();
    console.log(`DATABASE_POOL_MAX=${poolMax}: at most ${most} connections at once (bound ${poolMax} + ${BUILD_WORKER_CONNECTIONS}); ${rows[0]!.n} left after close`);
    expect(most).toBeGreaterThan(1); // the parts did run on PostgreSQL
    expect(most).toBeLessThanOrEqual(poolMax + BUILD_WORKER_CONNECTIONS);
    expect(rows[0]!.n).toBe(0);
  }, 180_000);
});

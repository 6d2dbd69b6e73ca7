import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../app/.server/config.ts";
import { createLogger } from "../../app/.server/logger.ts";
import { newReferenceId } from "../../app/.server/analysis/stage/references.ts";
import { createSoundsLike, type SoundsLikeService } from "../../app/.server/sounds-like/service.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { waitFor } from "../support/wait.ts";

/**
 * Issue #42, ADR 0149: search by a reference file keeps working across a PostgreSQL restart.
 * The references' tables go through the schema mechanism (ADR 0140) when the store opens; a
 * failed statement is a failed request, never a state the process keeps.
 */

const logger = createLogger("silent");
let server: TestPostgres;
let dataDir: string;

beforeAll(async () => {
  server = await startTestPostgres();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "references-pg-"));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** One upload's store step and the `like=ref-…` view's read: true when both work now. */
async function searchByFileWorks(service: SoundsLikeService): Promise<boolean> {
  const id = newReferenceId();
  const now = Date.now();
  const references = await service.references();
  await references.put({ id, fingerprint: "AQID", bpm: 120, key: "A minor", label: "demo.wav", expiresAt: now + 60_000 }, now);
  return (await references.get(id, now)).status === "ready";
}

/** Waits until `searchByFileWorks` and returns how long it took after `since`. */
async function recoveredAfter(service: SoundsLikeService, since: number): Promise<number> {
  await waitFor("search by file to work again", () => searchByFileWorks(service).catch(() => false) || undefined, 10_000, 100);
  return Date.now() - since;
}

describe("search by file on PostgreSQL", () => {
  it("creates its tables through the schema mechanism, before any upload", async () => {
    const url = await server.createDatabase("references_schema");
    const service = createSoundsLike(parseConfig({ DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: "silent" }), logger);
    try {
      await service.references();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const tables = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_name IN ('reference_fingerprint', 'reference_segments') ORDER BY table_name",
      );
      const applied = await client.query("SELECT count(*)::int AS n FROM site_schema_applied");
      await client.end();
      expect(tables.rows.map((r) => r.table_name)).toEqual(["reference_fingerprint", "reference_segments"]);
      expect(applied.rows[0].n).toBeGreaterThan(0);
    } finally {
      await service.close();
    }
  });

  it("works again within 10 s of PostgreSQL coming back: after a restart during use, and when the first upload falls in the outage", async () => {
    const url = await server.createDatabase("references_restart");
    const service = createSoundsLike(parseConfig({ DATA_DIR: dataDir, DATABASE_URL: url, LOG_LEVEL: "silent" }), logger);
    try {
      // the store is open (a `like=` view read it), no reference was stored yet: PostgreSQL goes away
      await service.references();
      await server.pause();
      await expect(searchByFileWorks(service)).rejects.toThrow();
      await server.resume();
      const first = await recoveredAfter(service, Date.now());

      // in use: uploads and views all the while PostgreSQL restarts
      let stop = false;
      const outcomes = { ok: 0, failed: 0 };
      const traffic = (async () => {
        while (!stop) {
          await searchByFileWorks(service).then(
            () => outcomes.ok++,
            () => outcomes.failed++,
          );
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      await waitFor("some searches before the restart", () => outcomes.ok >= 5 || undefined);
      await server.pause();
      await waitFor("searches failing while PostgreSQL is down", () => outcomes.failed >= 1 || undefined);
      await server.resume();
      const during = await recoveredAfter(service, Date.now());
      stop = true;
      await traffic;
      console.log(`search by file back ${first} ms after PostgreSQL (first use in the outage), ${during} ms (restart during use)`);
      expect(first).toBeLessThanOrEqual(10_000);
      expect(during).toBeLessThanOrEqual(10_000);
    } finally {
      await service.close();
    }
  }, 120_000);
});

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueTracks, spawnAnalyzer, startMediaHost, synthTrack, type AnalyzerProcess, type MediaHost } from "../../benchmarks/lib/analyzer-processes.ts";
import { startTestPgBouncer, type TestPgBouncer } from "../support/pgbouncer.ts";
import { startTestPostgres, type TestPostgres } from "../support/postgres.ts";
import { waitFor } from "../support/wait.ts";

/**
 * Issue #42 "Analysis as jobs", ADR 0158: two `npm run analyzer` processes, on machines that hold
 * no audio (each an empty DATA_DIR; the tracks come from MEDIA_URL, an HTTP host), share the
 * tracks queued in PostgreSQL, which they reach through PgBouncer in transaction mode as
 * docs/deployment.md runs a cluster (ADR 0155). One is killed with SIGKILL in the middle of a track: no cleanup
 * runs, its claim stays in the table; its machine starts a new analyzer. The track is taken again
 * once the dead claim's lease has run out, never before, and in the end every track is analysed
 * and stored exactly once, none still claimed. The lease is short (ANALYSIS_LEASE_SECONDS=4) so
 * the test is quick, and shorter than the last track's download (the media host pauses 6 s in
 * the middle of it): the live analyzer's renewals keep that track, where a lease without them
 * would hand it to the other, idle analyzer in the middle of its work.
 */

const LEASE_SECONDS = 4;
const TRACKS = 8;
let db: TestPostgres;
let bouncer: TestPgBouncer;
/** the database, straight (the test's own reads) and through the bouncer (the analyzers') */
let url: string;
let bouncedUrl: string;
let host: MediaHost;
const analyzers: AnalyzerProcess[] = [];
const keys = Array.from({ length: TRACKS }, (_, i) => `kill/track-${i}.wav`);

interface Row {
  key: string;
  status: string;
  lease_owner: string | null;
  lease_until: string | null;
  attempts: number;
  result_seq: string | null;
  analyzer_version: number | null;
  finished_at: string | null;
}

async function rows(): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>("SELECT key, status, lease_owner, lease_until, attempts, result_seq, analyzer_version, finished_at FROM track_analysis ORDER BY key")).rows;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  db = await startTestPostgres();
  url = await db.createDatabase("kill_analyzer");
  bouncer = await startTestPgBouncer({ upstreamPort: db.port, poolSize: 4 });
  bouncedUrl = bouncer.url("kill_analyzer");
  // 30 s each: about a second of analysis, long enough to be killed in
  host = await startMediaHost(new Map(keys.map((key, i) => [key, synthTrack(i, 30)])), { slow: new Set([keys[TRACKS - 1]]), pauseMs: 1.5 * LEASE_SECONDS * 1000 });
  await queueTracks(url, keys);
}, 120_000);

afterAll(async () => {
  await Promise.all(analyzers.map((a) => a.stop()));
  await host?.close();
  await bouncer?.stop();
  await db?.stop();
});

describe("an analyzer killed with SIGKILL in the middle of a track", () => {
  it("loses no track: the other analyzer takes it when its lease ends, and every track is stored once", { timeout: 180_000 }, async () => {
    const env = { DATABASE_URL: bouncedUrl, MEDIA_URL: host.base, ANALYSIS_LEASE_SECONDS: String(LEASE_SECONDS) };
    const victim = spawnAnalyzer(env);
    const survivor = spawnAnalyzer(env);
    analyzers.push(victim, survivor);
    await Promise.all([victim.started, survivor.started]);

    // mid-track: the victim holds a track whose audio it has downloaded in full, not yet stored
    const held = await waitFor(
      "the victim to be analysing a downloaded track",
      async () => (await rows()).find((r) => r.lease_owner?.includes(`:${victim.pid}:`) && r.status !== "done" && host.gets.some((g) => g.key === r.key)),
      60_000,
    );
    victim.child.kill("SIGKILL");
    expect(await victim.exited).toEqual({ code: null, signal: "SIGKILL" });
    const killedAt = Date.now();
    const atKill = (await rows()).find((r) => r.key === held.key)!;
    // its result never came: the claim is still the dead process's, and nothing gave it back
    expect(atKill).toMatchObject({ status: held.status, lease_owner: held.lease_owner, result_seq: held.result_seq });
    const leaseEnd = Number(atKill.lease_until);
    expect(leaseEnd).toBeGreaterThan(killedAt - LEASE_SECONDS * 1000);
    // the machine's supervisor starts a new analyzer (systemd's Restart=always, docs/deployment.md)
    const restarted = spawnAnalyzer(env);
    analyzers.push(restarted);

    const final = await waitFor(
      "every track analysed",
      async () => {
        const now = await rows();
        return now.length === TRACKS && now.every((r) => r.status === "done") ? now : undefined;
      },
      120_000,
      100,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- survivor ---\n${survivor.log().slice(-3000)}\n--- restarted ---\n${restarted.log().slice(-3000)}`);
    });

    // every track stored once, by this analyzer version, and none left claimed
    expect(final.map((r) => r.key)).toEqual([...keys].sort());
    expect(final.every((r) => r.analyzer_version !== null && r.result_seq !== null && r.lease_owner === null && r.lease_until === null)).toBe(true);
    expect(new Set(final.map((r) => r.result_seq)).size).toBe(TRACKS);
    // one result per track, and no second analysis: each track's audio was fetched once (the
    // slow one too, renewed while it ran), the killed one's twice (by the dead process, then by
    // the one that took it over)
    const fetches = new Map<string, number[]>();
    for (const g of host.gets) fetches.set(g.key, [...(fetches.get(g.key) ?? []), g.at]);
    expect(Object.fromEntries([...fetches].map(([k, at]) => [k, at.length]))).toEqual(Object.fromEntries(keys.map((k) => [k, k === held.key ? 2 : 1])));
    // taken again only once the dead process's lease had run out, and soon after (an analyzer
    // finishes the track it has, or starts, then claims): the second fetch falls after the lease's end
    const refetch = fetches.get(held.key)![1];
    expect(refetch).toBeGreaterThanOrEqual(leaseEnd);
    expect(refetch - leaseEnd).toBeLessThan(30_000);
    for (const a of [survivor, restarted]) expect(a.log()).not.toMatch(/result not stored/);
  });
});

import crypto from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import { openAnalysisStore } from "../app/.server/analysis/stage/open.ts";
import { seedPostgresResults } from "../benchmarks/lib/bench-tracks.ts";
import { startTestPostgres } from "../benchmarks/lib/postgres-server.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

/**
 * A lab for the track index's full read of the analysis figures on PostgreSQL (issue #42: a
 * joining origin reads every result before its first `like=`; ADR 0161): the site's statement
 * (store-reads.ts figuresAfter, pages of 5,000 after the result number: each row's JSON parsed
 * once by json_to_record) against the statement before it (a field at a time, `::json ->>`,
 * parsing the row's JSON once per field) and a jsonb variant. Starts a throw-away PostgreSQL (as the tests), writes the
 * synthetic results of `--albums` albums (fingerprints and passage codes, as bench:cluster
 * --passages), then reads them all `--rounds` times per variant, the variants alternated,
 * checks that they return the same rows, and prints each variant's times. Asserts nothing.
 *
 *   node labs/pg-figures-read.ts [--albums 20000 --rounds 3]
 */
const { values: args } = parseArgs({ options: { albums: { type: "string", default: "20000" }, rounds: { type: "string", default: "3" } } });
const PAGE = 5_000;

const server = await startTestPostgres();
try {
  const url = await server.createDatabase("figures");
  // the schema as the site makes it
  const store = await openAnalysisStore({ DATA_DIR: "/nonexistent", DATABASE_URL: url });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const written = await seedPostgresResults((sql, params) => client.query(sql, params), Number(args.albums), { fingerprints: true, passages: true });
  await client.query("VACUUM ANALYZE track_analysis");
  console.log(`${written.toLocaleString("en-US")} results written`);

  const variants: Record<string, () => Promise<string>> = {
    async site() {
      const h = crypto.createHash("sha256");
      let cursor = null;
      for (;;) {
        const page: Awaited<ReturnType<typeof store.figuresAfter>> = await store.figuresAfter(cursor, PAGE);
        for (const r of page.rows) h.update(JSON.stringify(r));
        if (!page.next || page.rows.length < PAGE) break;
        cursor = page.next;
      }
      return h.digest("hex");
    },
  };
  // the same pages by another statement, mapped as figuresAfter maps its rows
  type Row = { key: string; seq: unknown; seconds: unknown; bpm: unknown; musical_key: string | null; fingerprint: string | null; has_segments: unknown; passage_codes: string | null };
  const readAll = async (sql: string) => {
    const h = crypto.createHash("sha256");
    let after = 0;
    const value = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    for (;;) {
      const rows = (await client.query<Row>(sql, [after, PAGE])).rows;
      for (const r of rows) h.update(JSON.stringify({ key: r.key, seconds: value(r.seconds), bpm: value(r.bpm), musicalKey: r.musical_key ?? null, ...(r.fingerprint ? { fingerprint: r.fingerprint } : {}), ...(Number(r.has_segments) ? { hasSegments: true } : {}), ...(r.passage_codes ? { passageCodes: r.passage_codes } : {}) }));
      if (rows.length < PAGE) break;
      after = Number(rows.at(-1)!.seq);
    }
    return h.digest("hex");
  };
  // before ADR 0161: a field at a time, each `::json ->>` parsing the row's JSON again
  const field = (name: string) => `(analysis::json ->> '${name}')`;
  variants["per-field"] = () =>
    readAll(`SELECT key, result_seq AS seq, ${field("durationSeconds")} AS seconds, ${field("bpm")} AS bpm, ${field("key")} AS musical_key,
                    ${field("fingerprint")} AS fingerprint, CASE WHEN ${field("segments")} IS NULL THEN 0 ELSE 1 END AS has_segments,
                    ${field("passageCodes")} AS passage_codes
               FROM track_analysis WHERE result_seq > $1 ORDER BY result_seq LIMIT $2`);
  // measured and not kept: jsonb made once a row (it also converts every number of the peaks)
  variants.jsonb = () =>
    readAll(`WITH page AS MATERIALIZED (SELECT key, result_seq, analysis::jsonb AS j FROM track_analysis WHERE result_seq > $1 ORDER BY result_seq LIMIT $2)
             SELECT key, result_seq AS seq, j ->> 'durationSeconds' AS seconds, j ->> 'bpm' AS bpm, j ->> 'key' AS musical_key, j ->> 'fingerprint' AS fingerprint,
                    CASE WHEN j ->> 'segments' IS NULL THEN 0 ELSE 1 END AS has_segments, j ->> 'passageCodes' AS passage_codes
               FROM page ORDER BY result_seq`);
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((v) => [v, []]));
  const digests: Record<string, string> = {};
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const [name, read] of Object.entries(variants)) {
      const started = performance.now();
      digests[name] = await read();
      times[name].push(performance.now() - started);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [name, xs] of Object.entries(times)) console.log(`${name.padEnd(8)} median ${(median(xs) / 1000).toFixed(2)} s (${xs.map((x) => (x / 1000).toFixed(2)).join(", ")}); rows digest ${digests[name].slice(0, 12)}`);
  await client.end();
  await store.close();
} finally {
  await server.stop();
}

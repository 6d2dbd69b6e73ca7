import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { CHUNK_BYTES, download, upload } from "../app/.server/catalog/chunk-store.ts";
import { startTestPostgres } from "../benchmarks/lib/postgres-server.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

/**
 * A lab for a published file's download from PostgreSQL's 4 MiB BYTEA chunks (issue #42, ADR
 * 0162 amended in the sixth session: a joining machine downloaded the 715.8 MB track index
 * version at 250,000 albums in 38.5 s, on its build worker's thread beside the columns' build).
 * Starts a throw-away PostgreSQL (as the tests), stores `--file` (a real version: a figures
 * file from DATA_DIR/catalog/index/; or `--mb` random bytes) with the site's `upload` in a table
 * of the site's chunk shape, then downloads it `--rounds` times per variant, the variants
 * alternated, each into a temp file with its SHA-256 checked, and prints each variant's seconds,
 * median MB/s and the client's CPU seconds:
 * - `select-hex`: one `SELECT data` a chunk, as the site did before (node-postgres turns each
 *   chunk into a hex string and decodes it);
 * - `select-base64`: one `SELECT encode(data, 'base64')` a chunk, decoded by the client;
 * - `copy`: the site's `download` (chunk-store.ts): one `COPY … TO STDOUT (FORMAT binary)`, streamed.
 * Asserts nothing.
 *
 *   node labs/pg-chunk-transfer.ts [--file PATH | --mb 300] [--rounds 3]
 */
const { values: args } = parseArgs({ options: { file: { type: "string" }, mb: { type: "string", default: "300" }, rounds: { type: "string", default: "3" } } });

const work = fs.mkdtempSync(path.join(os.tmpdir(), "chunk-lab-"));
let source = args.file;
if (!source) {
  source = path.join(work, "random.bin");
  const out = fs.openSync(source, "w");
  for (let i = 0; i < Number(args.mb); i++) fs.writeSync(out, crypto.randomBytes(1024 * 1024));
  fs.closeSync(out);
}
const bytes = fs.statSync(source).size;
const sha256 = crypto.createHash("sha256").update(fs.readFileSync(source)).digest("hex");

const server = await startTestPostgres();
try {
  const url = await server.createDatabase("chunks");
  const a = new pg.Client({ connectionString: url });
  await a.connect();
  // the server's stop after a failure must not hide the failure itself
  a.on("error", () => undefined);
  // the site's chunk shape, without its version table
  await a.query("CREATE TABLE track_index_chunks (version BIGINT NOT NULL, name TEXT NOT NULL, seq INTEGER NOT NULL, data BYTEA NOT NULL, PRIMARY KEY (version, name, seq))");
  const f = { name: "figures", bytes, sha256 };
  const stored = performance.now();
  await a.query("BEGIN");
  await upload(a as pg.PoolClient, "track_index_chunks", 1, f, source);
  await a.query("COMMIT");
  const size = (await a.query<{ size: string }>("SELECT pg_total_relation_size('track_index_chunks') AS size")).rows[0].size;
  console.log(`stored in ${((performance.now() - stored) / 1000).toFixed(1)} s, ${(Number(size) / 1024 ** 2).toFixed(1)} MB on disk (chunks of ${CHUNK_BYTES} bytes)`);

  const bySelect = (sql: string, decode: (value: string | Buffer) => Buffer) => async (tmp: string) => {
    const out = await fsp.open(tmp, "w");
    const hash = crypto.createHash("sha256");
    for (let seq = 0; ; seq++) {
      const row = (await a.query<{ data: string | Buffer }>(sql, [seq])).rows[0];
      if (!row) break;
      const data = decode(row.data);
      hash.update(data);
      await out.write(data);
    }
    await out.sync();
    await out.close();
    if (hash.digest("hex") !== sha256) throw new Error("not the file");
  };
  const variants: Record<string, (tmp: string) => Promise<void>> = {
    "select-hex": bySelect("SELECT data FROM track_index_chunks WHERE version = 1 AND name = 'figures' AND seq = $1", (v) => v as Buffer),
    "select-base64": bySelect("SELECT encode(data, 'base64') AS data FROM track_index_chunks WHERE version = 1 AND name = 'figures' AND seq = $1", (v) => Buffer.from(v as string, "base64")),
    copy: (tmp) => download(a, "track_index_chunks", 1, f, tmp),
  };
  const times = new Map<string, number[]>();
  // this process's CPU (the client's share: in the site it is the build worker's thread, beside the columns' build)
  const cpus = new Map<string, number[]>();
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const [name, run] of Object.entries(variants)) {
      const tmp = path.join(work, "download.tmp");
      const started = performance.now();
      const cpu = process.cpuUsage();
      await run(tmp);
      const used = process.cpuUsage(cpu);
      const ms = performance.now() - started;
      if (fs.statSync(tmp).size !== bytes) throw new Error(`${name}: not the file`);
      fs.rmSync(tmp);
      times.set(name, [...(times.get(name) ?? []), ms]);
      cpus.set(name, [...(cpus.get(name) ?? []), (used.user + used.system) / 1000]);
    }
  }
  console.log(`\n${(bytes / 1024 ** 2).toFixed(1)} MB, ${args.rounds} rounds; load ${os.loadavg()[0].toFixed(1)}`);
  console.log("| variant | seconds (each round) | median MB/s | client CPU s (median) |\n|---|---|---:|---:|");
  for (const [key, ms] of times) {
    const sorted = [...ms].sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`| ${key} | ${ms.map((t) => (t / 1000).toFixed(1)).join(", ")} | ${(bytes / 1024 ** 2 / (median / 1000)).toFixed(0)} | ${(([...cpus.get(key)!].sort((x, y) => x - y)[Math.floor(ms.length / 2)]) / 1000).toFixed(2)} |`);
  }
  await a.end();
} finally {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

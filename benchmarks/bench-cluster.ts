// `npm run bench:cluster`: the site as a cluster (issue #42, ADR 0157) — a throw-away PostgreSQL,
// a loopback album upstream that counts its requests (an `ETag`, `304` to a matching
// `If-None-Match`, as the e2e cluster test's; it serves the films and channels too, and a fake
// music API the singles and genres, so that no machine writes the sample catalog), and N site processes (`npm start`, each its own
// DATA_DIR: N machines) on one database, at a given catalog size with synthetic analysis results
// (fingerprints, so `like=` views answer) written to PostgreSQL before the start. Prints one table:
//
// - upstream fetches per refresh interval (total fetches / intervals, over `--intervals`);
// - catalog versions served at once after a publication (each machine's `/catalog` ETag, which
//   names the served content, ADR 0157 amended, and the new album's page on each);
// - publication → served on every machine (s; from the version row's `published_at`);
// - lease takeover after `kill -9` of its holder (s; bounded by `--lease`);
// - publication → every machine's track view lists the new album (its track index rebuilt), and
//   the lease holder's track index version for the new table (ADR 0162 amended: when, its size);
// - a machine started into the running cluster (once the cluster is steady: every track index
//   rebuilt, the version published): start → first answered catalog page of the current version,
//   the track index version it took and its download time (from its log), and → first answered
//   `like=` view (DESIGN §3c: its rows, once its track index is built);
// - each process's memory: RSS, PSS and private (Private_Clean + Private_Dirty), from
//   /proc/PID/smaps_rollup, after the joining machine answered its first `like=`.
//
//   npm run bench:cluster [-- --albums 2000 --machines 3 --interval 10 --lease 30 --intervals 5 --analysed-albums N --passages --quiet --keep --log-level warn]
//
// `--albums` the catalog size (250000 works; about 10 tracks an album, ~90 % with results);
// `--analysed-albums` how many of the first albums get results (default: all); `--passages` gives
// them passage codes too (the reference stage's index, ADR 0129, as real results have); `--interval`
// CATALOG_REFRESH_SECONDS; `--lease` CATALOG_LEASE_SECONDS (the site's default is 30). Needs
// PostgreSQL's server binaries (as the tests: benchmarks/lib/postgres-server.ts). It measures;
// it asserts nothing. `--quiet` prints only the table; `--keep` keeps the work folder with each
// machine's log (`--log-level info` for the cluster's own lines: versions taken, published).
// `JOINED_NODE_OPTIONS` in the environment is the joining machine's NODE_OPTIONS (for instance
// `--cpu-prof --cpu-prof-dir=/tmp/prof`: a profile of its main thread and its build worker).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { openAnalysisStore } from "../app/.server/analysis/stage/open.ts";
import { stableId } from "../app/.server/catalog/reshape.ts";
import { writeSampleSources } from "../app/.server/catalog/sample/ensure.ts";
import { DEFAULT_SEED } from "../app/.server/catalog/sample/generate.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";
import { seedPostgresResults } from "./lib/bench-tracks.ts";
import { likeSeeds } from "./lib/long-tail.ts";
import { startTestPostgres } from "./lib/postgres-server.ts";
import { startSite, type RunningSite } from "./lib/site-process.ts";
import { musicApiEnv, startFakeMusicApi, type FakeMusicApi, type MusicApiData } from "./lib/music-api.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    albums: { type: "string", default: "2000" },
    machines: { type: "string", default: "3" },
    interval: { type: "string", default: "10" },
    lease: { type: "string", default: "30" },
    intervals: { type: "string", default: "5" },
    "analysed-albums": { type: "string" },
    passages: { type: "boolean", default: false },
    quiet: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    "log-level": { type: "string", default: "warn" },
  },
});
const ALBUMS = Number(flags.albums);
const MACHINES = Math.max(2, Number(flags.machines));
const INTERVAL_S = Number(flags.interval);
const LEASE_S = Number(flags.lease);
const INTERVALS = Math.max(1, Number(flags.intervals));
const ANALYSED_ALBUMS = Math.min(ALBUMS, Number(flags["analysed-albums"] ?? ALBUMS));
const say = (line: string) => flags.quiet || console.error(`bench:cluster: ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it gives a value (a bench's wait on a condition; `timeoutMs` only catches a hang). */
async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cluster-"));
const sites: RunningSite[] = [];
let upstream: http.Server | undefined;
let musicApi: FakeMusicApi | undefined;
const MUSIC_API_CREDENTIALS = { username: "bench", password: "bench-secret", clientId: "site", clientSecret: "site-secret", scope: "catalog.read", grantType: "password", appSource: "northbeat-site" };
let db: Awaited<ReturnType<typeof startTestPostgres>> | undefined;

async function cleanup() {
  await Promise.all(sites.map((s) => s.stop().catch(() => undefined)));
  upstream?.closeAllConnections();
  await new Promise((r) => (upstream ? upstream.close(r) : r(undefined)));
  await musicApi?.close().catch(() => undefined);
  await db?.stop().catch(() => undefined);
  if (flags.keep) say(`kept ${work} (the machines' logs: machine-N.log)`);
  else fs.rmSync(work, { recursive: true, force: true });
}
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));

try {
  // ---- the catalog: version 1, and version 2 with one album more -----------------------------
  say(`writing ${ALBUMS.toLocaleString("en-US")} albums…`);
  await writeSampleSources(work, { albums: ALBUMS, seed: DEFAULT_SEED, force: true, distinctAudio: true });
  const v1 = path.join(work, "merged.json");
  const v2 = path.join(work, "merged-2.json");
  const added = {
    name: "Bench Cluster Added Album",
    artist: "Lease Holder",
    genre: "Jazz",
    artwork: "bench-cluster-added.webp",
    keywords: ["jazz"],
    featured: false,
    tracks: [{ s3Path: "bench-cluster-added.wav", Filename: "Added" }],
  };
  const addedId = stableId(added.name, added.artist);
  {
    // the same list with one album appended, without parsing it (250,000 albums are ~100 MB)
    const text = fs.readFileSync(v1, "utf8").trimEnd();
    if (!text.endsWith("]")) throw new Error(`${v1} is not a JSON array`);
    fs.writeFileSync(v2, `${text.slice(0, -1)},${JSON.stringify(added)}]`);
  }

  // ---- the upstream: counts album-list requests, answers 304 to its current ETag --------------
  let served = { file: v1, etag: '"v1"' };
  let fetches = 0;
  upstream = http.createServer((req, res) => {
    // the other lists, as any upstream serves them: a machine given every source writes no
    // sample catalog at its start (about 2.5 s of a joining machine's start otherwise)
    if (req.url === "/films.json" || req.url === "/channels.json") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return void fs.createReadStream(path.join(work, req.url.slice(1))).pipe(res);
    }
    if (req.url !== "/merged.json") return void res.writeHead(404).end();
    fetches++;
    if (req.headers["if-none-match"] === served.etag) return void res.writeHead(304, { ETag: served.etag }).end();
    res.writeHead(200, { "Content-Type": "application/json", ETag: served.etag, "Content-Length": fs.statSync(served.file).size });
    fs.createReadStream(served.file).pipe(res);
  });
  await new Promise<void>((r) => upstream!.listen(0, "127.0.0.1", r));
  const upstreamBase = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  const upstreamUrl = `${upstreamBase}/merged.json`;
  // the singles and genres from the sample's music API data, behind the protocol's fake
  const { testUserIds: _ids, ...musicData } = JSON.parse(fs.readFileSync(path.join(work, "music-api.json"), "utf8")) as MusicApiData & { testUserIds: unknown };
  musicApi = await startFakeMusicApi(MUSIC_API_CREDENTIALS, musicData);

  // ---- PostgreSQL, with the analysis results in it --------------------------------------------
  say("starting PostgreSQL…");
  db = await startTestPostgres();
  const url = await db.createDatabase("bench_cluster");
  // the schema, as the site creates it
  await (await openAnalysisStore({ DATABASE_URL: url, DATA_DIR: work })).close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows;
  let results = 0;
  {
    const seeding = Date.now();
    results = await seedPostgresResults((sql, params) => client.query(sql, params), ANALYSED_ALBUMS, { fingerprints: true, passages: flags.passages });
    say(`${results.toLocaleString("en-US")} synthetic results in PostgreSQL (${((Date.now() - seeding) / 1000).toFixed(0)} s)`);
  }

  // ---- the machines ---------------------------------------------------------------------------
  const env = {
    DATABASE_URL: url,
    ALBUMS_URL: upstreamUrl,
    FILMS_URL: `${upstreamBase}/films.json`,
    CHANNELS_URL: `${upstreamBase}/channels.json`,
    ...musicApiEnv(musicApi.url, MUSIC_API_CREDENTIALS),
    CATALOG_REFRESH_SECONDS: String(INTERVAL_S),
    CATALOG_LEASE_SECONDS: String(LEASE_S),
    // one public address for every origin, as behind one name (pages print it)
    SITE_URL: "https://cluster.example",
    SHUTDOWN_TIMEOUT_SECONDS: "5",
    // a whole answer's deadline (download, parse, hash): 250,000 albums are ~185 MB, which took
    // over the default 30 s on this shared 2-core machine, and the holder then never published
    UPSTREAM_TIMEOUT_SECONDS: "600",
    LOG_LEVEL: flags["log-level"],
  };
  const start = (n: number) =>
    startSite({ env: n === 1 ? env : { ...env, SKIP_BUILD: "1" }, output: { file: path.join(work, `machine-${n}.log`) }, timeoutMs: 1_800_000 });
  for (let n = 1; n <= MACHINES; n++) {
    say(`starting machine ${n} of ${MACHINES}…`);
    // one at a time: the first builds the site when the build is stale
    sites.push(await start(n));
  }
  const likeUrl = (id: string) => `/catalog?type=music&view=tracks&like=${encodeURIComponent(id)}`;
  const answersLike = async (site: RunningSite, id: string) => {
    const res = await fetch(`${site.base}${likeUrl(id)}`);
    return res.status === 200 && (await res.text()).includes("data-track-id=") ? true : undefined;
  };
  say("waiting for every machine's catalog and track index…");
  const seed = await until("a like= seed on machine 1", async () => (await likeSeeds(sites[0]!.base, 1))[0], 1_800_000, 1000);
  for (const site of sites) await until(`${site.base} answering like=`, () => answersLike(site, seed), 1_800_000, 500);

  // ---- upstream fetches per interval ----------------------------------------------------------
  say(`counting upstream fetches over ${INTERVALS} intervals of ${INTERVAL_S} s…`);
  const from = fetches;
  await sleep(INTERVALS * INTERVAL_S * 1000);
  const fetchCount = fetches - from;

  // ---- a publication ----------------------------------------------------------------------------
  say("publishing a new album list…");
  const [{ v: before }] = await query<{ v: string | null }>("SELECT max(version) AS v FROM catalog_snapshot_versions");
  served = { file: v2, etag: '"v2"' };
  const published = await until(
    "the new version published",
    async () => {
      const [row] = await query<{ at: string }>(
        "SELECT extract(epoch FROM published_at) * 1000 AS at FROM catalog_snapshot_versions WHERE version > $1 ORDER BY version DESC LIMIT 1",
        [Number(before ?? 0)],
      );
      return row ? Number(row.at) : undefined;
    },
    (INTERVAL_S + 600) * 1000,
  );
  // the bench's first sight of the committed row (published_at is its transaction's start)
  const seenAt = Date.now();
  const servesAdded = async (site: RunningSite) => {
    const res = await fetch(`${site.base}/catalog?item=${addedId}`);
    return res.status === 200 && (await res.text()).includes(added.name) ? true : undefined;
  };
  const servedAt = await Promise.all(sites.map((site) => until(`${site.base} serving the new version`, () => servesAdded(site), 600_000, 50).then(() => Date.now())));
  const publishToServedS = (Math.max(...servedAt) - published) / 1000;
  const seenToServedS = (Math.max(...servedAt) - seenAt) / 1000;
  say(`served ${servedAt.map((t) => `${((t - published) / 1000).toFixed(1)} s`).join(", ")} after published_at; the row seen ${((seenAt - published) / 1000).toFixed(1)} s after it`);
  const etags = await Promise.all(sites.map(async (site) => (await fetch(`${site.base}/catalog`)).headers.get("etag")));
  const versionsAtOnce = new Set(etags).size;

  // ---- every machine's track index rebuilt for the new version, and (ADR 0162 amended) the --------
  // lease holder's track index version published for its table: the steady cluster a machine joins
  const listsAdded = async (site: RunningSite) => {
    const res = await fetch(`${site.base}/catalog?type=music&view=tracks&q=${encodeURIComponent(added.name)}`);
    return res.status === 200 && (await res.text()).includes(`data-track-id="${addedId}:0"`) ? true : undefined;
  };
  const rebuiltAt = await Promise.all(sites.map((site) => until(`${site.base}'s track index rebuilt`, () => listsAdded(site), 1_800_000, 250).then(() => Date.now())));
  const rebuiltS = (Math.max(...rebuiltAt) - published) / 1000;
  let indexVersion: { afterS: number; bytes: number } | undefined;
  const [{ t: publishes }] = await query<{ t: string | null }>("SELECT to_regclass('track_index_versions') AS t");
  if (publishes) {
    // a site that publishes its track index: wait for the version built for the new table
    say("waiting for the lease holder's track index version…");
    const row = await until(
      "the track index version of the new table",
      async () =>
        (
          await query<{ at: string; bytes: string }>(
            "SELECT extract(epoch FROM published_at) * 1000 AS at, bytes FROM track_index_versions WHERE published_at > to_timestamp($1 / 1000.0) ORDER BY version DESC LIMIT 1",
            [published],
          )
        )[0],
      600_000,
      250,
    ).catch(() => undefined);
    if (row) indexVersion = { afterS: (Number(row.at) - published) / 1000, bytes: Number(row.bytes) };
  }

  // ---- kill -9 of the lease's holder ------------------------------------------------------------
  const holderPid = async () => Number((await query<{ holder: string }>("SELECT holder FROM catalog_sync_lease"))[0]?.holder.split("/")[1]);
  const pid = await holderPid();
  const holder = sites.find((s) => s.child.pid === pid);
  let takeoverS = NaN;
  if (holder) {
    say(`kill -9 of the lease's holder (pid ${pid})…`);
    const exited = new Promise((r) => holder.child.once("exit", r));
    holder.child.kill("SIGKILL");
    await exited;
    const killedAt = Date.now();
    await until("another holder", async () => ((await holderPid()) !== pid ? true : undefined), (LEASE_S + 120) * 1000, 50);
    takeoverS = (Date.now() - killedAt) / 1000;
    await holder.stop();
    sites.splice(sites.indexOf(holder), 1);
  } else say(`the lease's holder (pid ${pid}) is none of the machines: no takeover measured`);

  // ---- a machine joins ------------------------------------------------------------------------
  say("starting a machine into the running cluster…");
  const joinedAt = Date.now();
  // its own lines at info: the published track index version it took, and its download time
  const joinedLog = path.join(work, `machine-${MACHINES + 1}.log`);
  const joined = await startSite({ env: { ...env, SKIP_BUILD: "1", LOG_LEVEL: "info", ...(process.env.JOINED_NODE_OPTIONS ? { NODE_OPTIONS: process.env.JOINED_NODE_OPTIONS } : {}) }, output: { file: joinedLog }, timeoutMs: 1_800_000 });
  sites.push(joined);
  await until("the new machine's first catalog page", () => servesAdded(joined), 1_800_000, 50);
  const firstPageS = (Date.now() - joinedAt) / 1000;
  await until("the new machine's first like=", () => answersLike(joined, seed), 1_800_000, 100);
  const firstLikeS = (Date.now() - joinedAt) / 1000;
  // "track index: figures taken from a published version" (track-index.ts), when it took one
  const taken = fs
    .readFileSync(joinedLog, "utf8")
    .split("\n")
    .filter((line) => line.includes("figures taken from a published version"))
    .map((line) => {
      try {
        return JSON.parse(line.slice(line.indexOf("{"))) as { version: number; downloaded: boolean; downloadMs: number; bytes: number };
      } catch {
        return undefined;
      }
    })
    .find((line) => line !== undefined);

  // ---- memory -----------------------------------------------------------------------------------
  const memory = sites.map((site, i) => ({ name: site === joined ? "joined" : `machine ${i + 1}`, pid: site.child.pid!, ...smapsRollup(site.child.pid!) }));
  await client.end();

  // ---- the table --------------------------------------------------------------------------------
  const mb = (kb: number | undefined) => (kb === undefined ? "n/a" : `${(kb / 1024).toFixed(0)} MB`);
  const rows: [string, string][] = [
    ["upstream fetches per interval", `${(fetchCount / INTERVALS).toFixed(2)} (${fetchCount} / ${INTERVALS})`],
    ["catalog versions served at once after a publish", String(versionsAtOnce)],
    ["publication → served on all machines", `${publishToServedS.toFixed(1)} s (${seenToServedS.toFixed(1)} s after the row was visible)`],
    [`lease takeover after kill -9 (lease ${LEASE_S} s)`, Number.isNaN(takeoverS) ? "n/a" : `${takeoverS.toFixed(1)} s`],
    ["publication → track index rebuilt on all machines", `${rebuiltS.toFixed(1)} s`],
    ["track index version published (ADR 0162 amended)", indexVersion ? `${indexVersion.afterS.toFixed(1)} s after the catalog's publication, ${(indexVersion.bytes / 1024 ** 2).toFixed(1)} MB` : "none (this site does not publish it)"],
    ["new machine: start → first catalog page", `${firstPageS.toFixed(1)} s`],
    ["new machine: track index version taken", taken ? `version ${taken.version}, ${taken.downloaded ? `downloaded in ${(taken.downloadMs / 1000).toFixed(1)} s` : "the machine's copy"}` : "none (built from the results)"],
    ["new machine: start → first like= answer", `${firstLikeS.toFixed(1)} s`],
    ...memory.map((m): [string, string] => [`${m.name} (pid ${m.pid}): RSS / PSS / private`, `${mb(m.rss)} / ${mb(m.pss)} / ${mb(m.private)}`]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log(
    `\nbench:cluster: ${ALBUMS.toLocaleString("en-US")} albums (${results.toLocaleString("en-US")} results), ${MACHINES} machines, ` +
      `CATALOG_REFRESH_SECONDS=${INTERVAL_S}, CATALOG_LEASE_SECONDS=${LEASE_S}, ${os.cpus().length} CPU(s)\n`,
  );
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
} finally {
  await cleanup();
}

/** RSS, PSS and private memory (Private_Clean + Private_Dirty) of a process, in kB, from /proc/PID/smaps_rollup. */
function smapsRollup(pid: number): { rss?: number; pss?: number; private?: number } {
  try {
    const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? NaN);
    return { rss: field("Rss"), pss: field("Pss"), private: field("Private_Clean") + field("Private_Dirty") };
  } catch {
    return {};
  }
}

// `npm run profile:render`: what one uncached catalog or item page costs the server (issue #18).
// Starts the built site (the sample catalog unless --albums says otherwise, with analysis results
// behind it: benchmarks/lib/analysed-site.ts) under `node --cpu-prof`, warms it with URLs of the
// same kinds, then asks, one at a time, URLs never asked before (benchmarks/lib/long-tail.ts):
// catalog views (typo'd searches, tempo and length ranges, searches sorted by tempo), album/single
// item pages and `like=` views, each as an HTML document and as `.data`. For every request it reads the server's CPU time from /proc (schedstat: nanoseconds,
// the main thread and all threads), and prints the p50 and p90 per kind. The profile is cut to
// the measured requests (its samples carry CLOCK_MONOTONIC times, the clock this script reads
// too), and its top self-time items are printed.
//
// `--compare DIR`: a second checkout of the site (built, from 2026-11-25 on: it needs
// benchmarks/lib/analysed-site.ts) runs beside this one on the same catalog, under the same
// profiler, and each URL is asked of both in turn, the first alternating. Two runs of one build
// differ by up to 15 % here (the machine, the heap's state); requests alternated between two
// builds see the same conditions, so a change of a few per cent shows (issue #18).
//
//   npm run profile:render [-- --requests 150 --albums 300 --out /tmp/render.cpuprofile --only "catalog view, HTML" --compare ../before]
//
// It measures; it asserts nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startAnalysedSite } from "./lib/analysed-site.ts";
import { asDataUrl, catalogWords, itemWalk, likeSeeds, likeViews, searchMix, sitemapPaths, type UrlGenerator } from "./lib/long-tail.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    requests: { type: "string", default: "150" },
    albums: { type: "string", default: "300" },
    out: { type: "string" },
    top: { type: "string", default: "10" },
    // only the kinds whose name contains this (e.g. "catalog view, HTML"), for a profile of one kind
    only: { type: "string" },
    // another checkout of the site, measured beside this one (above)
    compare: { type: "string" },
  },
});
const REQUESTS = Number(flags.requests);
const ALBUMS = Number(flags.albums);

/** CPU nanoseconds of the process's main thread and of all its threads, from /proc. */
function cpuNs(pid: number): { main: number; all: number } {
  let all = 0;
  let main = 0;
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    let ns: number;
    try {
      ns = Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      continue; // a thread that ended between the listing and the read
    }
    all += ns;
    if (Number(tid) === pid) main = ns;
  }
  return { main, all };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "render-prof-"));
// The site as a visitor gets it: with analysis results behind the catalog (analysed-site.ts),
// so ranges match, item pages carry their tracks' figures and `like=` views find neighbours.
// The build (when stale) runs before the server, in a child: its profile is another file.
const siteEnv = (dir: string) => ({ LOG_LEVEL: "warn", WEB_CONCURRENCY: "1", RENDER_RATE_LIMIT: "100000000", NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` });
const { site, albumsFile, stop } = await startAnalysedSite(ALBUMS, siteEnv(profileDir));
const pid = site.child.pid!;
/** the other checkout, on the same catalog (its own copy of the helper starts its own server.ts) */
const other = flags.compare ? await startOther(path.resolve(flags.compare)) : null;
const windows: [number, number][] = [];
const table: string[] = [];
try {
  const words = await catalogWords(albumsFile);
  const items = itemWalk(await sitemapPaths(site.base));
  const likes = likeViews(await likeSeeds(site.base));
  const kinds: { name: string; urls: UrlGenerator; map?: (u: string) => string }[] = [
    { name: "catalog view, HTML", urls: searchMix(words, 101) },
    { name: "catalog view, .data", urls: searchMix(words, 102), map: asDataUrl },
    { name: "item page, HTML", urls: items },
    { name: "item page, .data", urls: items, map: asDataUrl },
    { name: "like= view, HTML", urls: likes },
    { name: "like= view, .data", urls: likes, map: asDataUrl },
  ];
  const ask = async (url: string, base = site.base) => {
    const res = await fetch(base + url, { headers: { "accept-encoding": "br, gzip" } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return res.headers.get("x-page-cache");
  };
  if (flags.only) kinds.splice(0, kinds.length, ...kinds.filter((kind) => kind.name.includes(flags.only!)));
  // JIT and caches of the index warm on URLs of the same kinds (never asked again)
  for (const kind of kinds) {
    for (let i = 0; i < 60; i++) {
      const url = (kind.map ?? ((u) => u))(kind.urls.next());
      await ask(url);
      if (other) await ask(url, other.base);
    }
  }
  await new Promise((r) => setTimeout(r, 500));

  table.push(
    `\n${ALBUMS.toLocaleString("en-US")} albums, 1 process, ${REQUESTS} URLs never asked before per kind, one at a time, ${os.cpus().length} CPU(s)\n`,
    other
      ? `| kind | CPU p50 ms (all threads) | p90 | CPU p50 ms (main thread) | wall p50 ms | answers | ${flags.compare}: all threads p50 | main thread p50 | this ÷ that, main thread |`
      : "| kind | CPU p50 ms (all threads) | p90 | CPU p50 ms (main thread) | wall p50 ms | answers |",
    other ? "|---|---:|---:|---:|---:|---|---:|---:|---:|" : "|---|---:|---:|---:|---:|---|",
  );
  /** Asks `url` of one site and records the CPU time and wall time it took. */
  const measure = async (target: { pid: number; base: string }, url: string, into: { all: number[]; main: number[]; wall: number[] }) => {
    const before = cpuNs(target.pid);
    const t0 = performance.now();
    const cache = await ask(url, target.base);
    into.wall.push(performance.now() - t0);
    // the response's compression may still be finishing on the thread pool after the last byte
    await new Promise((r) => setImmediate(r));
    const after = cpuNs(target.pid);
    into.all.push((after.all - before.all) / 1e6);
    into.main.push((after.main - before.main) / 1e6);
    return cache;
  };
  const here = { pid, base: site.base };
  for (const kind of kinds) {
    const ours = { all: [] as number[], main: [] as number[], wall: [] as number[] };
    const theirs = { all: [] as number[], main: [] as number[], wall: [] as number[] };
    const answers = new Map<string, number>();
    const start = nowUs();
    for (let i = 0; i < REQUESTS; i++) {
      const url = (kind.map ?? ((u) => u))(kind.urls.next());
      // the other site first on every second URL: neither always follows the other
      if (other && i % 2) await measure(other, url, theirs);
      const cache = await measure(here, url, ours);
      answers.set(cache ?? "-", (answers.get(cache ?? "-") ?? 0) + 1);
      if (other && !(i % 2)) await measure(other, url, theirs);
    }
    windows.push([start, nowUs()]);
    const { all, main, wall } = ours;
    table.push(
      `| ${kind.name} | ${quantile(all, 0.5).toFixed(2)} | ${quantile(all, 0.9).toFixed(2)} | ${quantile(main, 0.5).toFixed(2)} | ${quantile(wall, 0.5).toFixed(2)} | ${[...answers].map(([k, v]) => `${k} ${v}`).join(", ")} |` +
        (other ? ` ${quantile(theirs.all, 0.5).toFixed(2)} | ${quantile(theirs.main, 0.5).toFixed(2)} | ${(quantile(main, 0.5) / quantile(theirs.main, 0.5)).toFixed(3)} |` : ""),
    );
  }
} finally {
  await other?.stop();
  await stop();
}
console.log(table.join("\n"));

// The server process's profile (the build, if it ran, wrote its own file under another pid).
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
// CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: the main thread is thread 0
const file = fs.readdirSync(profileDir).find((f) => f.includes(`.${pid}.0.`));
if (!file) throw new Error(`no profile from pid ${pid} in ${profileDir}: ${fs.readdirSync(profileDir).join(", ")}`);
const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8")) as CpuProfile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const inWindows = (() => {
  let t = profile.startTime;
  return profile.timeDeltas.map((delta) => {
    t += delta;
    return windows.some(([a, b]) => t >= a && t <= b);
  });
})();
if (flags.out) {
  // the measured requests only (start-up, the build and the warm-up count as idle), for a flame
  // graph of what the table measured (Chrome DevTools, speedscope)
  const idle = profile.nodes.find((n) => n.callFrame.functionName === "(idle)")?.id;
  const cut = idle === undefined ? profile : { ...profile, samples: profile.samples.map((id, i) => (inWindows[i] ? id : idle)) };
  fs.writeFileSync(flags.out, JSON.stringify(cut));
}
const self = new Map<string, number>();
const groups = new Map<string, number>();
let busy = 0;
for (let i = 0; i < profile.samples.length; i++) {
  if (!inWindows[i]) continue;
  const frame = nodes.get(profile.samples[i]!)!.callFrame;
  if (frame.functionName === "(idle)") continue;
  const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules|build|node:)/, "$1").replace(/^file:\/\//, "")}:${frame.lineNumber + 1}` : "";
  const name = `${frame.functionName || "(anonymous)"}${where ? ` ${where}` : ""}`;
  self.set(name, (self.get(name) ?? 0) + 1);
  const group = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(frame.url)?.[1] ?? (/\/build\/server\//.test(frame.url) ? "the app (build/server)" : frame.url.startsWith("node:") ? "Node.js (node:*)" : frame.url ? frame.url : frame.functionName.startsWith("(") ? frame.functionName : "native (syscalls, zlib, …)");
  groups.set(group, (groups.get(group) ?? 0) + 1);
  busy++;
}
const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(flags.top));
console.log(`\nTop ${top.length} self-time items of the main thread in the measured requests (${busy} samples, idle left out)\n`);
console.log("| # | function (file:line) | self % |\n|---:|---|---:|");
top.forEach(([name, n], i) => console.log(`| ${i + 1} | \`${name}\` | ${((100 * n) / busy).toFixed(1)} |`));
fs.rmSync(profileDir, { recursive: true, force: true });
console.log(`\nSelf time by where the code lives\n\n| where | self % |\n|---|---:|`);
for (const [group, n] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`| ${group} | ${((100 * n) / busy).toFixed(1)} |`);

/** The other checkout's site (--compare), on the same catalog, under the profiler as this one. */
async function startOther(dir: string): Promise<{ base: string; pid: number; stop(): Promise<void> }> {
  // scripts/lib/ before ADR 0153's folders (2026-11-29), benchmarks/lib/ since
  const helper = ["benchmarks/lib/analysed-site.ts", "scripts/lib/analysed-site.ts"].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!helper) throw new Error(`--compare ${dir}: no benchmarks/lib/analysed-site.ts (or scripts/lib/ before 2026-11-29) there (a checkout from 2026-11-25 on, built)`);
  const otherProfiles = fs.mkdtempSync(path.join(os.tmpdir(), "render-prof-other-"));
  const { startAnalysedSite: startThere } = (await import(helper)) as { startAnalysedSite: typeof startAnalysedSite };
  const started = await startThere(ALBUMS, siteEnv(otherProfiles));
  return {
    base: started.site.base,
    pid: started.site.child.pid!,
    async stop() {
      await started.stop();
      fs.rmSync(otherProfiles, { recursive: true, force: true });
    },
  };
}

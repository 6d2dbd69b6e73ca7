// `npm run bench:resilience`: replays each attack of issue #7 against the built site and
// prints one table: the status codes (or connection resets), the server's resident memory
// before and after, files written, and the server's CPU seconds; then the fuzz totals.
//
//   npm run bench:resilience [-- --ref <git-ref>] [--body-mb 400] [--fuzz 10000] [--seed 7] [--only attacks,sigterm,full-disk,kill]
//
// Issue #15 adds two rows: "posts on a full disk" (DATA_DIR on a tmpfs filled to the last byte;
// needs root, skipped with the reason otherwise) and "kill -9 during a post".
//
// `--ref` runs the same attacks against an older commit (checked out into a temporary git
// worktree that borrows this node_modules), so a change can be shown before and after.
// It measures; it asserts nothing (the tests do).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeSampleSources } from "../app/.server/catalog/sample/ensure.ts";
import { startSmtpServer } from "./lib/mail-peers.ts";
import { runFuzz } from "./lib/fuzz-requests.ts";
import { freePort, waitForHealthy } from "./lib/site-process.ts";
import { cpuSeconds, rssBytes } from "./lib/proc.ts";
import { helpFromHeader } from "../commands/lib/usage.ts";

helpFromHeader(import.meta.filename);

const { values: flags } = parseArgs({
  options: {
    ref: { type: "string" },
    "body-mb": { type: "string", default: "400" },
    fuzz: { type: "string", default: "10000" },
    seed: { type: "string", default: "7" },
    albums: { type: "string", default: "50000" },
    only: { type: "string", default: "attacks,sigterm,full-disk,kill" },
  },
});
const BODY_MB = Number(flags["body-mb"]);
const FUZZ = Number(flags.fuzz);
const SEED = Number(flags.seed);
const here = path.resolve(import.meta.dirname, "..");
const only = new Set(flags.only!.split(","));

// ---- the tree under test --------------------------------------------------------------------
let root = here;
let worktree: string | undefined;
if (flags.ref) {
  const sha = spawnSync("git", ["rev-parse", "--short", flags.ref], { cwd: here, encoding: "utf8" }).stdout.trim();
  if (!sha) throw new Error(`unknown git ref ${flags.ref}`);
  worktree = path.join(os.tmpdir(), `resilience-${sha}`);
  if (!fs.existsSync(worktree)) {
    spawnSync("git", ["worktree", "add", "--detach", worktree, sha], { cwd: here, stdio: "inherit" });
    // Its own dependencies, as its lockfile pins them (it may use packages since removed).
    const install = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: worktree, stdio: ["ignore", "ignore", "inherit"] });
    if (install.status !== 0) throw new Error(`npm ci failed in ${worktree}`);
  }
  root = worktree;
}
const label = flags.ref ? `ref ${flags.ref}` : "working tree";

// ---- process measurements -------------------------------------------------------------------
const rssMb = (pid: number): number => (rssBytes(pid) ?? NaN) / (1024 * 1024);
const cpuSecondsOf = (pid: number): number => cpuSeconds(pid) ?? NaN;
function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) n++;
  return n;
}

interface Site {
  base: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** the Node process serving (server.ts imports the build into the same process) */
  pid: number;
  stop(keepData?: boolean): Promise<void>;
}

async function startServer(env: Record<string, string>, reuse?: { dataDir: string; port: number }): Promise<Site> {
  const port = reuse?.port ?? (await freePort());
  const dataDir = reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "resilience-"));
  const child = spawn(path.join(root, "node_modules/.bin/node"), ["server.ts"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "error", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHealthy(base, child, 300_000);
  return {
    base,
    port,
    dataDir,
    child,
    pid: child.pid!,
    async stop(keepData = false) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
      }
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---- raw HTTP helpers (resets and odd headers need more control than fetch gives) ------------
type Outcome = number | "reset" | "timeout";

/** Sends raw bytes and reads the status line of the answer. */
function rawRequest(port: number, head: string, timeoutMs = 10_000): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let data = "";
    const done = (o: Outcome) => {
      socket.destroy();
      resolve(o);
    };
    socket.setTimeout(timeoutMs, () => done("timeout"));
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(data);
      if (m) done(Number(m[1]));
    });
    socket.on("error", () => done("reset"));
    socket.on("close", () => done(/^HTTP\/1\.[01] (\d{3})/.test(data) ? Number(data.slice(9, 12)) : "reset"));
    socket.write(head);
  });
}

/** POSTs `totalBytes` of form data, chunked or with a Content-Length, and reports the answer. */
function bigPost(port: number, pathName: string, totalBytes: number, chunked: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (o: Outcome) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve(o);
    };
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
    if (!chunked) headers["Content-Length"] = String(totalBytes);
    const req = http.request({ host: "127.0.0.1", port, path: pathName, method: "POST", headers, agent: false });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => finish(res.statusCode ?? 0));
      res.on("error", () => finish(res.statusCode ?? "reset"));
    });
    req.on("error", () => finish("reset"));
    const chunk = Buffer.alloc(64 * 1024, "a");
    chunk.write("message=");
    let sent = 0;
    const pump = () => {
      while (!settled && sent < totalBytes) {
        const n = Math.min(chunk.length, totalBytes - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once("drain", pump);
      }
      if (!settled) req.end();
    };
    pump();
  });
}

function tally(outcomes: Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(String(o), (counts.get(String(o)) ?? 0) + 1);
  return [...counts].sort().map(([k, v]) => (outcomes.length === 1 ? k : `${v}×${k}`)).join(", ");
}

async function contactKey(base: string): Promise<string> {
  const html = await (await fetch(`${base}/contact`)).text();
  return /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1] ?? crypto.randomUUID();
}
function contactForm(key: string, message: string) {
  return new URLSearchParams({ intent: "contact", idempotencyKey: key, website: "", name: "Ada Lovelace", email: "ada@example.org", subject: "Distribution", message });
}
async function post(base: string, body: URLSearchParams, headers: Record<string, string> = {}): Promise<Outcome> {
  try {
    const res = await fetch(`${base}/contact`, { method: "POST", body, headers: { Origin: base, ...headers } });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return "reset";
  }
}
async function get(url: string, headers: Record<string, string> = {}): Promise<Outcome> {
  try {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return "reset";
  }
}
async function waitFor(check: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !check()) await new Promise((r) => setTimeout(r, 200));
}

// ---- a fake album upstream over HTTP ----------------------------------------------------------
const sampleDir = fs.mkdtempSync(path.join(os.tmpdir(), "resilience-sample-"));
await writeSampleSources(sampleDir, { albums: Number(flags.albums), seed: 20240105, force: true });
const goodAlbums = fs.readFileSync(path.join(sampleDir, "merged.json"));
let upstreamBody: Buffer | string = goodAlbums;
const upstream = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end(upstreamBody);
});
await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as net.AddressInfo).port}/merged.json`;

async function albumTotal(base: string): Promise<number> {
  const html = await (await fetch(`${base}/catalog?type=music`)).text();
  const m = /Showing <span[^>]*>([\d,]+)<\/span>/.exec(html);
  return m ? Number(m[1].replace(/,/g, "")) : 0;
}

// ---- the attacks -------------------------------------------------------------------------------
interface Row {
  attack: string;
  statuses: string;
  rssBefore: number;
  rssAfter: number;
  files: number | string;
  cpu: number;
  note: string;
}
const rows: Row[] = [];

async function measured(site: Site, attack: string, filesDir: string | null, run: () => Promise<{ statuses: string; note?: string; files?: number | string }>) {
  const rssBefore = rssMb(site.pid);
  const cpuBefore = cpuSecondsOf(site.pid);
  const filesBefore = filesDir ? countFiles(filesDir) : 0;
  console.error(`[${label}] ${attack}…`);
  const r = await run();
  await new Promise((res) => setTimeout(res, 300));
  const alive = site.child.exitCode === null && site.child.signalCode === null;
  rows.push({
    attack,
    statuses: r.statuses,
    rssBefore,
    rssAfter: alive ? rssMb(site.pid) : NaN,
    files: r.files ?? (filesDir ? countFiles(filesDir) - filesBefore : "-"),
    cpu: alive ? cpuSecondsOf(site.pid) - cpuBefore : NaN,
    note: alive ? (r.note ?? "") : `server died (${site.child.signalCode ?? site.child.exitCode}) ${r.note ?? ""}`,
  });
}

if (only.has("attacks")) {
const site = await startServer({
  ALBUMS_URL: upstreamUrl,
  CATALOG_REFRESH_SECONDS: "2",
  LEADS_RATE_LIMIT: "10",
  LEADS_RATE_WINDOW_SECONDS: "600",
});
try {
  const started = Date.now();
  let total = 0;
  while (Date.now() - started < 120_000 && (total = await albumTotal(site.base)) === 0) await new Promise((r) => setTimeout(r, 500));
  console.error(`[${label}] catalog ready: ${total} albums`);

  await measured(site, `chunked ${BODY_MB} MB POST /contact`, null, async () => ({
    statuses: tally([await bigPost(site.port, "/contact", BODY_MB * 1024 * 1024, true)]),
  }));
  await measured(site, "declared 8 MB POST /contact", null, async () => ({
    statuses: tally([await bigPost(site.port, "/contact", 8 * 1024 * 1024, false)]),
  }));
  await measured(site, "query string of 100 KB", null, async () => ({
    statuses: tally([await rawRequest(site.port, `GET /catalog?q=${"e".repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)]),
  }));
  await measured(site, "Host: %zz", null, async () => ({
    statuses: tally([await rawRequest(site.port, "GET /catalog HTTP/1.1\r\nHost: %zz\r\n\r\n")]),
  }));
  await measured(site, "X-Forwarded-Proto: \\ (trusted proxy)", null, async () => ({
    statuses: tally([await rawRequest(site.port, "GET /catalog?type=film HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: \\\r\n\r\n")]),
  }));

  const imgDir = path.join(site.dataDir, "cache", "img");
  await measured(site, "/img cache busting ×200", imgDir, async () => {
    const outcomes: Outcome[] = [];
    const cover = fs.readdirSync(path.join(site.dataDir, "media")).find((f) => /cover.*\.(webp|jpg|png)$/.test(f)) ?? "cover-1.webp";
    for (let i = 0; i < 200; i++) {
      outcomes.push(await get(`${site.base}/img?w=320&src=${encodeURIComponent(`/media/${cover}?v=${i}`)}`, { Accept: "image/avif" }));
    }
    return { statuses: tally(outcomes) };
  });

  await measured(site, "catalog search q=e, q=e e, … ×200", null, async () => {
    const outcomes: Outcome[] = [];
    for (let i = 1; i <= 200; i++) outcomes.push(await get(`${site.base}/catalog?type=music&q=${Array(i).fill("e").join("+")}`));
    return { statuses: tally(outcomes) };
  });

  const mailDir = path.join(site.dataDir, "mail");
  await measured(site, "one form key, two different messages", mailDir, async () => {
    const key = await contactKey(site.base);
    const outcomes = [await post(site.base, contactForm(key, "First message: please call me about our EP.")), await post(site.base, contactForm(key, "Second, different message: we also have a film."))];
    const before = countFiles(mailDir);
    await waitFor(() => countFiles(mailDir) >= before + 2, 8000);
    const mails = fs.existsSync(mailDir) ? fs.readdirSync(mailDir).map((f) => fs.readFileSync(path.join(mailDir, f), "utf8")) : [];
    const delivered = ["First message", "Second, different message"].filter((t) => mails.some((m) => m.includes(t))).length;
    return { statuses: tally(outcomes), note: `${delivered} of 2 messages delivered` };
  });

  await measured(site, "IPv6 clients of one /64, 30 posts", null, async () => {
    const outcomes: Outcome[] = [];
    for (let i = 1; i <= 30; i++) {
      const ip = `2001:db8:0:0:${i.toString(16)}::1`;
      outcomes.push(await post(site.base, contactForm(crypto.randomUUID(), `Message ${i} from one network.`), { "X-Forwarded-For": ip }));
    }
    return { statuses: tally(outcomes), note: "limit 10 per client" };
  });

  const snapshot = path.join(site.dataDir, "catalog", "snapshots", "albums.json");
  const hash = () => (fs.existsSync(snapshot) ? crypto.createHash("sha1").update(fs.readFileSync(snapshot)).digest("hex") : "");
  for (const [name, body] of [
    ["[]", "[]"],
    ["{}", "{}"],
    ["invalid JSON", "[{\"id\": 1,"],
    ["a tenth of the list", JSON.stringify((JSON.parse(goodAlbums.toString()) as unknown[]).slice(0, Math.ceil(total / 10)))],
  ] as const) {
    await measured(site, `upstream answers ${name}`, null, async () => {
      const before = hash();
      upstreamBody = body;
      await new Promise((r) => setTimeout(r, 5000));
      const shown = await albumTotal(site.base);
      const same = hash() === before;
      upstreamBody = goodAlbums;
      // let the good list come back before the next answer
      const back = Date.now();
      while (Date.now() - back < 10_000 && (await albumTotal(site.base)) !== total) await new Promise((r) => setTimeout(r, 500));
      return { statuses: "-", note: `catalog shows ${shown} of ${total}; snapshot ${same ? "unchanged" : "replaced"}` };
    });
  }

  // The fuzz test's generator (tests/support/fuzz-requests.ts), from this checkout even with --ref.
  if (FUZZ > 0) {
    await measured(site, `fuzz: ${FUZZ} generated requests (seed ${SEED})`, null, async () => {
      const result = await runFuzz({ port: site.port, count: FUZZ, seed: SEED, concurrency: 16 });
      const statuses = Object.entries(result.byStatus)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${v}×${k}`)
        .join(", ");
      return { statuses, note: `${result.serverErrors.length} × 5xx, ${result.resets.length} resets` };
    });
  }
} finally {
  await site.stop();
}
}

// SIGTERM while the SMTP peer holds a message for 15 s (longer than SHUTDOWN_TIMEOUT_SECONDS),
// then a restart on the same data: the lead must arrive exactly once.
if (only.has("sigterm")) {
  const smtp = await startSmtpServer();
  smtp.acceptDelayMs = 15_000;
  let data = false;
  smtp.onData = () => (data = true);
  // A 40 s lease, so the restarted server takes the cut-off delivery over within the run.
  const env = { MAIL_TRANSPORT: "smtp", SMTP_URL: smtp.url, SHUTDOWN_TIMEOUT_SECONDS: "10", OUTBOX_LEASE_SECONDS: "40", MAIL_TIMEOUT_SECONDS: "19" };
  const s = await startServer(env);
  let again: Site | undefined;
  try {
    const rssBefore = rssMb(s.pid);
    const cpuBefore = cpuSecondsOf(s.pid);
    console.error(`[${label}] SIGTERM during a delivery…`);
    const status = await post(s.base, contactForm(crypto.randomUUID(), "Sent just before a deploy."));
    await waitFor(() => data, 10_000);
    const rssAfter = rssMb(s.pid);
    const cpu = cpuSecondsOf(s.pid) - cpuBefore;
    const t0 = Date.now();
    const exited = new Promise<number | string>((resolve) => s.child.once("exit", (code, signal) => resolve(code ?? String(signal))));
    s.child.kill("SIGTERM");
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r("still running after 30 s"), 30_000))]);
    const seconds = (Date.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, 16_000 - (Date.now() - t0))));
    const beforeRestart = smtp.received.length;
    smtp.acceptDelayMs = 0;
    await s.stop(true);
    again = await startServer(env, { dataDir: s.dataDir, port: s.port });
    await waitFor(() => smtp.received.length > beforeRestart, 60_000);
    await new Promise((r) => setTimeout(r, 3000));
    rows.push({
      attack: "SIGTERM during a delivery (peer holds it 15 s), then restart",
      statuses: tally([status]),
      rssBefore,
      rssAfter,
      files: "-",
      cpu,
      note: `exit ${code} after ${seconds.toFixed(1)} s; mails received ${beforeRestart} before the restart, ${smtp.received.length} in all`,
    });
  } finally {
    await again?.stop();
    await s.stop();
    await smtp.stop();
  }
}

// ---- issue #15: a full data disk, and a killed process ---------------------------------------
const REFERENCE = /NB-\d{6}/;
async function postForReference(base: string, message: string, subject: string): Promise<{ status: Outcome; reference?: string }> {
  try {
    const body = new URLSearchParams({ intent: "contact", idempotencyKey: crypto.randomUUID(), website: "", name: "Ada Lovelace", email: "ada@example.org", subject, message });
    const res = await fetch(`${base}/contact`, { method: "POST", body, headers: { Origin: base } });
    const html = await res.text();
    return { status: res.status, reference: res.status === 200 ? REFERENCE.exec(html)?.[0] : undefined };
  } catch {
    return { status: "reset" };
  }
}
/** Subjects of the .eml files the file transport delivered. */
function deliveredSubjects(dataDir: string): string[] {
  const dir = path.join(dataDir, "mail");
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((f) => /^Subject: (.*)$/m.exec(fs.readFileSync(path.join(dir, f), "utf8"))?.[1] ?? "");
}
function storedLeads(dataDir: string): number {
  const file = path.join(dataDir, "leads.sqlite");
  if (!fs.existsSync(file)) return 0;
  const out = spawnSync(process.execPath, ["-e", `const {DatabaseSync}=require("node:sqlite");const d=new DatabaseSync(${JSON.stringify(file)},{readOnly:true});console.log(d.prepare("SELECT COUNT(*) AS n FROM outbox WHERE kind='contact'").get().n)`], { encoding: "utf8" });
  return Number(out.stdout.trim() || 0);
}

if (only.has("full-disk")) {
  const { mountSmallDisk } = await import("./lib/small-disk.ts");
  const disk = mountSmallDisk(64 * 1024 * 1024);
  if ("skip" in disk) {
    rows.push({ attack: "posts on a full disk", statuses: "-", rssBefore: NaN, rssAfter: NaN, files: "-", cpu: NaN, note: `not measured: ${disk.skip}` });
  } else {
    const dataDir = path.join(disk.dir, "data");
    const s = await startServer({ ANALYSIS_WORKER: "false" }, { dataDir, port: await freePort() });
    try {
      const t0 = Date.now();
      while (Date.now() - t0 < 60_000 && (await albumTotal(s.base)) === 0) await new Promise((r) => setTimeout(r, 500));
      const rssBefore = rssMb(s.pid);
      const cpuBefore = cpuSecondsOf(s.pid);
      console.error(`[${label}] posts on a full disk…`);
      disk.fill();
      const during: Array<{ status: Outcome; reference?: string }> = [];
      for (let i = 1; i <= 5; i++) during.push(await postForReference(s.base, `Message ${i}, posted while the disk is full.`, `Full disk ${i}`));
      disk.free();
      await new Promise((r) => setTimeout(r, 3_000));
      const storedDuring = storedLeads(dataDir);
      const after = await postForReference(s.base, "Posted once the space is back.", "After the disk");
      await waitFor(() => deliveredSubjects(dataDir).includes("Contact: After the disk"), 20_000);
      await new Promise((r) => setTimeout(r, 2_000));
      const delivered = deliveredSubjects(dataDir);
      const deliveredDuring = delivered.filter((x) => x.startsWith("Contact: Full disk")).length;
      const given = during.map((d) => d.reference).filter(Boolean) as string[];
      const reused = after.reference && given.includes(after.reference) ? 1 : 0;
      rows.push({
        attack: "posts on a full disk (5 posts, then 1 after the space returns)",
        statuses: `${tally(during.map((d) => d.status))}; after: ${tally([after.status])}`,
        rssBefore,
        rssAfter: rssMb(s.pid),
        files: "-",
        cpu: cpuSecondsOf(s.pid) - cpuBefore,
        note: `acknowledged ${given.length} of 5; stored ${storedDuring}; delivered after space returns ${deliveredDuring}; references reused ${reused} (after: ${after.reference ?? "none"}, given: ${given.join(" ") || "none"})`,
      });
    } finally {
      await s.stop(true);
      disk.unmount();
    }
  }
}

if (only.has("kill")) {
  // a short lease: the message the killed worker was delivering is taken over within the run
  const killEnv = { ANALYSIS_WORKER: "false", LEADS_RATE_LIMIT: "1000", OUTBOX_LEASE_SECONDS: "20", MAIL_TIMEOUT_SECONDS: "9" };
  const s = await startServer(killEnv);
  let again: Site | undefined;
  try {
    const t0 = Date.now();
    while (Date.now() - t0 < 60_000 && (await albumTotal(s.base)) === 0) await new Promise((r) => setTimeout(r, 500));
    console.error(`[${label}] kill -9 during posts…`);
    const rssBefore = rssMb(s.pid);
    const cpuBefore = cpuSecondsOf(s.pid);
    const answers: Array<{ status: Outcome; reference?: string; subject: string }> = [];
    let killed = false;
    const posts = Array.from({ length: 60 }, async (_, i) => {
      const subject = `Killed ${i}`;
      await new Promise((r) => setTimeout(r, i * 15));
      const a = await postForReference(s.base, `Message ${i} of a burst cut by kill -9.`, subject);
      answers.push({ ...a, subject });
      if (!killed && answers.filter((x) => x.status === 200).length >= 20) {
        killed = true;
        s.child.kill("SIGKILL");
      }
    });
    await Promise.all(posts);
    // the process is gone: its memory and CPU after are not measurable
    const rssAfter = NaN;
    const cpu = NaN;
    void cpuBefore;
    await s.stop(true);
    again = await startServer(killEnv, { dataDir: s.dataDir, port: s.port });
    const accepted = answers.filter((a) => a.status === 200);
    await waitFor(() => accepted.every((a) => deliveredSubjects(s.dataDir).includes(`Contact: ${a.subject}`)), 90_000);
    await new Promise((r) => setTimeout(r, 2_000));
    const delivered = deliveredSubjects(s.dataDir);
    const deliveredAccepted = accepted.filter((a) => delivered.includes(`Contact: ${a.subject}`)).length;
    const duplicates = delivered.length - new Set(delivered).size;
    rows.push({
      attack: "kill -9 during a burst of 60 posts, then restart",
      statuses: tally(answers.map((a) => a.status)),
      rssBefore,
      rssAfter,
      files: "-",
      cpu,
      note: `accepted ${accepted.length}, delivered ${deliveredAccepted} of them; ${duplicates} duplicate e-mails`,
    });
  } finally {
    await again?.stop();
    await s.stop();
  }
}

upstream.close();
fs.rmSync(sampleDir, { recursive: true, force: true });
if (worktree) spawnSync("git", ["worktree", "remove", "--force", worktree], { cwd: here });

const mb = (n: number) => (Number.isNaN(n) ? "-" : n.toFixed(0));
console.log(`\nResilience, ${label}, ${os.cpus().length} CPU(s), ${flags.albums} albums from an HTTP upstream\n`);
console.log("| attack | answers | RSS before MB | RSS after MB | files written | server CPU s | result |");
console.log("|---|---|---:|---:|---:|---:|---|");
for (const r of rows) {
  console.log(`| ${r.attack} | ${r.statuses} | ${mb(r.rssBefore)} | ${mb(r.rssAfter)} | ${r.files} | ${Number.isNaN(r.cpu) ? "-" : r.cpu.toFixed(2)} | ${r.note} |`);
}
process.exit(0);

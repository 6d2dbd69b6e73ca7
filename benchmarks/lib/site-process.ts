import { spawn, type ChildProcess } from "node:child_process";
import { allocatorDefaults } from "../../server/allocator.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";

/** A TCP port that is free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls GET /healthz until it answers 200, the process exits, or the time runs out. */
export async function waitForHealthy(baseURL: string, child: ChildProcess | undefined, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null = null;
  child?.once("exit", (code) => (exited = code ?? -1));
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`server exited with code ${exited} before it was healthy`);
    try {
      const res = await fetch(`${baseURL}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server at ${baseURL} was not healthy within ${timeoutMs} ms`);
}

export interface SiteOptions {
  /**
   * Extra environment; PORT, HOST and DATA_DIR are set here, NODE_ENV is left unset as for
   * `npm start`, and ANALYSIS_WORKER is "false" unless given.
   */
  env?: Record<string, string>;
  /** Defaults to a fresh temporary directory (removed by stop()). */
  dataDir?: string;
  port?: number;
  /** "quiet": stdout dropped, stderr shown; otherwise a file that gets stdout and stderr. */
  output?: "quiet" | { file: string };
  timeoutMs?: number;
  /** Node's own options before `server.ts` (a benchmark's `--cpu-prof`, a probe's `--require`). */
  nodeArgs?: string[];
}

export interface RunningSite {
  base: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** SIGTERM (SIGKILL after 15 s); removes the data directory when this helper made it. */
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Starts the site exactly as `npm start` does (`node server.ts`: builds first when the build
 * is stale) on 127.0.0.1, and waits until /healthz answers. Used by the e2e setup, the
 * end-to-end fault tests and the benchmarks.
 */
export async function startSite(opts: SiteOptions = {}): Promise<RunningSite> {
  const port = opts.port ?? (await freePort());
  const ownDataDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "site-"));
  const output = opts.output ?? "quiet";
  const fd = output === "quiet" ? undefined : fs.openSync(output.file, "a");
  const child = spawn(path.join(root, "node_modules/.bin/node"), [...(opts.nodeArgs ?? []), "server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      // As `npm start` runs: glibc's allocator settings (server/allocator.ts), unless set
      ...allocatorDefaults(process.env),
      // As `npm start` runs: server.ts chooses the production mode itself (vitest sets
      // NODE_ENV=test, which would load React's development build).
      NODE_ENV: undefined,
      // Audio analysis (issue #9) is CPU work in the background: off unless a caller needs it
      // (the shared e2e server does), so fault tests and benchmarks measure what they mean to.
      ANALYSIS_WORKER: "false",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ...opts.env,
    },
    stdio: fd === undefined ? ["ignore", "ignore", "inherit"] : ["ignore", fd, fd],
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHealthy(base, child, opts.timeoutMs ?? 300_000);
  } catch (error) {
    child.kill("SIGKILL");
    const log = output === "quiet" ? "" : `\n--- server log ---\n${fs.readFileSync(output.file, "utf8").slice(-4000)}`;
    throw new Error(`${(error as Error).message}${log}`, { cause: error });
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      // A graceful shutdown takes up to SHUTDOWN_TIMEOUT_SECONDS (default 10).
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
    if (ownDataDir && !process.env.KEEP_E2E_DATA) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, port, dataDir, child, stop };
}

/**
 * The built site delivering its leads over SMTP to a test peer, on a data folder a test keeps
 * across restarts (the crash and shutdown tests): its log in that folder, generous form rate
 * limits, no receipts to the visitors (those tests count the leads the SMTP peer received),
 * and `env` on top.
 */
export function startMailingSite(opts: { port: number; dataDir: string; smtpUrl: string; env?: Record<string, string> }) {
  return startSite({
    port: opts.port,
    dataDir: opts.dataDir,
    output: { file: path.join(opts.dataDir, "server.log") },
    env: { SKIP_BUILD: "1", MAIL_TRANSPORT: "smtp", SMTP_URL: opts.smtpUrl, LEADS_RATE_LIMIT: "1000", LEAD_RECEIPTS: "false", ...opts.env },
    timeoutMs: 120_000,
  });
}

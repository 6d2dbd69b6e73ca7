import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./site-process.ts";

// A throw-away PostgreSQL server for tests: `initdb` into a temp dir, `postgres` on a free
// loopback port, removed afterwards. PostgreSQL refuses to run as root, so under root the
// binaries run as the `postgres` system user (created by the Debian package) via runuser.
//
// When the binaries are missing this throws: the PostgreSQL suites fail loudly instead of
// skipping. `.ci/run` installs the `postgresql` package when it is missing.

export interface TestPostgres {
  url: string;
  port: number;
  /** A new empty database on this server; returns its URL. */
  createDatabase(name: string): Promise<string>;
  /**
   * Stops the server (a fast shutdown: open connections are cut) and keeps its data; `resume`
   * brings it back on the same port (issue #42: a restart during traffic).
   */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

function findBinDir(): string {
  const fromEnv = process.env.PG_BIN_DIR;
  const candidates = fromEnv ? [fromEnv] : [];
  const root = "/usr/lib/postgresql";
  if (fs.existsSync(root)) {
    const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) candidates.push(path.join(root, v, "bin"));
  }
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "postgres")));
  if (!found) {
    throw new Error(
      "PostgreSQL server binaries (initdb, postgres) not found under /usr/lib/postgresql/*/bin or $PG_BIN_DIR. " +
        "Install them (apt-get install -y postgresql; .ci/run does this) — the PostgreSQL tests do not skip.",
    );
  }
  return found;
}

const isRoot = process.getuid?.() === 0;
/** The command line that runs a PostgreSQL binary as a non-root user. */
function asPostgresUser(bin: string, args: string[]): [string, string[]] {
  return isRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
}

/**
 * Waits until `port` on 127.0.0.1 accepts a connection and `ready(log)` holds (PostgreSQL's
 * "ready to accept connections"); throws with the log when `child` exits first or time runs out.
 * The PgBouncer of tests/support/pgbouncer.ts waits the same way.
 */
export async function waitForConnection(port: number, child: ChildProcess, log: () => string, opts: { name: string; timeoutMs: number; ready?: (log: string) => boolean }) {
  const deadline = Date.now() + opts.timeoutMs;
  let exited = false;
  child.once("exit", () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${opts.name} exited during start-up:\n${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (ok && (opts.ready?.(log()) ?? true)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${opts.name} did not accept connections within ${opts.timeoutMs} ms:\n${log()}`);
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = findBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pg-test-"));
  const dataDir = path.join(dir, "data");
  const socketDir = path.join(dir, "sock");
  fs.mkdirSync(socketDir);
  if (isRoot) spawnSync("chown", ["-R", "postgres:", dir]);
  fs.chmodSync(dir, 0o755);

  const [initCmd, initArgs] = asPostgresUser(path.join(bin, "initdb"), [
    "-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C",
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: "utf8" });
  if (init.status !== 0) throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);

  const port = await freePort();
  const [cmd, args] = asPostgresUser(path.join(bin, "postgres"), [
    "-D", dataDir, "-k", socketDir, "-p", String(port), "-h", "127.0.0.1",
    // Throw-away data: durability off for speed, enough connections for concurrent workers.
    "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=200",
  ]);
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    await waitForConnection(port, child, () => output, { name: "postgres", timeoutMs: 30_000, ready: (log) => /ready to accept connections/.test(log) });
  };
  const halt = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    // Signal the postmaster itself (runuser does not forward signals): SIGINT = fast shutdown.
    const postmasterPid = Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    try {
      process.kill(postmasterPid, "SIGINT");
    } catch {
      child.kill("SIGKILL");
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  try {
    await launch();
  } catch (error) {
    child!.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    async createDatabase(name: string) {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
      await client.end();
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    pause: halt,
    resume: launch,
    async stop() {
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitForConnection } from "../../benchmarks/lib/postgres-server.ts";
import { freePort } from "../../benchmarks/lib/site-process.ts";

// A throw-away PgBouncer (Debian's `pgbouncer` package) in front of a test PostgreSQL, on a free
// loopback port, in transaction mode as docs/deployment.md runs it for many machines (issue #42).
// PgBouncer refuses to run as root, so under root it runs as the `postgres` system user (created
// by the postgresql package) via runuser. Missing binaries throw: the suite fails loudly, and
// `.ci/run` installs the package.

export interface TestPgBouncer {
  /** The URL of `database` through the bouncer. */
  url(database: string): string;
  port: number;
  stop(): Promise<void>;
}

const BIN = "/usr/sbin/pgbouncer";
const isRoot = process.getuid?.() === 0;

/**
 * `poolSize` server connections per database and user at most (PgBouncer's default_pool_size):
 * however many clients the origins open, PostgreSQL sees no more than that.
 */
export async function startTestPgBouncer(opts: { upstreamPort: number; poolSize: number }): Promise<TestPgBouncer> {
  if (!fs.existsSync(BIN)) throw new Error(`${BIN} not found: apt-get install -y pgbouncer (.ci/run does this)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pgbouncer-test-"));
  const port = await freePort();
  fs.writeFileSync(path.join(dir, "userlist.txt"), '"postgres" ""\n');
  fs.writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=127.0.0.1 port=${opts.upstreamPort} user=postgres`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      "auth_type = trust",
      `auth_file = ${path.join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      "max_client_conn = 1000",
      `default_pool_size = ${opts.poolSize}`,
      "reserve_pool_size = 0",
      // node-postgres sends none of these, other clients may
      "ignore_startup_parameters = extra_float_digits,options",
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      `pidfile = ${path.join(dir, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  if (isRoot) spawnSync("chown", ["-R", "postgres:", dir]);
  const [cmd, args] = isRoot ? ["runuser", ["-u", "postgres", "--", BIN, path.join(dir, "pgbouncer.ini")]] : [BIN, [path.join(dir, "pgbouncer.ini")]];
  const child: ChildProcess = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  try {
    await waitForConnection(port, child, () => output, { name: "pgbouncer", timeoutMs: 20_000 });
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        // runuser does not forward signals: signal PgBouncer itself (SIGINT: safe shutdown)
        const pid = Number(fs.readFileSync(path.join(dir, "pgbouncer.pid"), "utf8").trim());
        try {
          process.kill(pid, "SIGINT");
        } catch {
          child.kill("SIGKILL");
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
